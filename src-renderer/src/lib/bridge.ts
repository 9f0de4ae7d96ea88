import type { BridgeEvent, Channel, ChannelInput, ChannelOutput, Envelope, EventPayload } from '../../../src-shared/bridge';
import type { ErrorInfo } from '../../../src-shared/errors';

/** What the preload exposes in Electron (see src-main/preload.ts). */
export interface PreloadBridge {
  invoke(channel: string, input: unknown): Promise<Envelope<unknown>>;
  subscribe(listener: (name: string, payload: unknown) => void): () => void;
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
    async invoke(channel, input) {
      let res: Response;
      try {
        res = await fetch(`/bridge/${encodeURIComponent(channel)}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(input ?? {}),
          credentials: 'same-origin',
        });
      } catch {
        return { error: { kind: 'Unavailable', message: 'The console host stopped answering. Restart it with npm start.' } };
      }
      if (res.status === 403) return { error: { kind: 'Forbidden', message: 'This page is no longer authorised: open the address the console printed at launch.' } };
      return (await res.json()) as Envelope<unknown>;
    },
    subscribe(listener) {
      const source = new EventSource('/bridge-events');
      source.onmessage = (e: MessageEvent<string>) => {
        const { name, payload } = JSON.parse(e.data) as { name: string; payload: unknown };
        listener(name, payload);
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

export async function invoke<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
  const envelope = await transport().invoke(channel, input);
  if ('error' in envelope) throw new BridgeError(envelope.error);
  return envelope.result as ChannelOutput<C>;
}

type Listener<E extends BridgeEvent> = (payload: EventPayload<E>) => void;
const listeners = new Map<BridgeEvent, Set<Listener<BridgeEvent>>>();
let connected = false;

export function on<E extends BridgeEvent>(name: E, listener: Listener<E>): () => void {
  if (!connected) {
    connected = true;
    transport().subscribe((n, payload) => {
      for (const l of listeners.get(n as BridgeEvent) ?? []) l(payload as EventPayload<BridgeEvent>);
    });
  }
  let set = listeners.get(name);
  if (!set) listeners.set(name, (set = new Set()));
  set.add(listener as Listener<BridgeEvent>);
  return () => set.delete(listener as Listener<BridgeEvent>);
}

export function errorMessage(e: unknown): string {
  return e instanceof BridgeError ? e.info.message : 'Something went wrong. The details are in the log.';
}
