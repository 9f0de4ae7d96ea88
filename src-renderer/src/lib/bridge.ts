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

/** The workspace in front: every call names it, and events of another are not heard. */
let front: string | null = null;
export function setWorkspace(id: string | null): void {
  front = id;
}
export const frontWorkspace = (): string | null => front;

/**
 * A bridge call, for the workspace in front when it is made: it is served there even if another
 * comes to the front meanwhile. A feature's answer arriving after its workspace left the front is
 * dropped (the view that asked is gone; what the call did is done).
 */
export async function invoke<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
  const named = front;
  const envelope = await transport().invoke(channel, input, named);
  if (named !== front && !channel.startsWith('workspace:')) return new Promise<never>(() => undefined);
  return unwrap<C>(envelope);
}

/** A call for a workspace named outright (in front or not): its answer always comes back. */
export async function invokeIn<C extends Channel>(workspaceId: string, channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
  return unwrap<C>(await transport().invoke(channel, input, workspaceId));
}

function unwrap<C extends Channel>(envelope: Envelope<unknown>): ChannelOutput<C> {
  if ('error' in envelope) throw new BridgeError(envelope.error);
  return envelope.result as ChannelOutput<C>;
}

type Listener<E extends BridgeEvent> = (payload: EventPayload<E>) => void;
const listeners = new Map<BridgeEvent, Set<Listener<BridgeEvent>>>();
let connected = false;

export function on<E extends BridgeEvent>(name: E, listener: Listener<E>): () => void {
  if (!connected) {
    connected = true;
    transport().subscribe((n, payload, workspaceId) => {
      if (workspaceId && workspaceId !== front) return;
      for (const l of listeners.get(n as BridgeEvent) ?? []) l(payload as EventPayload<BridgeEvent>);
    });
  }
  let set = listeners.get(name);
  if (!set) listeners.set(name, (set = new Set()));
  set.add(listener as Listener<BridgeEvent>);
  return () => set.delete(listener as Listener<BridgeEvent>);
}

/** What to tell the user of a failed call, in their language; a fault of the page itself goes to its console. */
export function errorMessage(e: unknown): string {
  if (e instanceof BridgeError) return errorText(e.info);
  console.error(e);
  return pageErrorText();
}
