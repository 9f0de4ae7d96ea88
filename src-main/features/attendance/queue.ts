import type { QueueDelta } from '../../../src-shared/bridge/attendance';
import type { QueueItem, QueueSnapshot } from '../../../src-shared/bridge/attendance';
import { toQueueItem } from '../../queue';
import { Coalescer } from '../../sync/coalesce';
import type { Mark } from '../../sync/engine';
import { toGroupInfo } from './project';
import { AppError } from '../../../src-shared/errors';
import { isUnreachable } from '../../../src-shared/error-kinds';
import { groupIsComplete, sessionAgentOf, sessionCustomerOf, sessionGroupOf, statusKind, type Parties } from '../../../src-shared/concepts';
import { compareTimed, listedNewestFirst, messageTime, newestOf } from '../../../src-shared/newest';
import type { Read } from '../../../src-shared/envelopes';
import { oneOf } from '../../../src-shared/query-builder';
import type { Message, Session } from '../../../src-shared/schemas/index';
import { lacking, NONE_UNREADABLE, Skips, type Unreadable } from '../../../src-shared/unreadable';
import type { FeatureContext } from '../context';
import type { HandlerTable } from '../../bridge/table';
import { scopeOf, type OfflineFeature } from '../offline';
import { join } from 'node:path';
import type { ThreadMessage } from '../../../src-shared/bridge/attendance';
import { ActivityStore } from './activity';
import { messagesRead, newestOfCustomers } from './customers-newest';

export { customersNewest } from './customers-newest';
import { GroupRegistry } from './groups';
import { withSnoozeFields, type SnoozeStore } from './snooze';
import { errorText } from '../../../src-shared/error-text';

const QUEUE_CAP = 100_000;
/** A message record's place in time, as the service wrote it. */
const recordTime = (r: Read<Message>) => ({ at: r.createdAt, id: r.id ?? 0 });
/** Sessions in the order they came in (by time, then id). */
const byCreation = (a: QueueItem, b: QueueItem) => compareTimed({ at: a.createdAt, id: a.id }, { at: b.createdAt, id: b.id });
/** The newest messages read with each whole read of the queue, for the rows' previews. */
const RECENT_MESSAGES = 500;
/** Sessions whose newest messages one read asks for (an OR group of their ids), and reads per pass. */
const PREVIEW_CHUNK = 40;
const PREVIEW_CHUNKS_PER_LOAD = 5;
/** Reads beyond those groups for sessions a full page left out (each halves the group). */
const PREVIEW_RETRIES = 6;

/** The queue part of the attendance slice. */
export interface QueueFeature {
  handlers: Pick<HandlerTable, 'attendance:queue'>;
  stop(): Promise<void>;
  /** Sessions read from the service (a resync, a save's answer): updates the cache, pushes a delta. */
  applySessions(records: readonly Read<Session>[]): void;
  /** Messages of a thread the attendant opened: the row shows the customer's newest (never as unread). */
  threadRead(messages: readonly ThreadMessage[]): void;
  /** Puts one projected item (e.g. after accept) and pushes it. */
  put(item: QueueItem): void;
  item(id: number): QueueItem | undefined;
  /** Every session held (not closed), with what the console saw of its customer's messages. */
  items(): Iterable<QueueItem>;
  /** Groups seen in session records and read on their own: a row shows its group's SLA. */
  readonly groups: GroupRegistry;
  /** Set by the sync engine's owner: where the queue's high-water mark goes after a full load. */
  onLoaded: ((mark: Mark | null) => void) | null;
  readonly loaded: boolean;
  /** The sync engine read the queue forward successfully: it is current as of now. */
  synced(): void;
  /** A customer message reached the console (webhook or sync read): the row's activity and unread count. */
  customerMessage(m: ThreadMessage): boolean;
  /** Messages of any author reached the console: an attendant's reply stops the customer's wait (src-shared/waiting.ts). */
  conversation(messages: readonly ThreadMessage[]): void;
  /** The attendant looked at the session: its unread count goes to zero. */
  seen(sessionId: number): boolean;
}

/** Same fields, both ways: a field one of them lacks (a snooze ended) is a difference too. */
const sameItem = (a: QueueItem, b: QueueItem): boolean => {
  for (const k of Object.keys(a) as Array<keyof QueueItem>) if (a[k] !== b[k]) return false;
  for (const k of Object.keys(b) as Array<keyof QueueItem>) if (!(k in a) && b[k] !== undefined) return false;
  return true;
};

export function createQueueFeature(ctx: FeatureContext, offline: OfflineFeature, snooze: SnoozeStore): QueueFeature {
  return new SessionQueue(ctx, offline, snooze);
}

/**
 * The session queue: every session not closed, projected for the list and kept in memory, so
 * the renderer gets one snapshot and then only deltas (100,000 items must not travel twice).
 */
class SessionQueue implements QueueFeature {
  readonly handlers: Pick<HandlerTable, 'attendance:queue'> = { 'attendance:queue': (input) => this.#snapshot(input) };
  onLoaded: ((mark: Mark | null) => void) | null = null;
  readonly #ctx: FeatureContext;
  readonly #offline: OfflineFeature;
  readonly #cache = new Map<number, QueueItem>();
  readonly groups = new GroupRegistry();
  /** Who is on each side of each session held: tells apart the authors of preview reads. */
  readonly #parties = new Map<number, Parties>();
  #loaded = false;
  /** Sessions of the last full read that could not be listed. */
  #unreadable: Unreadable = { count: 0, first: null };
  /** Sessions seen since the last read whose rows show no customer message yet. */
  readonly #wantPreview = new Set<number>();
  #previewTimer: ReturnType<typeof setTimeout> | null = null;
  /** When the service last confirmed what `cache` holds (ISO): the time an offline copy shows. */
  #freshAt: string;
  #loading: Promise<void> | null = null;
  #generation = 0;
  /** The kept copy answered this workspace opening's first snapshot already. */
  #copyServed = false;
  /** Starts the read behind the kept copy now: a snapshot is asked for again before the page's first view. */
  #readNow: (() => void) | null = null;
  readonly #activity: ActivityStore;
  /** The attendant's snoozed sessions (their rules live in `snooze.ts`). */
  readonly #snooze: SnoozeStore;
  readonly #deltas: Coalescer<'delta', { upsert?: QueueItem; remove?: number }>;
  /** The number of the last delta sent (snapshots name it: see `QueueDelta.seq`). */
  #seq = 0;

  constructor(ctx: FeatureContext, offline: OfflineFeature, snooze: SnoozeStore) {
    this.#ctx = ctx;
    this.#offline = offline;
    this.#snooze = snooze;
    // Snoozed, woken or dropped: the row is projected again and pushed.
    snooze.onChange((id) => this.#touch(id));
    this.#freshAt = new Date(ctx.clock.now()).toISOString();
    this.#activity = new ActivityStore(join(ctx.profileDir, 'attendance', 'activity.json'), (m) => ctx.log.warn(m));
    this.#deltas = new Coalescer<'delta', { upsert?: QueueItem; remove?: number }>((_k, changes) => {
      const upsert = new Map<number, QueueItem>();
      const remove = new Set<number>();
      for (const c of changes) {
        if (c.upsert) {
          upsert.set(c.upsert.id, c.upsert);
          remove.delete(c.upsert.id);
        }
        if (c.remove !== undefined) {
          remove.add(c.remove);
          upsert.delete(c.remove);
        }
      }
      if (!upsert.size && !remove.size) return;
      const delta: QueueDelta = { upsert: [...upsert.values()], remove: [...remove], me: ctx.me()?.userName ?? null, seq: ++this.#seq };
      ctx.events.emit('attendance:queueDelta', delta);
    });
    // The queue is one sign-in's: what it counts and shows is that person's.
    this.#activity.setScope(scopeOf(ctx));
    ctx.onServiceZoneChange(() => this.reread());
    // Sessions that named a group without its SLA show its timer once the group is read.
    this.groups.onSla((g) => {
      for (const item of this.#cache.values()) if (item.groupId === g.id && item.slaSeconds === null) this.put(item);
    });
  }

  get loaded(): boolean {
    return this.#loaded;
  }

  applySessions(records: readonly Read<Session>[]): void {
    for (const r of records) this.#applyOne(r);
  }

  threadRead(messages: readonly ThreadMessage[]): void {
    this.conversation(messages);
    const last = newestOf(messages, messageTime, (m) => m.fromCustomer);
    if (last && this.#activity.known(last)) this.#touch(last.sessionId);
  }

  conversation(messages: readonly ThreadMessage[]): void {
    for (const id of this.#activity.converse(messages)) this.#touch(id);
  }

  put(raw: QueueItem): void {
    const item = this.#withActivity(raw);
    const prev = this.#cache.get(item.id);
    if (statusKind(item.status) === 'closed') {
      this.#cache.delete(item.id);
      this.#deltas.push('delta', { remove: item.id });
    } else if (!prev || !sameItem(item, prev)) {
      this.#cache.set(item.id, item);
      this.#deltas.push('delta', { upsert: item });
    }
    this.#changed();
  }

  /**
   * Reads the whole queue again and pushes what differs: the service's zone became known (or
   * changed), so every time read before moved.
   */
  async reread(): Promise<void> {
    if (!this.#loaded || this.#loading || this.#offline.monitor.offline) return;
    const gen = this.#generation;
    const shown = new Map(this.#cache);
    this.#loading = this.#offline.monitor.watch(this.#load()).finally(() => {
      this.#loading = null;
    });
    await this.#loading;
    if (gen !== this.#generation) return;
    for (const id of shown.keys()) if (!this.#cache.has(id)) this.#deltas.push('delta', { remove: id });
    for (const item of this.#cache.values()) {
      const before = shown.get(item.id);
      if (!before || !sameItem(item, before)) this.#deltas.push('delta', { upsert: item });
    }
    this.#deltas.run();
  }

  item(id: number): QueueItem | undefined {
    return this.#cache.get(id);
  }

  items(): Iterable<QueueItem> {
    return this.#cache.values();
  }

  synced(): void {
    if (!this.#loaded) return;
    this.#freshAt = new Date(this.#ctx.clock.now()).toISOString();
    this.#offline.monitor.ok();
  }

  customerMessage(m: ThreadMessage): boolean {
    this.conversation([m]);
    if (!this.#activity.customerMessage(m)) return false;
    // News from the customer wakes a snoozed session, whichever source brought it.
    this.#snooze.customerWrote(m.sessionId);
    this.#touch(m.sessionId);
    return true;
  }

  seen(sessionId: number): boolean {
    const unread = this.#activity.seen(sessionId);
    // Opened: a woken session's mark has been seen too (its change re-projects the row).
    const woke = this.#snooze.seen(sessionId);
    if (unread) this.#touch(sessionId);
    return unread || woke;
  }

  async stop(): Promise<void> {
    this.#deltas.clear();
    if (this.#previewTimer) clearTimeout(this.#previewTimer);
    this.#previewTimer = null;
    await this.#activity.flush();
  }

  #sorted(): QueueItem[] {
    return [...this.#cache.values()].sort(byCreation);
  }

  #persist(): void {
    this.#offline.cache.queueChanged(() => ({ items: this.#sorted(), fetchedAt: this.#freshAt }));
  }

  /**
   * The item with what the console saw of its customer's messages (rows show and sort by it), and
   * its group's SLA when the session's record names the group without it (known from the group).
   */
  #withActivity(item: QueueItem): QueueItem {
    const a = this.#activity.get(item.id);
    const w = this.#activity.wait(item.id);
    const g = item.slaSeconds === null && item.groupId !== null ? this.groups.get(item.groupId) : undefined;
    const sla = g && g.slaSeconds !== null ? { slaSeconds: g.slaSeconds, slaWarningRatio: g.warningRatio } : null;
    // The item may be one projected before (a touch): its snooze is replaced, never kept.
    const base = withSnoozeFields(item, this.#snooze.follow(item, this.#ctx.me()?.userName ?? null));
    return a || w || sla ? { ...base, ...a, ...w, ...sla } : base;
  }

  /** The cached item again with its current activity, pushed when it changed. */
  #touch(id: number): void {
    const prev = this.#cache.get(id);
    if (prev) this.put(prev);
  }

  /** A group a session embeds whole is kept (a summary is completed from groups/unique when needed). */
  #noteGroup(s: Read<Session>): void {
    const g = sessionGroupOf(s)?.record;
    if (!g || !groupIsComplete(g)) return;
    const info = toGroupInfo(g);
    if (info) this.groups.note(info);
  }

  /** Keeps who is on each side of a session (a save's answer, naming nobody, keeps what a list told). */
  #noteParties(r: Read<Session>): void {
    if (r.id == null) return;
    const customer = sessionCustomerOf(r);
    const agent = sessionAgentOf(r);
    const before = this.#parties.get(r.id);
    this.#parties.set(r.id, {
      customer: customer ?? before?.customer ?? null,
      agent: r.agent === undefined ? (before?.agent ?? null) : agent,
    });
  }

  #applyOne(r: Read<Session>): void {
    this.#noteGroup(r);
    this.#noteParties(r);
    const projected = toQueueItem(r);
    if (!projected) return;
    const item = this.#withActivity(projected);
    const prev = this.#cache.get(item.id);
    if (statusKind(item.status) === 'closed') {
      this.#parties.delete(item.id);
      if (prev) {
        this.#cache.delete(item.id);
        this.#deltas.push('delta', { remove: item.id });
        this.#changed();
      }
      return;
    }
    // A save's answer carries no agent or user (interface §4.3): keep what the list told us.
    if (prev && !sessionCustomerOf(r)?.name) item.customerName = prev.customerName;
    if (!sameItem(item, prev ?? ({} as QueueItem))) {
      this.#cache.set(item.id, item);
      this.#deltas.push('delta', { upsert: item });
      this.#changed();
    }
    if (!prev && this.#loaded && !this.#activity.hasPreview(item.id)) this.#previewLater(item.id);
  }

  /** A session new to the queue shows its customer's last message: read with the others that came with it. */
  #previewLater(id: number): void {
    this.#wantPreview.add(id);
    this.#previewTimer ??= setTimeout(() => {
      this.#previewTimer = null;
      const ids = [...this.#wantPreview].slice(0, PREVIEW_CHUNK);
      for (const i of ids) this.#wantPreview.delete(i);
      const gen = this.#generation;
      void this.#readPreviews(ids, 1, gen).catch((e: unknown) => this.#offline.monitor.report(e));
    }, 0);
  }

  /**
   * The rows' previews for sessions that existed before the console saw their customer write:
   * their newest messages, read for many sessions at once (an OR group of their ids, newest
   * first), the customer's newest of each shown (not counted: its news, if still on the way, counts it).
   */
  async #readPreviews(ids: readonly number[], chunks: number, gen: number): Promise<void> {
    const client = this.#ctx.client();
    const waiting = [...ids];
    let size = PREVIEW_CHUNK;
    // `chunks` groups, and a few more reads (halving) for the quieter sessions a full page left out.
    for (let read = 0, groups = 0; groups < chunks && read < chunks + PREVIEW_RETRIES && waiting.length; read++) {
      const chunk = waiting.splice(0, size);
      const page = await client.resource('message').list({
        conditions: [oneOf('session.id', chunk)],
        sort: true,
        sortColumn: 'createdAt',
        direction: 'DESC',
        page: 0,
        size: RECENT_MESSAGES,
      });
      if (gen !== this.#generation) return;
      // A full page listed in another order than asked holds any of the group's messages, not
      // their newest: the group is read again in halves until its pages are whole.
      if (page.cut && chunk.length > 1 && !listedNewestFirst(page.results, recordTime)) {
        waiting.unshift(...chunk);
        size = Math.max(1, Math.floor(chunk.length / 2));
        continue;
      }
      this.#showPreviews(page.results);
      // A full page may end before the quieter sessions' newest messages (busy ones fill it):
      // those still without a preview are read again first, in a group half the size.
      const missed = page.cut && chunk.length > 1 ? chunk.filter((id) => !this.#activity.hasPreview(id)) : [];
      if (missed.length) {
        waiting.unshift(...missed);
        size = Math.max(1, Math.floor(chunk.length / 2));
      } else {
        groups++;
        size = PREVIEW_CHUNK;
      }
    }
  }

  /**
   * Messages read for the rows: the customer's newest of each session becomes its row's preview,
   * shown only: one written a moment ago may have its news still on the way, which counts it.
   */
  #showPreviews(records: Iterable<Read<Message>>): void {
    const waiting = (id: number): boolean => {
      const item = this.#cache.get(id);
      return !!item && item.agentUserName === null && !item.withBot && this.#parties.get(id)?.agent == null;
    };
    const read = messagesRead(records, (id) => this.#parties.get(id), waiting).filter((m) => this.#cache.has(m.sessionId));
    this.conversation(read);
    for (const m of newestOfCustomers(read).values()) {
      if (this.#cache.has(m.sessionId) && this.#activity.shown(m)) this.#touch(m.sessionId);
    }
  }

  /**
   * After a whole read of the queue: one read of the newest messages of any session covers the
   * busy ones; the rows still without a preview (those the attendant acts on first) are read in
   * OR groups of their ids, a few reads at most.
   */
  async #previewsAfterLoad(gen: number): Promise<void> {
    const client = this.#ctx.client();
    const recent = await client
      .resource('message')
      .list({ conditions: [], sort: true, sortColumn: 'createdAt', direction: 'DESC', page: 0, size: RECENT_MESSAGES });
    if (gen !== this.#generation) return;
    // Only a list in the order asked is "the newest": otherwise each row's own read below decides.
    if (listedNewestFirst(recent.results, recordTime)) this.#showPreviews(recent.results);
    const me = this.#ctx.me()?.userName ?? null;
    const rank = (i: QueueItem) => (i.agentUserName === me && me !== null ? 0 : i.agentUserName === null && !i.withBot ? 1 : 2);
    const missing = [...this.#cache.values()]
      .filter((i) => !this.#activity.hasPreview(i.id))
      .sort((a, b) => rank(a) - rank(b) || byCreation(b, a))
      .map((i) => i.id);
    await this.#readPreviews(missing, PREVIEW_CHUNKS_PER_LOAD, gen);
  }

  #changed(): void {
    if (this.#loaded) this.#persist();
  }

  async #load(): Promise<void> {
    const gen = this.#generation;
    const client = this.#ctx.client();
    const startedAt = new Date(this.#ctx.clock.now()).toISOString();
    // The mark and the snapshot are read side by side: anything updated while the snapshot pages
    // in is read again later, since the sync engine reads from a little before the mark (its slack).
    const [newest, got] = await Promise.all([
      client.resource('userSession').list({ conditions: [], sort: true, sortColumn: 'updatedAt', direction: 'DESC', page: 0, size: 1 }),
      client.resource('userSession').collect(
        {
          conditions: [{ key: 'status', operator: 'NEQ', value: 'CLOSED' }],
          sort: true,
          sortColumn: 'createdAt',
          direction: 'ASC',
          size: 500,
        },
        { cap: QUEUE_CAP },
      ),
    ]);
    // The newest by its time, not the list's first: a service may ignore the sort asked for.
    const top = newestOf(
      [...newest.results, ...got.records],
      (r) => ({ at: r.updatedAt, id: r.id ?? 0 }),
      (r) => r.id != null,
    );
    const mark: Mark | null = top?.updatedAt != null && top.id != null ? { stamp: top.updatedAt, id: top.id } : null;
    if (gen !== this.#generation) return;
    this.#cache.clear();
    const skips = new Skips();
    skips.addAll({ count: got.skipped, first: got.first });
    this.#parties.clear();
    for (const r of got.records) {
      this.#noteGroup(r);
      this.#noteParties(r);
      const item = toQueueItem(r);
      if (item) this.#cache.set(item.id, this.#withActivity(item));
      else skips.add(lacking('userSession', r, 'id'));
    }
    skips.report(this.#ctx.log, 'queue');
    // Sessions a whole read no longer lists have closed: their snoozes end. A read cut at its cap,
    // or with records it could not use, may leave out sessions still open: nothing ends then.
    if (!got.truncated && skips.summary().count === 0) this.#snooze.keepOnly(new Set(this.#cache.keys()));
    this.#unreadable = skips.summary();
    this.#loaded = true;
    this.#freshAt = startedAt;
    this.#persist();
    this.onLoaded?.(mark);
    // The rows' previews follow the queue, without holding it.
    void this.#previewsAfterLoad(gen).catch((e: unknown) => this.#ctx.log.warn('queue: previews not read', { error: errorText(e) }));
  }

  /** The copy kept on disk, when the service cannot be reached; null when there is none. */
  #offlineCopy(): QueueSnapshot | null {
    const copy = this.#offline.cache.queue();
    return copy
      ? {
          items: copy.items.map((i) => this.#snoozeNow(i)),
          fetchedAt: copy.fetchedAt,
          me: this.#ctx.me()?.userName ?? null,
          unreadable: NONE_UNREADABLE,
          seq: this.#seq,
        }
      : null;
  }

  /** A kept item with its snooze as the store holds it now (the copy may predate a wake). */
  #snoozeNow(i: QueueItem): QueueItem {
    return withSnoozeFields(i, this.#snooze.fieldsOf(i.id));
  }

  /**
   * The first snapshot of a workspace, when the console kept a copy of its queue: the copy answers
   * at once (the attendant sees their queue without waiting for the service) and the service's
   * answer follows as deltas, what closed meanwhile removed. Once per workspace opening.
   */
  #copyFirst(): QueueSnapshot | null {
    if (this.#copyServed || this.#loaded || this.#offline.monitor.offline) return null;
    this.#copyServed = true;
    const copy = this.#offlineCopy();
    if (!copy?.items.length) return null;
    const gen = this.#generation;
    // The service is read once the page shows its first view (at launch), and after this answer
    // in any case: the read's parsing does not hold up the copy or the page's start. A caller
    // that asks again before then wants the service's answer: the read starts at once.
    const asked = new Promise<void>((resolve) => (this.#readNow = resolve));
    this.#loading ??= this.#offline.monitor.watch(Promise.race([this.#ctx.firstView.shown, asked]).then(() => this.#load())).finally(() => {
      this.#loading = null;
    });
    void this.#loading.then(
      () => {
        if (gen !== this.#generation) return;
        // Only what differs from the copy travels: a large queue is not sent a second time.
        const shown = new Map(copy.items.map((i) => [i.id, i]));
        for (const id of shown.keys()) if (!this.#cache.has(id)) this.#deltas.push('delta', { remove: id });
        for (const item of this.#cache.values()) {
          const before = shown.get(item.id);
          if (!before || !sameItem(item, before)) this.#deltas.push('delta', { upsert: item });
        }
        this.#deltas.run();
      },
      (e: unknown) => this.#ctx.log.warn('queue: the first read after the copy failed', { error: errorText(e) }),
    );
    return copy;
  }

  async #snapshot(input: { fresh?: boolean | undefined } = {}): Promise<QueueSnapshot> {
    const offline = this.#offline;
    const me = this.#ctx.me()?.userName ?? null;
    if (!input.fresh) {
      const copy = this.#copyFirst();
      if (copy) return copy;
    }
    // Refresh: the next pass reads the service again; offline, the copy answers as before.
    if (input.fresh && !offline.monitor.offline && !this.#loading) this.#loaded = false;
    if (offline.monitor.offline) {
      // What the console last knew, stamped with when the service last confirmed it.
      if (this.#loaded) return { items: this.#sorted(), fetchedAt: this.#freshAt, me, unreadable: this.#unreadable, seq: this.#seq };
      const copy = this.#offlineCopy();
      if (copy) return copy;
    }
    this.#readNow?.();
    // Bounded: a workspace switch during a load discards it (generation), and the renderer may
    // ask for the snapshot just before the switch lands; the next pass loads the new workspace.
    for (let pass = 0; !this.#loaded && pass < 3; pass++) {
      this.#loading ??= offline.monitor.watch(this.#load()).finally(() => {
        this.#loading = null;
      });
      try {
        await this.#loading;
      } catch (e) {
        const copy = isUnreachable(e) ? this.#offlineCopy() : null;
        if (copy) return copy;
        throw e;
      }
    }
    if (!this.#loaded)
      throw new AppError({ kind: 'Unavailable', message: 'The workspace changed while the queue was loading. Refresh the queue.' });
    this.#deltas.run();
    return {
      items: this.#sorted(),
      fetchedAt: new Date(this.#ctx.clock.now()).toISOString(),
      me,
      unreadable: this.#unreadable,
      seq: this.#seq,
    };
  }
}
