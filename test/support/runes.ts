import type { LiveStatus } from '../../src-shared/bridge/live';
import { registerHooks } from 'node:module';
import type { PreloadBridge } from '../../src-renderer/src/lib/bridge';
import type { Channel, ChannelInput, ChannelOutput, BridgeEvent, EventPayload } from '../../src-shared/bridge';
import type { ErrorKind } from '../../src-shared/errors';
import type * as bridgeModule from '../../src-renderer/src/lib/bridge';
import type * as scopeModule from '../../src-renderer/src/lib/scope.svelte';
import type * as i18nModule from '../../src-renderer/src/lib/i18n.svelte';
import { errorText } from '../../src-shared/error-text';

let registered = false;

/**
 * Imports a renderer module that uses Svelte's runes (`*.svelte.ts`) in a Node test: the module
 * and what it imports are compiled as the app's build does. Import the store through this (not a
 * static import, which would load before the compiler is in place).
 */
export async function importRunes<T>(relativeToRoot: string): Promise<T> {
  if (!registered) {
    const { resolve, load } = await import('./runes-hooks');
    registerHooks({ resolve, load });
    registered = true;
    // No page, no frames: stores that batch per animation frame get a 16 ms timer instead.
    globalThis.requestAnimationFrame ??= (cb: FrameRequestCallback) => setTimeout(() => cb(performance.now()), 16) as unknown as number;
    globalThis.cancelAnimationFrame ??= (id: number) => clearTimeout(id);
    // And no page storage: an in-memory one, empty at the start of each test file.
    if (!('localStorage' in globalThis)) {
      const items = new Map<string, string>();
      const storage = {
        getItem: (k: string) => items.get(k) ?? null,
        setItem: (k: string, v: string) => void items.set(k, String(v)),
        removeItem: (k: string) => void items.delete(k),
        clear: () => items.clear(),
        key: (i: number) => [...items.keys()][i] ?? null,
        get length() {
          return items.size;
        },
      };
      Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true });
    }
  }
  return (await import(new URL(`../../${relativeToRoot}`, import.meta.url).href)) as T;
}

/** Thrown by a fake handler: the main process's error of that kind (e.g. 'Unavailable'). */
export class Refusal extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
  }
}

type Handler<C extends Channel> = (input: ChannelInput<C>) => ChannelOutput<C> | Promise<ChannelOutput<C>>;

/**
 * A bridge for store tests: answers the channels given (others fail as the main process would
 * for an unknown call), records every call, and pushes events on demand.
 */
export function fakeBridge(handlers: { [C in Channel]?: Handler<C> }) {
  const calls: Array<{ channel: Channel; input: unknown; workspaceId: string | null }> = [];
  const listeners = new Set<(name: string, payload: unknown, workspaceId: string | null) => void>();
  const transport: PreloadBridge = {
    async invoke(channel, input, workspaceId) {
      calls.push({ channel: channel as Channel, input, workspaceId: workspaceId ?? null });
      const h = handlers[channel as Channel] as ((i: unknown) => unknown) | undefined;
      if (!h) return { error: { kind: 'Invalid', message: `No answer for ${channel} in this test.` } };
      try {
        return { result: await h(input) };
      } catch (e) {
        if (e instanceof Refusal) return { error: { kind: e.kind, message: e.message } };
        return { error: { kind: 'Internal', message: errorText(e) } };
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    transport,
    calls,
    /** `workspaceId`: the workspace the event belongs to (none: the console's own). */
    emit<E extends BridgeEvent>(name: E, payload: EventPayload<E>, workspaceId: string | null = null): void {
      for (const l of listeners) l(name, payload, workspaceId);
    },
  };
}

/**
 * A fresh fake bridge put in place of the renderer's transport; import the stores after it. The
 * interface language starts as English on an English system, whatever an earlier test chose.
 */
export async function installFakeBridge(handlers: Parameters<typeof fakeBridge>[0]) {
  const { i18n } = await importRunes<typeof i18nModule>('src-renderer/src/lib/i18n.svelte.ts');
  i18n.setLocale('en-US');
  i18n.choose(null);
  const { useTransport } = await importRunes<typeof bridgeModule>('src-renderer/src/lib/bridge.ts');
  const bridge = fakeBridge(handlers);
  useTransport(bridge.transport);
  return bridge;
}

/** A workspace's scope for store tests: its stores are made with `scope.use(Store)` (null: the workspace in front). */
export async function newScope(workspaceId: string | null = null) {
  const { Scope } = await importRunes<typeof scopeModule>('src-renderer/src/lib/scope.svelte.ts');
  return new Scope(workspaceId);
}

/** The live status the main process pushes, in `state` (the rest as a running listener shows it). */
export function liveStatus(state: LiveStatus['state']): LiveStatus {
  return {
    state,
    url: null,
    signed: true,
    registered: true,
    detail: null,
    lastEventAt: null,
    lastResyncAt: null,
    accepted: 0,
    source: 'listener',
    relay: null,
  };
}
