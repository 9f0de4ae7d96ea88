/**
 * A console's live events from a team relay: a durable JetStream consumer of its own, named
 * after the console and filtered to its operation's subjects, read while the workspace is open.
 *
 * Each event is acknowledged only once `apply` resolved (the sync read what it hints at), so a
 * console that slept, was offline or closed finds on its next connection every event it had not
 * applied, kept by the server; a failed apply is handed back (nak) and comes again later. An id
 * applied in this run and delivered again (its acknowledgement was lost) is acknowledged without
 * a second apply. Events are hints either way: the sync reads the service itself.
 */
import { connect } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  jetstream,
  jetstreamManager,
  type ConsumerMessages,
  type JsMsg,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { describeBody } from '../webhooks/check-request';
import { SeenWindow } from '../webhooks/seen-window';
import type { ReceivedEvent, WebhookLogger } from '../webhooks/types';
import { connectOptions, type NatsCredentials } from './connection';
import { RELAY_LIMITS, nanos } from './stream';
import { MSG_ID_HEADER, checkName, consoleInbox, operationSubjects, streamName } from './subjects';
import { errorText } from '../../src-shared/error-text';
import { systemClock } from '../clock';
import { backoffDelay, noJitter, type Backoff } from '../../src-shared/error-kinds';

/**
 * connecting: the first connection is being made; live: events are read; unreachable: NATS
 * does not answer (the safety-net poll carries on, and the consumer catches up once it is
 * back); refused: NATS turned the credentials or the consumer down (the user has to act).
 */
export type RelaySourceState = 'connecting' | 'live' | 'unreachable' | 'refused' | 'stopped';

/** Why a source is not live, as a code the console words in the user's language. */
export type RelayReason = 'unreachable' | 'lost' | 'silent' | 'stream' | 'credentials' | 'permissions' | 'tls' | 'consumer';

/** The reasons in English, for logs and the relay's own messages. */
export const RELAY_REASONS: Record<RelayReason, string> = {
  unreachable: 'NATS cannot be reached.',
  lost: 'The connection to NATS was lost.',
  silent: 'NATS stopped answering.',
  stream: "The operation's stream does not exist yet: the relay has never run for it.",
  credentials: 'NATS refused the credentials.',
  permissions: "NATS does not let these credentials read this operation's events.",
  tls: 'NATS could not be reached over TLS, which an address off this computer requires.',
  consumer: "The relay's stream refused this console's consumer.",
};

export interface RelaySourceStats {
  /** Events applied (and acknowledged). */
  applied: number;
  /** Deliveries of an id already applied in this run, acknowledged without applying. */
  duplicates: number;
  /** Applies that failed: handed back to come again. */
  failed: number;
}

export interface RelaySourceOptions {
  address: string;
  credentials: NatsCredentials;
  /** The operation's name at the relay (its stream is RELAY_<operation>). */
  operation: string;
  /** This console's name at the relay: its durable consumer and its inbox. */
  console: string;
  /** Resolves once the event was applied; a rejection hands it back, to come again. */
  apply(e: ReceivedEvent): Promise<void>;
  /**
   * Where applied ids are kept durably (`AppliedLog`): each is recorded before its
   * acknowledgement, so an event applied just before a crash is not applied again after it.
   */
  applied?: { has(id: string): boolean; record(id: string): Promise<void> };
  /** Called once an applied event is recorded, just before its acknowledgement (tests crash here). */
  beforeAck?(id: string): Promise<void> | void;
  onState?(state: RelaySourceState, reason: RelayReason | null): void;
  log?: WebhookLogger;
  /** Events applied at once, each acknowledged after its own apply. Default 32. */
  maxInFlight?: number;
  /** How long `close` lets events being applied finish before handing them back. Default 5 s. */
  closeGraceMs?: number;
  /** Waits between connection attempts, doubling (src-shared's one backoff). Default 1 s up to 30 s. */
  retry?: Backoff;
  /** The client's own reconnect pace once connected. Default 1 s. */
  reconnectTimeWaitMs?: number;
  caFile?: string;
}

export interface RelaySource {
  readonly state: RelaySourceState;
  readonly reason: RelayReason | null;
  /** The reason in English. */
  readonly detail: string | null;
  stats(): RelaySourceStats;
  /** Stops reading: events being applied finish and are acknowledged (up to 5 s), the rest stay for next time. */
  close(): Promise<void>;
}

const RETRY: Backoff = { baseMs: 1_000, maxMs: 30_000 };
/** Events that could not be applied come again after this backoff, by their delivery count. */
const NAK: Backoff = { baseMs: 1_000, maxMs: 60_000 };
const silent: WebhookLogger = { info() {}, warn() {}, error() {} };
/** How long one pull for events lasts (its heartbeats come at half of it). */
const PULL_EXPIRES_MS = 10_000;
/** While an apply runs longer than this, the server is told it is still being worked on. */
const WORKING_MS = 10_000;
const ACK_WAIT_MS = 30_000;

/** An error of the server's that waiting will not cure, or null. */
function refusal(e: unknown): RelayReason | null {
  const text = errorText(e);
  if (/authorization violation|authentication|user.*password|token/i.test(text)) return 'credentials';
  if (/permissions violation/i.test(text)) return 'permissions';
  if (/tls/i.test(text)) return 'tls';
  if (e instanceof JetStreamApiError && e.code !== JetStreamApiCodes.StreamNotFound) return 'consumer';
  return null;
}

const describe = (e: unknown) => errorText(e);

/** `p`, or nothing after `ms` (a step that waits on a server that may not answer). */
async function within(ms: number, p: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p.catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** The event as the listener hands it out: the relay stored only signed deliveries, byte for byte. */
export function eventOf(m: JsMsg, receivedAt: number): ReceivedEvent {
  const raw = m.string();
  const id = m.headers?.get(MSG_ID_HEADER) || `stream:${m.seq}`;
  let facts: ReturnType<typeof describeBody> = { known: false };
  try {
    facts = describeBody(JSON.parse(raw));
  } catch {
    // kept as received: the event log shows it
  }
  return { id, receivedAt, signature: 'valid', raw, ...facts };
}

export function startRelaySource(o: RelaySourceOptions): RelaySource {
  checkName('operation', o.operation);
  checkName('console', o.console);
  const source = new ConsoleSource(o);
  source.begin();
  return source;
}

/** A console's reading of the relay: one connection at a time, again after a pause when it ends. */
class ConsoleSource implements RelaySource {
  readonly #o: RelaySourceOptions;
  readonly #log: WebhookLogger;
  readonly #stream: string;
  readonly #maxInFlight: number;
  readonly #retry: Backoff;
  readonly #seen = new SeenWindow(undefined, RELAY_LIMITS.duplicateWindowMs);
  readonly #counts: RelaySourceStats = { applied: 0, duplicates: 0, failed: 0 };
  readonly #inFlight = new Set<Promise<void>>();
  /** Messages whose apply has not finished: handed back at close if it does not finish in time. */
  readonly #applying = new Set<JsMsg>();
  #state: RelaySourceState = 'connecting';
  #reason: RelayReason | null = null;
  #closed = false;
  #nc: NatsConnection | null = null;
  #messages: ConsumerMessages | null = null;
  #wake: (() => void) | null = null;
  #running: Promise<void> = Promise.resolve();

  constructor(o: RelaySourceOptions) {
    this.#o = o;
    this.#log = o.log ?? silent;
    this.#stream = streamName(o.operation);
    this.#maxInFlight = o.maxInFlight ?? 32;
    this.#retry = o.retry ?? RETRY;
  }

  begin(): void {
    this.#running = this.#run();
  }

  #setState(next: RelaySourceState, why: RelayReason | null = null): void {
    if (this.#closed && next !== 'stopped') return;
    if (next === this.#state && why === this.#reason) return;
    this.#state = next;
    this.#reason = why;
    try {
      this.#o.onState?.(next, why);
    } catch (e) {
      this.#log.warn('relay: a state listener failed', { error: describe(e) });
    }
  }

  #pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  async #handle(m: JsMsg): Promise<void> {
    const o = this.#o;
    const event = eventOf(m, systemClock.now());
    if (this.#seen.has(event.id, systemClock.now()) || o.applied?.has(event.id)) {
      this.#counts.duplicates++;
      m.ack();
      return;
    }
    const working = setInterval(() => m.working(), WORKING_MS);
    this.#applying.add(m);
    try {
      await o.apply(event);
      // On disk before the acknowledgement: a crash in between finds it applied at the next start.
      await o.applied?.record(event.id);
      await o.beforeAck?.(event.id);
      if (!this.#applying.has(m)) return;
      this.#seen.add(event.id, systemClock.now(), systemClock.now());
      this.#counts.applied++;
      m.ack();
    } catch (e) {
      if (!this.#applying.has(m)) return;
      this.#counts.failed++;
      // Back off per attempt, up to a minute: the sync cannot read the service right now.
      m.nak(backoffDelay(m.info.deliveryCount, NAK, noJitter));
      this.#log.warn('relay: an event could not be applied; it comes again', { error: describe(e) });
    } finally {
      this.#applying.delete(m);
      clearInterval(working);
    }
  }

  /** The connection's own news: lost, back, refused. */
  #watchConnection(conn: NatsConnection): void {
    void (async () => {
      for await (const s of conn.status()) {
        if (s.type === 'disconnect') this.#setState('unreachable', 'lost');
        else if (s.type === 'reconnect' && this.#messages) this.#setState('live');
        else if (s.type === 'error') {
          const why = refusal(s.error);
          if (why) this.#setState('refused', why);
        }
      }
    })();
  }

  /** The console's durable consumer on the operation's stream, made if missing. */
  async #ensureConsumer(conn: NatsConnection): Promise<void> {
    const o = this.#o;
    const jsm = await jetstreamManager(conn, { checkAPI: false });
    try {
      await jsm.consumers.add(this.#stream, {
        durable_name: o.console,
        ack_policy: AckPolicy.Explicit,
        // A console new to the relay starts from now: its first sync reads the service.
        deliver_policy: DeliverPolicy.New,
        filter_subject: operationSubjects(o.operation),
        ack_wait: nanos(ACK_WAIT_MS),
        max_ack_pending: 1000,
        // A console away for the whole retention has nothing left to catch up with there.
        inactive_threshold: nanos(RELAY_LIMITS.maxAgeMs),
      });
    } catch (e) {
      // An existing consumer made with other settings still serves; anything else stops here.
      if (!(e instanceof JetStreamApiError) || !/already (exists|in use)/i.test(e.message)) throw e;
    }
  }

  /** The consumer's own news: silent, deleted, back. */
  #watchMessages(conn: NatsConnection, messages: ConsumerMessages): void {
    void (async () => {
      for await (const s of messages.status()) {
        if (s.type === 'heartbeats_missed' && s.count >= 2) this.#setState('unreachable', 'silent');
        else if (s.type === 'consumer_deleted' || (s.type === 'consumer_not_found' && s.count >= 3)) this.#messages?.stop();
        else if (s.type === 'next' && this.#state === 'unreachable' && !conn.isClosed()) this.#setState('live');
      }
    })();
  }

  /** Connects, makes sure the consumer exists and reads until the connection closes or `close`. */
  async #session(): Promise<void> {
    const o = this.#o;
    const options = connectOptions(o.address, o.credentials, {
      name: `console ${o.console}`,
      inboxPrefix: consoleInbox(o.operation, o.console),
      caFile: o.caFile,
      ...(o.reconnectTimeWaitMs !== undefined ? { reconnectTimeWait: o.reconnectTimeWaitMs } : {}),
    });
    const conn = await connect(options);
    this.#nc = conn;
    if (this.#closed) return void (await conn.close());
    this.#watchConnection(conn);
    await this.#ensureConsumer(conn);
    const consumer = await jetstream(conn, { checkAPI: false }).consumers.get(this.#stream, o.console);
    // Each pull lasts 10 s (heartbeats every 5 s): a pull lost with a node that died is noticed
    // after two missed heartbeats and asked again of the nodes left, not after the default 30 s.
    const messages = await consumer.consume({ max_messages: this.#maxInFlight * 2, expires: PULL_EXPIRES_MS });
    this.#messages = messages;
    this.#watchMessages(conn, messages);
    this.#setState('live');
    const inFlight = this.#inFlight;
    for await (const m of messages) {
      const p: Promise<void> = this.#handle(m).finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= this.#maxInFlight) await Promise.race(inFlight);
    }
  }

  async #run(): Promise<void> {
    for (let attempt = 0; !this.#closed; attempt++) {
      try {
        await this.#session();
        if (!this.#closed) attempt = -1;
      } catch (e) {
        if (this.#closed) break;
        const why = refusal(e);
        const noStream = e instanceof JetStreamApiError && e.code === JetStreamApiCodes.StreamNotFound;
        this.#setState(why ? 'refused' : 'unreachable', why ?? (noStream ? 'stream' : 'unreachable'));
        this.#log.warn("relay: could not read the relay's events", { error: describe(e) });
        // A refusal stands until someone changes something: asked again only now and then.
        if (why) attempt = Number.POSITIVE_INFINITY;
      }
      const conn = this.#nc;
      this.#messages = null;
      if (this.#closed) break;
      this.#nc = null;
      await Promise.all(this.#inFlight);
      await within(2_000, conn?.close() ?? Promise.resolve());
      // Jittered: the consoles of an operation that lost the relay together do not all come back at once.
      if (!this.#closed) await this.#pause(backoffDelay(Math.max(attempt, 0) + 1, this.#retry));
    }
  }

  get state(): RelaySourceState {
    return this.#state;
  }

  get reason(): RelayReason | null {
    return this.#reason;
  }

  get detail(): string | null {
    return this.#reason && RELAY_REASONS[this.#reason];
  }

  stats(): RelaySourceStats {
    return { ...this.#counts };
  }

  async close(): Promise<void> {
    if (this.#closed) return this.#running;
    this.#closed = true;
    this.#messages?.stop();
    this.#wake?.();
    await within(this.#o.closeGraceMs ?? 5_000, Promise.all(this.#inFlight));
    // Still applying: handed back now, so the next start gets them at once (not after the ack wait).
    for (const m of this.#applying) m.nak();
    this.#applying.clear();
    // Acknowledgements written before the connection goes (when NATS answers at all).
    const conn = this.#nc;
    await within(2_000, conn?.flush() ?? Promise.resolve());
    await within(2_000, conn?.close() ?? Promise.resolve());
    await within(2_000, this.#running);
    this.#setState('stopped');
  }
}
