import type { AppState, DemoPersona } from '../../../../src-shared/bridge';
import { errorMessage, invoke, on, setWorkspace } from '../../lib/bridge';
import { i18n } from '../../lib/i18n.svelte';
import { tick } from 'svelte';

/** Which workspace is open and who is signed in: the root of every other state. */
export class AppStore {
  #state = $state<AppState | null>(null);
  #busy = $state(false);
  #error = $state<string | null>(null);

  get state() {
    return this.#state;
  }
  get busy() {
    return this.#busy;
  }
  get error() {
    return this.#error;
  }

  get signedIn(): boolean {
    return this.#state?.signedIn ?? false;
  }

  #adding = $state(false);
  /** The attendant is adding a workspace beside those open (the connect screen shows). */
  get adding(): boolean {
    return this.#adding;
  }
  set adding(on: boolean) {
    this.#adding = on;
    this.#error = null;
  }

  async load(): Promise<void> {
    on('workspace:state', (s) => this.apply(s));
    try {
      this.apply(await invoke('workspace:state', {}));
    } catch (e) {
      this.#error = errorMessage(e);
    }
  }

  private signOutHooks = new Set<() => void>();
  private signInHooks = new Set<() => void>();

  /** Called each time an account signs in (the demo workspace included). */
  onSignedIn(start: () => void): void {
    this.signInHooks.add(start);
  }

  /** Stores register their reset here, so nothing of one account shows to the next. */
  onSignedOut(reset: () => void): void {
    this.signOutHooks.add(reset);
  }

  #shown = $state<string | null>(null);
  #entering = 0;
  /**
   * The scope the views are showing (null while none, or while one gives way to the next). The
   * views of a scope are gone before the next one's start: whatever they send as they close
   * (a thread let go, a recording stopped) goes to their own workspace, never to the next.
   */
  get shown(): string | null {
    return this.#shown;
  }

  private apply(s: AppState): void {
    const before = scopeOf(this.#state);
    const after = scopeOf(s);
    this.#state = s;
    i18n.setLocale(s.locale);
    if (before === after) {
      if (after === null) setWorkspace(s.active);
      return;
    }
    // The views leave first (their stores reset, their last calls still for their workspace)...
    this.#shown = null;
    if (before !== null) for (const reset of this.signOutHooks) reset();
    const entering = ++this.#entering;
    // ...then, once the page no longer shows them, the next workspace's come.
    void tick().then(() => {
      if (entering !== this.#entering) return;
      setWorkspace(s.active);
      if (after !== null) for (const start of this.signInHooks) start();
      this.#shown = after;
    });
  }

  private async run(action: () => Promise<AppState>): Promise<boolean> {
    this.#busy = true;
    this.#error = null;
    // The workspace shows (its state event) before the call that opened it returns; an "Add a
    // workspace" chosen in between stays open: only an action taken from that screen closes it.
    const fromAdding = this.#adding;
    try {
      this.apply(await action());
      if (fromAdding) this.#adding = false;
      return true;
    } catch (e) {
      this.#error = errorMessage(e);
      return false;
    } finally {
      this.#busy = false;
    }
  }

  /** The demo workspace, seen as its attendant (the default) or as the operation's supervisor. */
  openDemo(as?: DemoPersona): Promise<boolean> {
    return this.run(() => invoke('workspace:openDemo', as ? { as } : {}));
  }

  /** Who the open demo workspace is seen as (null when another workspace is open). */
  get demoPersona(): DemoPersona | null {
    const ws = this.#state?.workspace;
    return ws?.kind === 'demo' ? (ws.as ?? 'agent') : null;
  }

  /** Sees the demo workspace as someone else: like signing out and in again, nothing carries over. */
  async switchDemo(as: DemoPersona): Promise<boolean> {
    if (this.demoPersona === as) return true;
    return this.openDemo(as);
  }

  /**
   * Connects a service account: a workspace beside the others, or the one in front again when it
   * is not signed in (its token refused, or none kept).
   */
  connect(input: { baseUrl: string; token: string; userName?: string; allowWeakStorage: boolean }): Promise<boolean> {
    const s = this.#state;
    const front = s?.workspaces.find((w) => w.id === s.active);
    const replace = !this.#adding && front && !front.signedIn && front.workspace.kind === 'remote' ? { replace: front.id } : {};
    return this.run(() => invoke('workspace:connect', { ...input, ...replace }));
  }

  /** Brings a workspace to the front. */
  focus(id: string): Promise<boolean> {
    if (this.#state?.active === id && !this.#adding) return Promise.resolve(true);
    return this.run(() => invoke('workspace:focus', { id }));
  }

  /** Who the attendant is on the service, picked from its attendants. */
  setUser(userName: string): Promise<boolean> {
    return this.run(() => invoke('workspace:setUser', { userName }));
  }

  /** Signs out of one workspace (the one in front when none is named); the others stay. */
  signOut(id?: string): Promise<boolean> {
    return this.run(() => invoke('workspace:signOut', id ? { id } : {}));
  }
}

/**
 * What the views show: the workspace in front and who is signed in there (null: nobody). A
 * change is like signing out and in: every store starts over, nothing of one shows in another.
 */
function scopeOf(s: AppState | null): string | null {
  return s?.signedIn ? `${s.active ?? ''}|${s.user?.userName ?? ''}` : null;
}

export const app = new AppStore();
