/**
 * The operation's JetStream stream: created and brought to its limits by the operator
 * (`npm run relay -- stream`, as the account's admin user), never by the relay. A relay's user
 * may only read the stream's state and publish events: it cannot widen the subjects the stream
 * captures nor add a republish rule, so a stolen relay password reads nothing it did not carry.
 */
import { DiscardPolicy, JetStreamApiCodes, JetStreamApiError, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import type { JetStreamManager, StreamConfig, StreamInfo } from '@nats-io/jetstream';
import { SEEN_MAX_AGE_MS } from '../webhooks/seen-window';
import { operationSubjects, streamName } from './subjects';

export interface StreamLimits {
  /** How long an event stays for a console that was away. */
  maxAgeMs: number;
  /** A delivery id published again within this long is stored once. */
  duplicateWindowMs: number;
  /** The stream's size on disk; past it the oldest events go first. */
  maxBytes: number;
  /** Copies kept in a JetStream cluster (1 on a single server, 3 on a three-node cluster). */
  replicas: number;
}

const HOUR = 60 * 60 * 1000;

/**
 * Retention: seven days, so a console closed over a long weekend still catches up from the
 * stream; past that the sync's resync at start reads the service itself, so nothing is lost
 * but the hint. Duplicate window: the listener's seen window, 24 hours; a redelivery can only
 * repeat a published event when the relay's answer was lost, and it comes at the service's next
 * attempt (the stand-in retries within seconds; Standard Webhooks' schedule waits 10 hours at
 * most between two), so 24 hours covers two such gaps. Size: 8 GiB on disk.
 */
export const RELAY_LIMITS: StreamLimits = {
  maxAgeMs: 7 * 24 * HOUR,
  duplicateWindowMs: SEEN_MAX_AGE_MS,
  maxBytes: 8 * 1024 ** 3,
  replicas: 1,
};

/** The largest delivery the relay takes: the listener's body limit. */
export const MAX_EVENT_BYTES = 1024 * 1024;
/** The largest message the stream and the server take: an event with room for its headers. */
export const MAX_MESSAGE_BYTES = MAX_EVENT_BYTES + 64 * 1024;

export const nanos = (ms: number) => ms * 1_000_000;

export function streamConfig(operation: string, limits: StreamLimits): StreamConfig {
  if (limits.duplicateWindowMs > limits.maxAgeMs) throw new Error('The duplicate window cannot be longer than the retention.');
  return {
    name: streamName(operation),
    subjects: [operationSubjects(operation)],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    max_age: nanos(limits.maxAgeMs),
    duplicate_window: nanos(limits.duplicateWindowMs),
    max_bytes: limits.maxBytes,
    max_msg_size: MAX_MESSAGE_BYTES,
    num_replicas: limits.replicas,
  } as StreamConfig;
}

const UPDATABLE = ['subjects', 'max_age', 'duplicate_window', 'max_bytes', 'max_msg_size', 'num_replicas', 'discard'] as const;

/** The operator's step: creates the stream, or brings an existing one to `limits`; answers what the server holds. */
export async function ensureStream(jsm: JetStreamManager, operation: string, limits: StreamLimits = RELAY_LIMITS): Promise<StreamInfo> {
  const wanted = streamConfig(operation, limits);
  let info: StreamInfo;
  try {
    info = await jsm.streams.info(wanted.name);
  } catch (e) {
    if (!(e instanceof JetStreamApiError && e.code === JetStreamApiCodes.StreamNotFound)) throw e;
    try {
      return await jsm.streams.add(wanted);
    } catch (again) {
      // Made by another run meanwhile: fall through and compare. Otherwise the refusal is the answer
      // (an account's limits, say), not the stream's absence.
      if (!(again instanceof JetStreamApiError)) throw again;
      info = await jsm.streams.info(wanted.name).catch(() => {
        throw again;
      });
    }
  }
  if (info.config.storage !== StorageType.File)
    throw new Error(`The stream ${wanted.name} exists without file storage; remove it or give it file storage.`);
  const differs = UPDATABLE.some((k) => JSON.stringify(info.config[k]) !== JSON.stringify(wanted[k]));
  if (!differs) return info;
  const { name: _name, ...update } = { ...info.config, ...Object.fromEntries(UPDATABLE.map((k) => [k, wanted[k]])) };
  return jsm.streams.update(wanted.name, update);
}

/**
 * The relay's check at start: the stream exists with file storage and captures its operation's
 * events. Answers what the server holds (the relay takes its duplicate window from it).
 */
export async function checkStream(jsm: JetStreamManager, operation: string): Promise<StreamInfo> {
  const name = streamName(operation);
  let info: StreamInfo;
  try {
    info = await jsm.streams.info(name);
  } catch (e) {
    if (e instanceof JetStreamApiError && e.code === JetStreamApiCodes.StreamNotFound)
      throw new Error(
        `The stream ${name} does not exist yet: create it with \`npm run relay -- stream --operation ${operation}\` (the operator's step).`,
        { cause: e },
      );
    throw e;
  }
  if (info.config.storage !== StorageType.File)
    throw new Error(`The stream ${name} exists without file storage; remove it or give it file storage.`);
  if (!info.config.subjects?.includes(operationSubjects(operation)))
    throw new Error(
      `The stream ${name} does not capture ${operationSubjects(operation)}; run \`npm run relay -- stream\` to bring it to its configuration.`,
    );
  return info;
}
