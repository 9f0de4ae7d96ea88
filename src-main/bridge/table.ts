import {
  channels,
  CHANNEL_NAMES,
  type Channel,
  type ChannelOutput,
  type Envelope,
  type BridgeEvent,
  type EventPayload,
  events,
} from '../../src-shared/bridge';
import { AppError } from '../../src-shared/errors';
import { HIDDEN, redactSecrets } from '../../src-shared/secret-fields';
import type { ErrorInfo } from '../../src-shared/errors';
import { hideKnownSecretsIn } from '../secrets';
import type { z } from 'zod';
import { shownError } from '../log';

/** A handler receives its channel's input already parsed by the channel schema. */
export type HandlerTable = {
  [C in Channel]: (input: z.infer<(typeof channels)[C]['input']>) => Promise<ChannelOutput<C>>;
};

export interface BridgeLog {
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/**
 * The longest a bridge call may take before the renderer is told it timed out (the slowest
 * handlers, a transcription or a large upload, wait up to a minute on the service). The handler
 * itself may still finish; the renderer is not left waiting on it.
 */
export const BRIDGE_DEADLINE_MS = 120_000;

const isChannel = (name: unknown): name is Channel => typeof name === 'string' && Object.prototype.hasOwnProperty.call(channels, name);

/** The fields each channel hands over on purpose although their names are a secret's. */
const REVEALS = new Map<Channel, ReadonlySet<string>>(
  CHANNEL_NAMES.flatMap((c) => {
    const spec = channels[c];
    return 'reveals' in spec ? [[c, new Set<string>(spec.reveals)] as const] : [];
  }),
);

/**
 * What crosses the bridge, answers and events alike, through either transport: every field
 * carrying a secret (a user's access key, an agent's token, a password...) at any depth is
 * hidden, whatever the service sent; secrets stay in the main process by construction.
 */
export function leavingMain<T>(value: T, channel?: Channel): T {
  const reveal = (channel && REVEALS.get(channel)) || undefined;
  // Then a secret the console knows (a token, a relay password, a signing secret) in any text:
  // a service echoing the Authorization header into a record, say.
  return hideKnownSecretsIn(redactSecrets(value, reveal), HIDDEN, reveal);
}

/** A credential written after its scheme, in an error's words. */
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/g;

/**
 * An error as it leaves the main process: no secret the console knows, and no credential after
 * its scheme, in any of its words, whoever wrote them (the service's message or the console's).
 */
export function errorLeavingMain(info: ErrorInfo): ErrorInfo {
  const hidden = hideKnownSecretsIn(info, HIDDEN);
  const out: Record<string, unknown> = { ...hidden };
  for (const [k, v] of Object.entries(out))
    if (typeof v === 'string') out[k] = v.replace(BEARER, (_m, scheme: string) => `${scheme} ${HIDDEN}`);
  return out as unknown as ErrorInfo;
}

/**
 * The single entry both transports call: validates the channel and its input, runs the handler,
 * validates the output, and turns every failure into an error value (never a stack).
 */
export async function dispatch(
  table: HandlerTable,
  channel: unknown,
  rawInput: unknown,
  log?: BridgeLog,
  options: { deadlineMs?: number } = {},
): Promise<Envelope<unknown>> {
  if (!isChannel(channel)) {
    return { error: { kind: 'Invalid', message: 'Unknown bridge channel.' } };
  }
  const spec = channels[channel];
  const parsed = spec.input.safeParse(rawInput ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || '(input)';
    return {
      error: errorLeavingMain({
        kind: 'Invalid',
        message: `Invalid input for ${channel}: ${field}: ${issue?.message ?? 'invalid'}`,
        field,
      }),
    };
  }
  const deadlineMs = options.deadlineMs ?? BRIDGE_DEADLINE_MS;
  let timer: NodeJS.Timeout | undefined;
  try {
    const handler = table[channel] as (input: unknown) => Promise<unknown>;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        log?.warn('bridge call passed its deadline', { channel, ms: deadlineMs });
        reject(
          new AppError({
            kind: 'Timeout',
            message: `The console did not finish this within ${deadlineMs >= 1000 ? `${Math.round(deadlineMs / 1000)} s` : `${deadlineMs} ms`}. It may still complete; try again in a moment.`,
          }),
        );
      }, deadlineMs);
    });
    // The race also handles a late rejection of the handler, so it never goes unhandled.
    const output = await Promise.race([handler(parsed.data), late]);
    const checked = spec.output.safeParse(output);
    if (!checked.success) {
      log?.error('bridge output failed its schema', { channel, field: checked.error.issues[0]?.path.join('.') });
      return { error: { kind: 'Internal', message: 'The console produced an answer it could not check. The details are in the log.' } };
    }
    return { result: leavingMain(checked.data, channel) };
  } catch (e) {
    return { error: errorLeavingMain(shownError(log, e, { channel })) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Picks the handler table for a call: the workspace the renderer named (null: the one in front).
 * A call named for a workspace is served by that workspace, whichever is in front by then.
 */
export type Router = (workspaceId: string | null) => HandlerTable;

/**
 * Every channel, each call waiting for the app to have started: the transport serves the page
 * while the services' modules load and a remembered workspace starts, and no call sees them half
 * started. A failed start fails every call with its error.
 */
export function whenStarted(app: Promise<{ route: Router }>): Router {
  const tables = new Map<string | null, HandlerTable>();
  return (workspaceId) => {
    let table = tables.get(workspaceId);
    if (!table) {
      const gated: Record<string, (input: unknown) => Promise<unknown>> = {};
      for (const name of CHANNEL_NAMES) {
        gated[name] = async (input) => ((await app).route(workspaceId)[name] as (input: unknown) => Promise<unknown>)(input);
      }
      // Kept for the few workspaces a console has; a page naming many more only costs rebuilds.
      if (tables.size > 32) tables.clear();
      tables.set(workspaceId, (table = gated as HandlerTable));
    }
    return table;
  };
}

/** Checks a pushed event against its schema, and hides its secrets, before it leaves the main process. */
export function checkEvent<E extends BridgeEvent>(name: E, payload: EventPayload<E>): EventPayload<E> {
  return leavingMain(events[name].parse(payload) as EventPayload<E>);
}

/**
 * Where pushed events go: each transport subscribes. `workspaceId` names the workspace an event
 * belongs to (absent: the console's own), so a page drops what a workspace it left still sent.
 */
export type EventSink = <E extends BridgeEvent>(name: E, payload: EventPayload<E>, workspaceId?: string) => void;

export class EventHub {
  #sinks = new Set<EventSink>();
  subscribe(sink: EventSink): () => void {
    this.#sinks.add(sink);
    return () => this.#sinks.delete(sink);
  }
  emit<E extends BridgeEvent>(name: E, payload: EventPayload<E>, workspaceId?: string): void {
    this.relay(name, checkEvent(name, payload), workspaceId);
  }
  /** Passes on an event another hub already checked. */
  relay<E extends BridgeEvent>(name: E, checked: EventPayload<E>, workspaceId?: string): void {
    for (const sink of this.#sinks) sink(name, checked, workspaceId);
  }
}
