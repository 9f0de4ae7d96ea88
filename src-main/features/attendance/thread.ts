import type { Entity, ThreadMessage } from '../../../src-shared/bridge/attendance';
import { AppError } from '../../../src-shared/errors';
import { isUnreachable } from '../../../src-shared/error-kinds';
import { groupIsComplete, sessionAgentOf, sessionCustomerOf, sessionGroupOf, statusKind, type Parties } from '../../../src-shared/concepts';
import type { Read } from '../../../src-shared/envelopes';
import type { Session } from '../../../src-shared/schemas/index';
import { NONE_UNREADABLE } from '../../../src-shared/unreadable';
import type { HandlerTable } from '../../bridge/table';
import type { SyncEngine } from '../../sync/engine';
import type { FeatureContext } from '../context';
import type { OfflineFeature } from '../offline';
import { toEntities, toGroupInfo, toSessionDetail } from './project';
import { messageTime, oldestFirst } from '../../../src-shared/newest';
import type { QueueFeature } from './queue';
import { classificationPathOf } from './classification';
import { readSession, stampMessage, threadPage, type StampedMessage, type StampedSession } from './reads';

const NER_PER_OPEN = 20;
const NER_CACHE = 5_000;
/** The most text one entity lookup carries (messages are joined, never split). */
const NER_BATCH_CHARS = 4_000;
/** Between two messages in one lookup: a paragraph break, so no entity spans both. */
const NER_JOIN = '\n\n';

/**
 * The threads the renderer has open, with what each was shown (for the AI and the summary), who
 * is on each side of the sessions read so far, and the entities found in their messages.
 */
export interface Threads {
  readonly open: Map<number, { messages: Map<number, ThreadMessage> }>;
  readonly entities: Map<number, Entity[]>;
  /** Who is on each side of the sessions read so far: tells their messages' authors apart. */
  readonly parties: Map<number, Parties>;
  noteParties: (session: Read<Session>) => Parties | undefined;
  rememberShown(sessionId: number, messages: readonly ThreadMessage[]): void;
  /** Entities of the customer's messages, pushed while their thread is open. */
  recognise(sessionId: number, messages: readonly ThreadMessage[]): Promise<void>;
  /** The thread as the attendant saw it (or its newest page), for the AI draft and summary. */
  forAi(sessionId: number): Promise<ThreadMessage[]>;
  clear(): void;
}

export function createThreads(ctx: FeatureContext): Threads {
  const open = new Map<number, { messages: Map<number, ThreadMessage> }>();
  const entities = new Map<number, Entity[]>();
  const parties = new Map<number, Parties>();

  async function recognise(sessionId: number, messages: readonly ThreadMessage[]): Promise<void> {
    const todo = messages.slice(-NER_PER_OPEN).filter((m) => m.text.trim() && !entities.has(m.id));
    for (const m of messages.slice(-NER_PER_OPEN)) {
      const found = entities.get(m.id);
      if (found?.length && open.has(sessionId)) ctx.events.emit('attendance:entities', { sessionId, messageId: m.id, entities: found });
    }
    // Batched: the messages' texts go in as few lookups as fit NER_BATCH_CHARS (one for a
    // usual thread), not one per message; each entity goes back to its message by its offset.
    for (const batch of nerBatches(todo)) {
      let raw: unknown;
      try {
        raw = await ctx.client().ner(batch.text);
      } catch {
        // Entity highlighting is a help on top of the thread: a failure only leaves it plain.
        return;
      }
      const per = splitEntities(toEntities(raw), batch.parts);
      for (const { message, found } of per) {
        entities.set(message.id, found);
        if (entities.size > NER_CACHE) entities.delete(entities.keys().next().value as number);
        if (found.length && open.has(sessionId))
          ctx.events.emit('attendance:entities', { sessionId, messageId: message.id, entities: found });
      }
    }
  }

  return {
    open,
    entities,
    parties,
    noteParties(session) {
      const id = session.id ?? null;
      if (id === null) return undefined;
      const p: Parties = { customer: sessionCustomerOf(session), agent: sessionAgentOf(session) };
      parties.set(id, p);
      if (parties.size > 2_000) parties.delete(parties.keys().next().value as number);
      return p;
    },
    rememberShown(sessionId, messages) {
      const o = open.get(sessionId);
      if (o) for (const m of messages) o.messages.set(m.id, m);
    },
    recognise,
    async forAi(sessionId) {
      const o = open.get(sessionId);
      if (o && o.messages.size) return oldestFirst(o.messages.values(), messageTime);
      return (await threadPage(ctx.client(), sessionId, 0)).messages;
    },
    clear() {
      open.clear();
      entities.clear();
      parties.clear();
    },
  };
}

type ThreadChannel = 'attendance:openThread' | 'attendance:olderMessages' | 'attendance:closeThread';

export interface ThreadDeps {
  threads: Threads;
  sync: SyncEngine<StampedMessage, StampedSession>;
  queue: QueueFeature;
  offline: OfflineFeature;
}

/** Opening a thread (from the service, or the copy kept offline), its older pages, closing it. */
export function threadHandlers(ctx: FeatureContext, d: ThreadDeps): Pick<HandlerTable, ThreadChannel> {
  const { threads, sync, queue, offline } = d;
  return {
    'attendance:openThread': async ({ sessionId }) => {
      const copy = await offline.cache.thread(sessionId);
      const fromCopy = (c: NonNullable<typeof copy>) => ({
        detail: { ...c.detail, item: queue.item(sessionId) ?? c.detail.item },
        // A copy of a longer thread does not hold its beginning, and the page must not say it does.
        page: { messages: c.messages, hasMore: c.hasMore, page: 0, unreadable: NONE_UNREADABLE },
        fetchedAt: c.fetchedAt,
        offline: true,
      });
      // Offline: the copy kept from the last time it was open, marked with when it was read.
      if (offline.monitor.offline && copy) return fromCopy(copy);
      const client = ctx.client();
      const fetchedAt = new Date(ctx.clock.now()).toISOString();
      let session: Read<Session>;
      let page: Awaited<ReturnType<typeof threadPage>>;
      try {
        // Messages are read knowing the session's parties: a server whose fromUser is only a
        // user id needs the customer's id to compare, and a login is shown as the party's name.
        const reading = readSession(client, sessionId);
        const who = reading.then(threads.noteParties, () => undefined);
        [session, page] = await offline.monitor.watch(Promise.all([reading, threadPage(client, sessionId, 0, who)]));
      } catch (e) {
        if (isUnreachable(e) && copy) return fromCopy(copy);
        throw e;
      }
      queue.applySessions([session]);
      const detail = toSessionDetail(session, page.messages, ctx.clock.now());
      if (!detail) throw new AppError({ kind: 'BadResponse', message: 'The service answered a session without an id.' });
      if (statusKind(detail.item.status) === 'closed') detail.classification = await classificationPathOf(client, sessionId);
      const group = sessionGroupOf(session)?.record;
      if (group && groupIsComplete(group) && !queue.groups.has(detail.item.groupId ?? -1)) {
        const g = toGroupInfo(group);
        if (g) queue.groups.remember(g);
      }
      // Its row shows the customer's last message from now on, also for a session older than the console.
      queue.threadRead(page.messages);
      threads.open.set(sessionId, { messages: new Map(page.messages.map((m) => [m.id, m])) });
      sync.track(sessionId, page.messages.map(stampMessage));
      // Anything that arrived between the read and the tracking is picked up now.
      void sync.hintSession(sessionId);
      showEntities(ctx, threads, sessionId, page.messages);
      offline.cache.saveThread(sessionId, { detail, messages: page.messages, hasMore: page.hasMore }, fetchedAt);
      return { detail, page: { ...page, page: 0 }, fetchedAt, offline: false };
    },

    'attendance:olderMessages': async ({ sessionId, page, count }) => {
      const client = ctx.client();
      const who = threads.parties.get(sessionId);
      const pages = await Promise.all(Array.from({ length: count }, (_, i) => threadPage(client, sessionId, page + i, who)));
      return {
        pages: pages.map((got, i) => {
          threads.rememberShown(sessionId, got.messages);
          sync.note(sessionId, got.messages.map(stampMessage));
          return { ...got, page: page + i };
        }),
      };
    },

    'attendance:closeThread': async ({ sessionId }) => {
      threads.open.delete(sessionId);
      sync.untrack(sessionId);
      return { ok: true };
    },
  };
}

/** After the thread's answer: the entities known already, then those of the rest of the customer's messages. */
function showEntities(ctx: FeatureContext, threads: Threads, sessionId: number, messages: readonly ThreadMessage[]): void {
  const { entities } = threads;
  const customer = messages.filter((m) => m.fromCustomer);
  const cached = customer.filter((m) => entities.has(m.id));
  queueMicrotask(() => {
    for (const m of cached) {
      const found = entities.get(m.id);
      if (found?.length) ctx.events.emit('attendance:entities', { sessionId, messageId: m.id, entities: found });
    }
    void threads.recognise(
      sessionId,
      customer.filter((m) => !entities.has(m.id)),
    );
  });
}

interface NerPart {
  message: ThreadMessage;
  start: number;
}

/** Messages joined into lookups of at most NER_BATCH_CHARS (a longer message goes alone). */
export function nerBatches(messages: readonly ThreadMessage[]): Array<{ text: string; parts: NerPart[] }> {
  const out: Array<{ text: string; parts: NerPart[] }> = [];
  let cur: { text: string; parts: NerPart[] } | null = null;
  for (const m of messages) {
    if (cur && cur.text.length + NER_JOIN.length + m.text.length > NER_BATCH_CHARS) cur = null;
    if (!cur) {
      cur = { text: '', parts: [] };
      out.push(cur);
    } else cur.text += NER_JOIN;
    cur.parts.push({ message: m, start: cur.text.length });
    cur.text += m.text;
  }
  return out;
}

/**
 * Each entity of a joined lookup back to its message, its offsets made the message's own; one
 * without offsets goes to the first message whose text holds it.
 */
export function splitEntities(found: readonly Entity[], parts: readonly NerPart[]): Array<{ message: ThreadMessage; found: Entity[] }> {
  const per = parts.map((p) => ({ message: p.message, found: [] as Entity[] }));
  for (const e of found) {
    let i = -1;
    if (e.start !== null) {
      const start = e.start;
      i = parts.findIndex((p) => start >= p.start && start < p.start + p.message.text.length);
    }
    if (i >= 0) {
      const base = parts[i]!.start;
      per[i]!.found.push({ ...e, start: e.start === null ? null : e.start - base, end: e.end === null ? null : e.end - base });
      continue;
    }
    const j = parts.findIndex((p) => p.message.text.includes(e.text));
    if (j >= 0) per[j]!.found.push({ ...e, start: null, end: null });
  }
  return per;
}
