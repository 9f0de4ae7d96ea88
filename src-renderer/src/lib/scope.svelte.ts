import type { BridgeEvent, Channel, ChannelInput, ChannelOutput, EventPayload } from '../../../src-shared/bridge';
import { untrack } from 'svelte';
import { invokeIn, onIn } from './bridge';

/*
 * Svelte records the component being set up in everything reactive made meanwhile (each effect
 * and derived keeps it). A store made while a view starts would so keep that view (its props,
 * and through their getters its elements) for as long as the store lives: long after the view
 * is gone, a whole old page per store. A derived made here, as the module loads, belongs to no
 * component; reading it runs the waiting `make` with none.
 */
let waiting: (() => unknown) | null = null;
let making = false;
let asks = $state(0);
const maker = $derived.by((): { value: unknown } | { error: unknown } => {
  void asks;
  const make = waiting;
  waiting = null;
  making = true;
  try {
    return { value: make ? untrack(make) : undefined };
  } catch (error) {
    return { error };
  } finally {
    making = false;
  }
});

/** Runs `make` as if no view were being set up: what it makes keeps no view alive. */
function outsideViews<T>(make: () => T): T {
  if (making) return make();
  const made = untrack(() => {
    waiting = make;
    asks++;
    return maker;
  });
  if ('error' in made) throw made.error;
  return made.value as T;
}

/**
 * A call made for a workspace that closed before the answer came (signed out, or now seen as
 * someone else). Nobody is left to show it to: the views ignore it.
 */
export class WorkspaceClosed extends Error {
  override readonly name = 'WorkspaceClosed';
  constructor(readonly workspaceId: string | null) {
    super('This workspace has closed.');
  }
}

/** A pushed value being followed (`Scope.follow`). */
export interface Followed<T> {
  /** Asks for the value now; applies the answer unless a push came meanwhile. */
  readonly read: (ask: () => Promise<T>) => Promise<void>;
  /** Stops following before the scope closes (a plain function: it can be handed on as it is). */
  readonly stop: () => void;
}

/** A store that belongs to one workspace: made by its scope, given the scope to work through. */
export type ScopedStore<T> = new (scope: Scope) => T;

/**
 * One workspace, as one person sees it: it makes the stores of that workspace the first time
 * each is asked for, and throws them all away when it closes. Every bridge call of its stores
 * names its workspace (so it is served there whichever workspace is in front) and settles: with
 * its answer while the scope is open, with `WorkspaceClosed` once it has closed. Its listeners
 * hear only its workspace's events and the console's own, and stop when it closes.
 */
export class Scope {
  #stores = new Map<ScopedStore<unknown>, unknown>();
  /** The reactive roots the stores were made in: their derived values live as long as the scope. */
  #roots: Array<() => void> = [];
  #cleanups = new Set<() => void>();
  #pending = new Set<(e: WorkspaceClosed) => void>();
  #open = true;

  /** `workspaceId` null: the workspace in front (the store tests' fake bridge). */
  constructor(readonly workspaceId: string | null) {}

  get open(): boolean {
    return this.#open;
  }

  /** The scope's instance of `Store`, made now if this is the first time it is asked for. */
  use<T>(Store: ScopedStore<T>): T {
    let store = this.#stores.get(Store) as T | undefined;
    if (store === undefined) {
      if (!this.#open) throw new WorkspaceClosed(this.workspaceId);
      // Made in a root of its own, not in whatever view asked first: its derived values must
      // outlive that view (they would stop following their state when it is destroyed), and
      // must not keep it (outsideViews).
      store = outsideViews(() => {
        let made: T | undefined;
        this.#roots.push($effect.root(() => void (made = new Store(this))));
        return made!;
      });
      this.#stores.set(Store, store);
    }
    return store;
  }

  /** Whether the scope made a `Store` (it is made only when something asks for it). */
  has(Store: ScopedStore<unknown>): boolean {
    return this.#stores.has(Store);
  }

  /** How many stores the scope holds now (none once it has closed). */
  get size(): number {
    return this.#stores.size;
  }

  invoke<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
    if (!this.#open) return Promise.reject(new WorkspaceClosed(this.workspaceId));
    return new Promise<ChannelOutput<C>>((resolve, reject) => {
      const closed = (e: WorkspaceClosed) => reject(e);
      this.#pending.add(closed);
      invokeIn(this.workspaceId, channel, input).then(
        (v) => {
          if (this.#pending.delete(closed)) resolve(v);
        },
        (e: unknown) => {
          // The bridge rejects with a BridgeError; anything else is wrapped, never lost.
          if (this.#pending.delete(closed)) reject(e instanceof Error ? e : new Error('The bridge call failed.', { cause: e }));
        },
      );
    });
  }

  /** Hears `name` for this workspace until the returned call, or until the scope closes. */
  on<E extends BridgeEvent>(name: E, listener: (payload: EventPayload<E>) => void): () => void {
    if (!this.#open) return () => undefined;
    const off = onIn(this.workspaceId, name, listener);
    const stop = () => {
      this.#cleanups.delete(stop);
      off();
    };
    this.#cleanups.add(stop);
    return stop;
  }

  /**
   * Follows a value the main process pushes as `name` whenever it changes, and answers when asked:
   * `read` asks for it, and applies the answer only when no push came while it was on its way
   * (pushes and answers travel apart; an answer overtaken by a push is older than what it shows).
   */
  follow<E extends BridgeEvent>(name: E, apply: (value: EventPayload<E>) => void): Followed<EventPayload<E>> {
    let pushes = 0;
    const stop = this.on(name, (v) => {
      pushes++;
      apply(v);
    });
    return {
      stop,
      read: async (ask) => {
        const at = pushes;
        const v = await ask();
        if (pushes === at) apply(v);
      },
    };
  }

  /** Runs `cleanup` when the scope closes (a timer, a page listener, a device to let go of). */
  onClose(cleanup: () => void): void {
    if (this.#open) this.#cleanups.add(cleanup);
    else cleanup();
  }

  /**
   * Closes the scope: calls still on their way settle with `WorkspaceClosed`, each store's
   * `dispose()` runs (newest first), listeners stop, and the stores are forgotten.
   */
  close(): void {
    if (!this.#open) return;
    this.#open = false;
    const closed = new WorkspaceClosed(this.workspaceId);
    for (const settle of this.#pending) settle(closed);
    this.#pending.clear();
    for (const store of [...this.#stores.values()].reverse()) (store as { dispose?: () => void }).dispose?.();
    this.#stores.clear();
    for (const destroy of this.#roots.splice(0)) destroy();
    for (const cleanup of [...this.#cleanups].reverse()) cleanup();
    this.#cleanups.clear();
  }
}

/**
 * Every workspace scope of the page, by key (the workspace and who is signed in there), and the
 * one the views show. A scope lives while its workspace stays signed in as the same person, in
 * front or not, so each workspace keeps its own state while another is in front.
 */
export class Scopes {
  #all = new Map<string, Scope>();
  #shown = $state.raw<Scope | null>(null);
  #opened = new Set<(scope: Scope) => void>();

  /** The scope the views show (null: none, or one giving way to the next). */
  get shown(): Scope | null {
    return this.#shown;
  }

  /** Runs `start` for every scope that opens (the features' listeners that live as long as it). */
  onOpen(start: (scope: Scope) => void): void {
    this.#opened.add(start);
  }

  /** The scope of `key`, opened now if it is not open yet. */
  of(key: string, workspaceId: string | null): Scope {
    let scope = this.#all.get(key);
    if (!scope) {
      this.#all.set(key, (scope = new Scope(workspaceId)));
      for (const start of this.#opened) start(scope);
    }
    return scope;
  }

  /** The views show `key`'s scope (opened if needed), or none. */
  show(key: string | null, workspaceId: string | null): Scope | null {
    this.#shown = key === null ? null : this.of(key, workspaceId);
    return this.#shown;
  }

  /** Closes every scope whose key is not in `live` (signed out, or someone else signed in). */
  keepOnly(live: ReadonlySet<string>): void {
    for (const [key, scope] of this.#all) {
      if (live.has(key)) continue;
      this.#all.delete(key);
      if (this.#shown === scope) this.#shown = null;
      scope.close();
    }
  }

  /** The keys of the scopes open now. */
  get keys(): string[] {
    return [...this.#all.keys()];
  }
}

export const scopes = new Scopes();

/**
 * The shown workspace's `Store`, for a view (views live inside one scope: the shell is made
 * again when another is shown). Throws when no workspace is shown, which is a bug.
 */
export function useStore<T>(Store: ScopedStore<T>): T {
  const scope = scopes.shown;
  if (!scope) throw new Error(`${Store.name}: no workspace is shown.`);
  return scope.use(Store);
}

/** The shown workspace's `Store`, or null when none is shown (commands, console-wide stores). */
export function frontStore<T>(Store: ScopedStore<T>): T | null {
  return scopes.shown?.use(Store) ?? null;
}
