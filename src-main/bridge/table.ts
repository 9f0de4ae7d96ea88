import { channels, type Channel, type ChannelOutput, type Envelope, type BridgeEvent, type EventPayload, events } from '../../src-shared/bridge';
import { AppError, toErrorInfo } from '../../src-shared/errors';
import type { z } from 'zod';

/** A handler receives its channel's input already parsed by the channel schema. */
export type HandlerTable = {
  [C in Channel]: (input: z.infer<(typeof channels)[C]['input']>) => Promise<ChannelOutput<C>>;
};

export interface BridgeLog {
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const isChannel = (name: unknown): name is Channel =>
  typeof name === 'string' && Object.prototype.hasOwnProperty.call(channels, name);

/**
 * The single entry both transports call: validates the channel and its input, runs the handler,
 * validates the output, and turns every failure into an error value (never a stack).
 */
export async function dispatch(table: HandlerTable, channel: unknown, rawInput: unknown, log?: BridgeLog): Promise<Envelope<unknown>> {
  if (!isChannel(channel)) {
    return { error: { kind: 'Invalid', message: 'Unknown bridge channel.' } };
  }
  const spec = channels[channel];
  const parsed = spec.input.safeParse(rawInput ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || '(input)';
    return { error: { kind: 'Invalid', message: `Invalid input for ${channel}: ${field}: ${issue?.message ?? 'invalid'}`, field } };
  }
  try {
    const handler = table[channel] as (input: unknown) => Promise<unknown>;
    const output = await handler(parsed.data);
    const checked = spec.output.safeParse(output);
    if (!checked.success) {
      log?.error('bridge output failed its schema', { channel, field: checked.error.issues[0]?.path.join('.') });
      return { error: { kind: 'Internal', message: 'The console produced an answer it could not check. The details are in the log.' } };
    }
    return { result: checked.data };
  } catch (e) {
    if (!(e instanceof AppError)) log?.error('bridge handler failed', { channel, error: e instanceof Error ? e.message : String(e) });
    return { error: toErrorInfo(e) };
  }
}

/** Checks a pushed event against its schema before it leaves the main process. */
export function checkEvent<E extends BridgeEvent>(name: E, payload: EventPayload<E>): EventPayload<E> {
  return events[name].parse(payload) as EventPayload<E>;
}

/** Where pushed events go: each transport subscribes. */
export type EventSink = <E extends BridgeEvent>(name: E, payload: EventPayload<E>) => void;

export class EventHub {
  private sinks = new Set<EventSink>();
  subscribe(sink: EventSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }
  emit<E extends BridgeEvent>(name: E, payload: EventPayload<E>): void {
    const checked = checkEvent(name, payload);
    for (const sink of this.sinks) sink(name, checked);
  }
}
