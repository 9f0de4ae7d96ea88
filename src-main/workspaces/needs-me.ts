import type { NeedsMe } from '../../src-shared/bridge';
import { bucketOf } from '../../src-shared/queue';
import { msOf } from '../../src-shared/concepts';
import { waitDue, waitStartOf } from '../../src-shared/waiting';
import type { QueueItem } from '../../src-shared/bridge/attendance';
import type { Logger } from '../log';
import type { WorkspaceRuntime } from './runtime';

/** The most urgent rows sent; the rest are counted. */
export const NEEDS_ME_ROWS = 200;
/** Changes within this long are folded into one recount. */
const SETTLE_MS = 250;

type Row = NeedsMe['rows'][number];
const RANK: Record<Row['reason'], number> = { unread: 0, reply: 1, waiting: 2 };

/**
 * Why a session needs the attendant now, or null when it does not. "Needs me" counts only what
 * calls for the attendant's hand at this moment:
 * - `unread`: a session of theirs with customer messages they have not seen yet;
 * - `reply`: a session of theirs whose customer waits for an answer (a message no attendant
 *   answered: src-shared/waiting.ts; a session the console saw nothing of counts as waiting);
 * - `waiting`: a customer waiting for an attendant, whom they may accept.
 * A session of theirs they answered last, one waiting for the customer with nothing unread, a
 * colleague's or a bot's is not counted, however long ago it began: the count is not the red rows.
 * A snoozed session is not counted either: put aside by the attendant until it wakes.
 */
export function reasonOf(item: QueueItem, me: string | null): Row['reason'] | null {
  if (item.snoozed) return null;
  const bucket = bucketOf(item, me);
  if ((bucket === 'mine' || bucket === 'pending') && item.unread) return 'unread';
  if (bucket === 'mine') return waitStartOf(item) !== null ? 'reply' : null;
  if (bucket === 'waiting') return 'waiting';
  return null;
}

/** One service, however its address is written: two accounts of it share its waiting queue. */
function serviceOf(baseUrl: string | null): string | null {
  if (!baseUrl) return null;
  try {
    const u = new URL(baseUrl);
    return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return baseUrl;
  }
}

/**
 * Every workspace's sessions that need the attendant, nearest SLA first. A session waiting for
 * an attendant is the service's, not an account's: with two accounts of one service open it is
 * listed and counted once (in the first of them); each account's own sessions count in each.
 */
export function needsMeOf(runtimes: readonly WorkspaceRuntime[]): NeedsMe {
  const found: Array<{ row: Row; due: number; created: number }> = [];
  const counts: NeedsMe['counts'] = {};
  const waiting = new Set<string>();
  for (const rt of runtimes) {
    const c = (counts[rt.id] = { unread: 0, needsMe: 0 });
    if (!rt.signedIn) continue;
    const me = rt.user?.userName ?? null;
    const service = serviceOf(rt.baseUrl);
    for (const item of rt.queueItems()) {
      const reason = reasonOf(item, me);
      if (!reason) continue;
      if (reason === 'waiting' && service !== null) {
        const key = `${service}#${item.id}`;
        if (waiting.has(key)) continue;
        waiting.add(key);
      }
      c.needsMe++;
      if (reason === 'unread') c.unread++;
      found.push({
        row: { workspaceId: rt.id, reason, item },
        // The customer's wait against the SLA, not the session's age.
        due: waitDue(item),
        created: msOf(item.createdAt) || 0,
      });
    }
  }
  // Nearest end of the customer's wait within its SLA first; without one, the attendant's own sessions before those waiting, oldest first.
  found.sort(
    (a, b) =>
      (a.due === b.due ? 0 : a.due < b.due ? -1 : 1) ||
      RANK[a.row.reason] - RANK[b.row.reason] ||
      a.created - b.created ||
      a.row.item.id - b.row.item.id,
  );
  return {
    rows: found.slice(0, NEEDS_ME_ROWS).map((f) => f.row),
    more: Math.max(0, found.length - NEEDS_ME_ROWS),
    counts,
    mentions: mentionsOf(runtimes),
    failed: failedOf(runtimes),
  };
}

/** Workspaces whose sessions could not be read: Needs me says so, never that nothing waits there. */
function failedOf(runtimes: readonly WorkspaceRuntime[]): NeedsMe['failed'] {
  const out: NeedsMe['failed'] = [];
  for (const rt of runtimes) {
    const error = rt.signedIn && !rt.queueLoaded ? rt.queueError : null;
    if (error) out.push({ workspaceId: rt.id, error });
  }
  return out;
}

/** Every signed-in workspace's mentions of its attendant, newest first, with their sessions. */
function mentionsOf(runtimes: readonly WorkspaceRuntime[]): NeedsMe['mentions'] {
  const out: Array<NeedsMe['mentions'][number] & { t: number }> = [];
  for (const rt of runtimes) {
    if (!rt.signedIn) continue;
    const mentions = rt.mentions();
    if (!mentions.length) continue;
    const items = new Map<number, QueueItem>();
    for (const item of rt.queueItems()) items.set(item.id, item);
    for (const mention of mentions)
      out.push({ workspaceId: rt.id, mention, item: items.get(mention.sessionId) ?? null, t: msOf(mention.at) || 0 });
  }
  out.sort((a, b) => b.t - a.t);
  return out.slice(0, NEEDS_ME_ROWS).map(({ t: _t, ...m }) => m);
}

/**
 * Keeps "Needs me" current once the page asked for it: every workspace's queue is read (those in
 * the background too) and each change in any of them recounts, folded, and pushes what changed.
 * Nothing is counted while nobody looks (a console with one workspace never asks).
 */
export class NeedsMeWatch {
  #watching = false;
  #timer: NodeJS.Timeout | null = null;
  #last = '';

  readonly #o: { runtimes(): WorkspaceRuntime[]; push(n: NeedsMe): void; log: Pick<Logger, 'warn'> };
  constructor(o: { runtimes(): WorkspaceRuntime[]; push(n: NeedsMe): void; log: Pick<Logger, 'warn'> }) {
    this.#o = o;
  }

  /** Something changed in some workspace (a queue delta, one opened or closed). */
  changed(): void {
    if (!this.#watching || this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#load();
      const now = needsMeOf(this.#o.runtimes());
      const key = JSON.stringify(now);
      if (key === this.#last) return;
      this.#last = key;
      this.#o.push(now);
    }, SETTLE_MS);
  }

  async read(): Promise<NeedsMe> {
    this.#watching = true;
    await Promise.all(this.#o.runtimes().map((rt) => rt.loadQueue()));
    const now = needsMeOf(this.#o.runtimes());
    this.#last = JSON.stringify(now);
    return now;
  }

  /** A workspace whose queue nobody read yet (opened in the background) is read now. */
  #load(): void {
    for (const rt of this.#o.runtimes()) {
      if (rt.signedIn && !rt.queueLoaded) void rt.loadQueue().then((ok) => ok && this.changed());
    }
  }

  stop(): void {
    this.#watching = false;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
