import type { GroupInfo, QueueDelta } from '../../../src-shared/bridge/attendance';
import type { QueueItem, QueueSnapshot } from '../../../src-shared/bridge/attendance';
import { toQueueItem } from '../../queue';
import { Coalescer } from '../../sync/coalesce';
import type { Mark } from '../../sync/engine';
import { isFullGroup, toGroupInfo } from './project';
import { isNetworkError } from '../../cache';
import { AppError } from '../../../src-shared/errors';
import { idOf, instantOf, sessionCustomerOf, statusKind } from '../../../src-shared/concepts';
import type { FeatureContext } from '../context';
import type { HandlerTable } from '../../bridge/table';
import { scopeOf, type OfflineFeature } from '../offline';
import { join } from 'node:path';
import type { ThreadMessage } from '../../../src-shared/bridge/attendance';
import { ActivityStore } from './activity';

const QUEUE_CAP = 100_000;
type Rec = Record<string, unknown>;

/** The queue part of the attendance slice. */
export interface QueueFeature {
  handlers: Pick<HandlerTable, 'attendance:queue'>;
  stop(): Promise<void>;
  /** Sessions read from the service (a resync, a save's answer): updates the cache, pushes a delta. */
  applySessions(records: readonly Rec[]): void;
  /** Puts one projected item (e.g. after accept) and pushes it. */
  put(item: QueueItem): void;
  item(id: number): QueueItem | undefined;
  /** Every session held (not closed), with what the console saw of its customer's messages. */
  items(): Iterable<QueueItem>;
  /** Groups seen in session records, by id. */
  groups(): Map<number, GroupInfo>;
  rememberGroup(g: GroupInfo): void;
  /** Set by the sync engine's owner: where the queue's high-water mark goes after a full load. */
  onLoaded: ((mark: Mark | null) => void) | null;
  readonly loaded: boolean;
  /** The sync engine read the queue forward successfully: it is current as of now. */
  synced(): void;
  /** A customer message reached the console (webhook or sync read): the row's activity and unread count. */
  customerMessage(m: ThreadMessage): boolean;
  /** The attendant looked at the session: its unread count goes to zero. */
  seen(sessionId: number): boolean;
}

const sameItem = (a: QueueItem, b: QueueItem): boolean => {
  for (const k of Object.keys(a) as Array<keyof QueueItem>) if (a[k] !== b[k]) return false;
  return true;
};

/**
 * The session queue: every session not closed, projected for the list and kept in memory, so
 * the renderer gets one snapshot and then only deltas (100,000 items must not travel twice).
 */
/** How long after answering with the kept copy the service's queue is read. */
const FIRST_READ_AFTER_COPY_MS = 300;

export function createQueueFeature(ctx: FeatureContext, offline: OfflineFeature): QueueFeature {
  const cache = new Map<number, QueueItem>();
  const groups = new Map<number, GroupInfo>();
  let loaded = false;
  /** Sessions of the last full read that could not be listed. */
  let skipped = 0;
  /** When the service last confirmed what `cache` holds (ISO): the time an offline copy shows. */
  let freshAt = new Date().toISOString();
  const sorted = () => [...cache.values()].sort((a, b) => (a.createdAt ?? '').localeCompare(b.createdAt ?? '') || a.id - b.id);
  const persist = () => offline.cache.queueChanged(() => ({ items: sorted(), fetchedAt: freshAt }));
  let loading: Promise<void> | null = null;
  let generation = 0;
  const activity = new ActivityStore(join(ctx.profileDir, 'attendance', 'activity.json'), (m) => ctx.log.warn(m));
  /**
   * The item with what the console saw of its customer's messages (rows show and sort by it), and
   * its group's SLA when the session's record names the group without it (known from the group).
   */
  const withActivity = (item: QueueItem): QueueItem => {
    const a = activity.get(item.id);
    const sla = item.slaSeconds === null && item.groupId !== null ? (groups.get(item.groupId)?.slaSeconds ?? null) : null;
    return a || sla !== null ? { ...item, ...a, ...(sla !== null ? { slaSeconds: sla } : {}) } : item;
  };
  /** The cached item again with its current activity, pushed when it changed. */
  const touch = (id: number): void => {
    const prev = cache.get(id);
    if (prev) feature.put(prev);
  };

  const deltas = new Coalescer<'delta', { upsert?: QueueItem; remove?: number }>((_k, changes) => {
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
    const delta: QueueDelta = { upsert: [...upsert.values()], remove: [...remove], me: ctx.me()?.userName ?? null };
    if (delta.upsert.length || delta.remove.length) ctx.events.emit('attendance:queueDelta', delta);
  });

  const noteGroup = (g: unknown) => {
    if (!isFullGroup(g)) return;
    const info = toGroupInfo(g);
    if (info) groups.set(info.id, info);
  };

  function applyOne(r: Rec): void {
    noteGroup(r.groupConf);
    const projected = toQueueItem(r);
    if (!projected) return;
    const item = withActivity(projected);
    const prev = cache.get(item.id);
    if (statusKind(item.status) === 'closed') {
      if (prev) {
        cache.delete(item.id);
        deltas.push('delta', { remove: item.id });
        changed();
      }
      return;
    }
    // A save's answer carries no agent or user (interface §4.3): keep what the list told us.
    if (prev && !sessionCustomerOf(r)?.name) item.customerName = prev.customerName;
    if (!sameItem(item, prev ?? ({} as QueueItem))) {
      cache.set(item.id, item);
      deltas.push('delta', { upsert: item });
      changed();
    }
  }

  function changed(): void {
    if (loaded) persist();
  }

  async function load(): Promise<void> {
    const gen = generation;
    const client = ctx.client();
    const startedAt = new Date().toISOString();
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
    const top = newest.results[0];
    const topStamp = instantOf(top?.updatedAt);
    const topId = idOf(top?.id);
    const mark: Mark | null = topStamp !== null && topId !== null ? { stamp: topStamp, id: topId } : null;
    if (gen !== generation) return;
    cache.clear();
    skipped = got.skipped;
    for (const r of got.records) {
      noteGroup(r.groupConf);
      const item = toQueueItem(r as Rec);
      if (item) cache.set(item.id, withActivity(item));
      else skipped++;
    }
    if (skipped) ctx.log.warn('queue: sessions skipped', { skipped });
    loaded = true;
    freshAt = startedAt;
    persist();
    feature.onLoaded?.(mark);
  }

  /** The copy kept on disk, when the service cannot be reached; null when there is none. */
  function offlineCopy(): QueueSnapshot | null {
    const copy = offline.cache.queue();
    return copy ? { items: copy.items, fetchedAt: copy.fetchedAt, me: ctx.me()?.userName ?? null, skipped: 0 } : null;
  }

  /**
   * The first snapshot of a workspace, when the console kept a copy of its queue: the copy answers
   * at once (the attendant sees their queue without waiting for the service) and the service's
   * answer follows as deltas, what closed meanwhile removed. Once per workspace opening.
   */
  let copyServed = false;
  function copyFirst(): QueueSnapshot | null {
    if (copyServed || loaded || offline.monitor.offline) return null;
    copyServed = true;
    const copy = offlineCopy();
    if (!copy?.items.length) return null;
    const gen = generation;
    // The service is read a moment later: the console's first answers (this copy among them)
    // go out before that read's parsing takes the thread.
    loading ??= offline.monitor
      .watch(new Promise<void>((resolve) => setTimeout(resolve, FIRST_READ_AFTER_COPY_MS)).then(load))
      .finally(() => {
        loading = null;
      });
    void loading.then(
      () => {
        if (gen !== generation) return;
        // Only what differs from the copy travels: a large queue is not sent a second time.
        const shown = new Map(copy.items.map((i) => [i.id, i]));
        for (const id of shown.keys()) if (!cache.has(id)) deltas.push('delta', { remove: id });
        for (const item of cache.values()) {
          const before = shown.get(item.id);
          if (!before || !sameItem(item, before)) deltas.push('delta', { upsert: item });
        }
        deltas.run();
      },
      (e: unknown) => ctx.log.warn('queue: the first read after the copy failed', { error: e instanceof Error ? e.message : String(e) }),
    );
    return copy;
  }

  async function snapshot(input: { fresh?: boolean | undefined } = {}): Promise<QueueSnapshot> {
    const me = ctx.me()?.userName ?? null;
    if (!input.fresh) {
      const copy = copyFirst();
      if (copy) return copy;
    }
    // Refresh: the next pass reads the service again; offline, the copy answers as before.
    if (input.fresh && !offline.monitor.offline && !loading) loaded = false;
    if (offline.monitor.offline) {
      // What the console last knew, stamped with when the service last confirmed it.
      if (loaded) return { items: sorted(), fetchedAt: freshAt, me, skipped };
      const copy = offlineCopy();
      if (copy) return copy;
    }
    // Bounded: a workspace switch during a load discards it (generation), and the renderer may
    // ask for the snapshot just before the switch lands; the next pass loads the new workspace.
    for (let pass = 0; !loaded && pass < 3; pass++) {
      loading ??= offline.monitor.watch(load()).finally(() => {
        loading = null;
      });
      try {
        await loading;
      } catch (e) {
        const copy = isNetworkError(e) ? offlineCopy() : null;
        if (copy) return copy;
        throw e;
      }
    }
    if (!loaded)
      throw new AppError({ kind: 'Unavailable', message: 'The workspace changed while the queue was loading. Refresh the queue.' });
    deltas.run();
    return { items: sorted(), fetchedAt: new Date().toISOString(), me, skipped };
  }

  ctx.onWorkspaceChange(() => {
    activity.setScope(scopeOf(ctx));
    generation++;
    copyServed = false;
    cache.clear();
    groups.clear();
    loaded = false;
    loading = null;
    deltas.clear();
  });

  const feature: QueueFeature = {
    handlers: { 'attendance:queue': snapshot },
    applySessions(records) {
      for (const r of records) applyOne(r);
    },
    put(raw) {
      const item = withActivity(raw);
      const prev = cache.get(item.id);
      if (statusKind(item.status) === 'closed') {
        cache.delete(item.id);
        deltas.push('delta', { remove: item.id });
      } else if (!prev || !sameItem(item, prev)) {
        cache.set(item.id, item);
        deltas.push('delta', { upsert: item });
      }
      changed();
    },
    item: (id) => cache.get(id),
    items: () => cache.values(),
    groups: () => groups,
    rememberGroup(g) {
      const before = groups.get(g.id);
      groups.set(g.id, g);
      if (g.slaSeconds === null || before?.slaSeconds === g.slaSeconds) return;
      // Sessions that named the group without its SLA show its timer now.
      for (const item of cache.values()) {
        if (item.groupId === g.id && item.slaSeconds === null) feature.put(item);
      }
    },
    onLoaded: null,
    get loaded() {
      return loaded;
    },
    synced() {
      if (!loaded) return;
      freshAt = new Date().toISOString();
      offline.monitor.ok();
    },
    customerMessage(m) {
      if (!activity.customerMessage(m)) return false;
      touch(m.sessionId);
      return true;
    },
    seen(sessionId) {
      if (!activity.seen(sessionId)) return false;
      touch(sessionId);
      return true;
    },
    async stop() {
      deltas.clear();
      await activity.flush();
    },
  };
  return feature;
}
