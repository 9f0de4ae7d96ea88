import type { ThreadMessage } from '../../../src-shared/bridge/attendance';
import { idOf, record, sessionIdOf } from '../../../src-shared/concepts';
import { AppError } from '../../../src-shared/errors';
import { readRecord, type Read } from '../../../src-shared/envelopes';
import { MessageSchema, type Message } from '../../../src-shared/schemas/index';
import { describeSkip } from '../../../src-shared/unreadable';
import type { WebhookEvent } from '../../../src-shared/webhook';
import { Coalescer } from '../../sync/coalesce';
import { SyncEngine, type SyncSource } from '../../sync/engine';
import type { FeatureContext } from '../context';
import type { OfflineFeature } from '../offline';
import { toEntities, toThreadMessage } from './project';
import type { QueueFeature } from './queue';
import { readSession, syncSource, type StampedMessage, type StampedSession } from './reads';
import type { Threads } from './thread';
import { errorText } from '../../../src-shared/error-text';

const NEWS_READS_PER_PASS = 20;

export interface NewsDeps {
  queue: QueueFeature;
  offline: OfflineFeature;
  threads: Threads;
}

/**
 * What reaches the attendant without being asked for: webhook events as hints, the sync
 * engine's reads forward (open threads and the queue), the safety-net poll's pass, and the
 * customer's messages that call for attention.
 */
export class News {
  readonly sync: SyncEngine<StampedMessage, StampedSession>;
  readonly #ctx: FeatureContext;
  readonly #d: NewsDeps;
  readonly #pushes: Coalescer<number, ThreadMessage>;
  /**
   * Sessions whose customer wrote, to call the attendant for: one call per session per push, so
   * a customer's burst of messages (or a burst of events) is one notice showing the newest.
   */
  readonly #calls: Coalescer<number, true>;
  readonly #poll: ReturnType<typeof pollNews>;
  /** Session reads under way to tell a message's author, one per session. */
  readonly #partyReads = new Map<number, Promise<void>>();

  constructor(ctx: FeatureContext, d: NewsDeps) {
    const { queue, offline, threads } = d;
    this.#ctx = ctx;
    this.#d = d;
    this.#pushes = new Coalescer<number, ThreadMessage>((sessionId, messages) => {
      const byId = new Map<number, ThreadMessage>();
      for (const m of messages) byId.set(m.id, m);
      ctx.events.emit('attendance:messages', { sessionId, messages: [...byId.values()] });
    });
    this.#calls = new Coalescer<number, true>((sessionId) => this.#call(sessionId));
    const source = syncSource(
      () => ctx.client(),
      (id) => threads.parties.get(id),
    );
    this.#poll = pollNews(ctx, { ...d, source, announce: (sessionId, m) => this.#announce(sessionId, m) });
    this.sync = new SyncEngine<StampedMessage, StampedSession>({
      source,
      sink: {
        messages: (sessionId, fresh) => this.#messagesRead(sessionId, fresh),
        sessions: (changed) => this.#poll.sessionsChanged(changed),
        error: (what, e) => {
          offline.monitor.report(e);
          ctx.log.warn('sync failed', { what, error: errorText(e) });
        },
        queueSynced: () => queue.synced(),
      },
    });
    // Back online: every open thread and the queue are read forward from their marks.
    offline.onBack(() => void this.sync.resyncAll());
    queue.onLoaded = (mark) => {
      this.sync.setQueueMark(mark);
      this.#poll.loaded(mark?.stamp ?? null);
    };
  }

  /**
   * A webhook event (a hint): what it names is read again from the service. Resolves once those
   * reads are done; rejects when one could not reach the service (the event is not applied yet).
   */
  onEvent(e: WebhookEvent): Promise<void> {
    const { threads } = this.#d;
    const data = record(e.data) ?? {};
    const sessionId = sessionIdOf(data) ?? sessionIdOf(record(data.message) ?? {});
    if (e.type === 'entities.recognized' && sessionId !== null) {
      const messageId = idOf(data.messageId);
      const found = toEntities(data.entities);
      if (messageId !== null) {
        threads.entities.set(messageId, found);
        if (threads.open.has(sessionId) && found.length)
          this.#ctx.events.emit('attendance:entities', { sessionId, messageId, entities: found });
      }
      return Promise.resolve();
    }
    const reads = [this.sync.hintQueue(), ...(sessionId !== null ? [this.sync.hintSession(sessionId)] : [])];
    if (e.group === 'messages' && sessionId !== null && data.message != null) {
      // The event's message is read by the message's schema, as a list's would be.
      const message = data.message;
      // In the service's zone, as its answers are read (the event comes from the same service).
      const got = this.#ctx.client().time.read(() => readRecord(MessageSchema, message, 'message'));
      if (got.ok) void this.#customerWrote(sessionId, got.record);
      else this.#ctx.log.warn('event: message not read', { event: e.id, first: describeSkip(got.skip) });
    }
    return Promise.all(reads).then((done) => {
      if (done.includes(false)) throw new AppError({ kind: 'Unavailable', message: 'The service could not be read for this event.' });
    });
  }

  /** After a gap: every open session from its high-water mark, and the queue from its own. */
  resync(): Promise<{ found: number; errors: unknown[] }> {
    return this.#poll.pass(() => this.sync.resyncAll());
  }

  /** A new workspace: nothing tracked, nothing waiting to be pushed. */
  clear(): void {
    for (const id of this.sync.tracked()) this.sync.untrack(id);
    this.sync.setQueueMark(null);
    this.#pushes.clear();
    this.#calls.clear();
  }

  stop(): void {
    this.#pushes.clear();
    this.#calls.clear();
    this.sync.stop();
  }

  /** Messages the sync engine read forward in an open thread. */
  #messagesRead(sessionId: number, fresh: readonly StampedMessage[]): void {
    const { queue, offline, threads } = this.#d;
    this.#pushes.push(sessionId, ...fresh.map((f) => f.message));
    threads.rememberShown(
      sessionId,
      fresh.map((f) => f.message),
    );
    // An attendant's reply among them stops the customer's wait; a customer's starts it.
    queue.conversation(fresh.map((f) => f.message));
    for (const f of fresh) if (f.message.fromCustomer) queue.customerMessage(f.message);
    offline.cache.addMessages(
      sessionId,
      fresh.map((f) => f.message),
      new Date(this.#ctx.clock.now()).toISOString(),
    );
    void threads.recognise(
      sessionId,
      fresh.map((f) => f.message).filter((m) => m.fromCustomer),
    );
  }

  /**
   * A message event: a customer's message updates the row and calls for attention. Counted once
   * whether the webhook or the sync read brings it first; only news calls for attention.
   */
  async #customerWrote(sessionId: number, raw: Read<Message>): Promise<void> {
    const { offline, threads } = this.#d;
    const partyReads = this.#partyReads;
    let m = toThreadMessage(raw, sessionId, threads.parties.get(sessionId));
    // Its author may be told only by the session's parties (read once per session, then known).
    if (m && m.author === null && !threads.parties.has(sessionId)) {
      // One read per session, awaited in arrival order, so messages are still counted in order.
      let reading = partyReads.get(sessionId);
      if (!reading) {
        reading = readSession(this.#ctx.client(), sessionId)
          .then((r) => void threads.noteParties(r))
          .finally(() => partyReads.delete(sessionId));
        partyReads.set(sessionId, reading);
      }
      try {
        await reading;
      } catch (e) {
        offline.monitor.report(e);
        return;
      }
      m = toThreadMessage(raw, sessionId, threads.parties.get(sessionId));
    } else await partyReads.get(sessionId)?.catch(() => undefined);
    if (m) this.#announce(sessionId, m);
  }

  /**
   * A customer's message counts once on its row, and calls the attendant when the session is theirs;
   * an attendant's stops the customer's wait.
   */
  #announce(sessionId: number, m: ThreadMessage): void {
    if (!m.fromCustomer) this.#d.queue.conversation([m]);
    else if (this.#d.queue.customerMessage(m)) this.#calls.push(sessionId, true);
  }

  /** Calls the attendant for a session whose customer wrote, with what its row shows now. */
  #call(sessionId: number): void {
    const item = this.#d.queue.item(sessionId);
    if (item?.agentUserName && item.agentUserName === this.#ctx.me()?.userName) {
      this.#ctx.events.emit('attendance:customerMessage', { sessionId, customerName: item.customerName, preview: item.preview ?? '' });
    }
  }
}

interface PollDeps extends NewsDeps {
  source: SyncSource<StampedMessage, StampedSession>;
  announce: (sessionId: number, m: ThreadMessage) => void;
}

/**
 * Without events (a service that cannot reach the listener), the poll finds sessions changed but
 * not what changed: for the attendant's own sessions not open in a thread (those are read
 * forward already), their messages since the last change seen tell whether the customer wrote.
 * Only what is new is read: from that session's last `updatedAt` seen, or the queue's read.
 */
function pollNews(ctx: FeatureContext, d: PollDeps) {
  const { queue, offline, threads, source, announce } = d;
  let pollPass = false;
  let loadedStamp: string | null = null;
  const sessionStamps = new Map<number, string>();

  async function customerNewsIn(changed: readonly StampedSession[]): Promise<void> {
    const me = ctx.me()?.userName;
    if (!me) return;
    const reads: Array<{ id: number; since: string }> = [];
    for (const c of changed) {
      const since = sessionStamps.get(c.id) ?? loadedStamp;
      if (!since || threads.open.has(c.id) || queue.item(c.id)?.agentUserName !== me || c.stamp === since) continue;
      reads.push({ id: c.id, since });
    }
    for (const r of reads.slice(0, NEWS_READS_PER_PASS)) {
      try {
        // Who is on each side, when the messages alone cannot tell (read once per session).
        if (!threads.parties.has(r.id)) threads.noteParties(await readSession(ctx.client(), r.id));
        for (const f of await source.messagesSince(r.id, r.since)) announce(r.id, f.message);
      } catch (e) {
        offline.monitor.report(e);
        return;
      }
    }
  }

  return {
    /** The sync engine read sessions changed since its mark. */
    sessionsChanged(changed: readonly StampedSession[]): void {
      queue.applySessions(changed.map((c) => c.record));
      if (pollPass) void customerNewsIn(changed);
      for (const c of changed) if (c.stamp) sessionStamps.set(c.id, c.stamp);
    },
    /** The queue was read whole: the sessions' own marks start over from its read. */
    loaded(stamp: string | null): void {
      loadedStamp = stamp;
      sessionStamps.clear();
    },
    /** Runs a resync as the poll's pass (the only reads that look for customers' news). */
    async pass<T>(resync: () => Promise<T>): Promise<T> {
      pollPass = true;
      try {
        return await resync();
      } finally {
        pollPass = false;
      }
    },
  };
}
