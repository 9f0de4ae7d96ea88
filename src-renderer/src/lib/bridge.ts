import type { BridgeEvent, Channel, ChannelInput, ChannelOutput, Envelope, EventPayload } from '../../../src-shared/bridge';
import type { ErrorInfo } from '../../../src-shared/errors';
import { WORKSPACE_HEADER } from '../../../src-shared/ipc';
import { errorText, pageErrorText } from './error-strings';

/** What the preload exposes in Electron (see src-main/preload.ts). */
export interface PreloadBridge {
  /** `workspaceId`: the workspace the call is for (null: the one in front). */
  invoke(channel: string, input: unknown, workspaceId: string | null): Promise<Envelope<unknown>>;
  /** `workspaceId`: the workspace an event belongs to (null: the console's own). */
  subscribe(listener: (name: string, payload: unknown, workspaceId: string | null) => void): () => void;
}

declare global {
  interface Window {
    consoleBridge?: PreloadBridge;
  }
}

/** A bridge call that failed: carries the error value the main process sent. */
export class BridgeError extends Error {
  constructor(readonly info: ErrorInfo) {
    super(info.message);
  }
}

/** The web host's transport: same channels over fetch, events over server-sent events. */
function webTransport(): PreloadBridge {
  return {
    async invoke(channel, input, workspaceId) {
      let res: Response;
      try {
        res = await fetch(`/bridge/${encodeURIComponent(channel)}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...(workspaceId ? { [WORKSPACE_HEADER]: workspaceId } : {}) },
          body: JSON.stringify(input ?? {}),
          credentials: 'same-origin',
        });
      } catch {
        return { error: { kind: 'Unavailable', message: 'The console host stopped answering. Restart it with npm start.' } };
      }
      if (res.status === 403)
        return {
          error: { kind: 'Forbidden', message: 'This page is no longer authorised: open the address the console printed at launch.' },
        };
      return (await res.json()) as Envelope<unknown>;
    },
    subscribe(listener) {
      const source = new EventSource('/bridge-events');
      source.onmessage = (e: MessageEvent<string>) => {
        const { name, payload, workspaceId } = JSON.parse(e.data) as { name: string; payload: unknown; workspaceId?: string };
        listener(name, payload, workspaceId ?? null);
      };
      return () => source.close();
    },
  };
}

let chosen: PreloadBridge | null = null;
/** The preload's bridge in Electron, else the web host's; chosen at first use. */
const transport = (): PreloadBridge => (chosen ??= globalThis.window?.consoleBridge ?? webTransport());

/**
 * Puts another transport in place, before any call: the store tests (in Node, no page) answer
 * the channels themselves. Events subscribed so far are forgotten.
 */
export function useTransport(t: PreloadBridge): void {
  chosen = t;
  connected = false;
  listeners.clear();
}

/**
 * The workspace in front. Console-wide calls (`invoke`) name it, and console-wide listeners
 * (`on`) hear only its events. What belongs to one workspace goes through that workspace's
 * scope instead (`lib/scope.svelte.ts`), which names its workspace on every call.
 */
let front: string | null = null;
export function setWorkspace(id: string | null): void {
  front = id;
}

/** A console-wide call (which workspaces, the badge, the key bindings), for the workspace in front. */
export async function invoke<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
  return invokeIn(front, channel, input);
}

/** A call for a workspace named outright, in front or not (null: the one in front). */
export async function invokeIn<C extends Channel>(
  workspaceId: string | null,
  channel: C,
  input: ChannelInput<C>,
): Promise<ChannelOutput<C>> {
  inFlight++;
  try {
    return unwrap<C>(await transport().invoke(channel, input, workspaceId));
  } finally {
    inFlight--;
  }
}

/** Bridge calls sent and not answered yet. */
let inFlight = 0;

/**
 * Resolves once the page is quiet: no bridge call waiting for its answer for two frames in a row
 * (what the answers brought has been drawn, and no view asked for more meanwhile), or after
 * `withinMs` whatever is still waiting.
 */
export async function whenCallsSettled(withinMs = 10_000): Promise<void> {
  // Without frames (the store tests run in Node), a frame's worth of time stands in for one.
  const frame = () =>
    new Promise<void>((resolve) =>
      typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => resolve()) : setTimeout(resolve, 16),
    );
  const until = Date.now() + withinMs;
  for (let quiet = 0; quiet < 2 && Date.now() < until;) {
    await frame();
    quiet = inFlight === 0 ? quiet + 1 : 0;
  }
}

function unwrap<C extends Channel>(envelope: Envelope<unknown>): ChannelOutput<C> {
  if ('error' in envelope) throw new BridgeError(envelope.error);
  return envelope.result as ChannelOutput<C>;
}

type Listener<E extends BridgeEvent> = (payload: EventPayload<E>) => void;
/** Each listener with the workspace whose events it hears (`FRONT`: whichever is in front). */
const FRONT = Symbol('front');
type Heard = { workspace: string | typeof FRONT; listener: Listener<BridgeEvent> };
const listeners = new Map<BridgeEvent, Set<Heard>>();
let connected = false;

function listen<E extends BridgeEvent>(name: E, workspace: Heard['workspace'], listener: Listener<E>): () => void {
  if (!connected) {
    connected = true;
    transport().subscribe((n, payload, workspaceId) => {
      for (const h of listeners.get(n as BridgeEvent) ?? []) {
        // An event of one workspace reaches that workspace's listeners; the console's own reach all.
        const wanted = h.workspace === FRONT ? front : h.workspace;
        if (workspaceId && workspaceId !== wanted) continue;
        h.listener(payload as EventPayload<BridgeEvent>);
      }
    });
  }
  let set = listeners.get(name);
  if (!set) listeners.set(name, (set = new Set()));
  const heard: Heard = { workspace, listener: listener };
  set.add(heard);
  return () => set.delete(heard);
}

/** A console-wide listener: the console's own events, and those of the workspace in front. */
export function on<E extends BridgeEvent>(name: E, listener: Listener<E>): () => void {
  return listen(name, FRONT, listener);
}

/** A workspace's listener: the console's own events, and that workspace's (null: the one in front). */
export function onIn<E extends BridgeEvent>(workspaceId: string | null, name: E, listener: Listener<E>): () => void {
  return listen(name, workspaceId ?? FRONT, listener);
}

/**
 * What a store keeps of a failure: a wording, not worded text. It is called each time the page
 * shows it, so an error on screen follows a switch of language (a store getter that calls it
 * inside a component's render is re-read when the language changes).
 */
export type Worded = () => string;

/** An error value the main process sent inside an answer, to be worded when shown. */
export const wordingOf =
  (info: ErrorInfo): Worded =>
  () =>
    errorText(info);

/** A failed call, to be worded when shown; a fault of the page itself goes to its console. */
export function failure(e: unknown): Worded {
  if (e instanceof BridgeError) {
    return wordingOf(e.info);
  }
  console.error(e);
  return pageErrorText;
}

/** A wording kept by a store, worded now (null stays null). */
export const worded = (w: Worded | null): string | null => (w ? w() : null);
