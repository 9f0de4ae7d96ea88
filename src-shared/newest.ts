import { msOf } from './concepts';

/**
 * "Newest" is by the records' own times, never by where a list put them: a service may list in
 * any order (some ignore `sort`), and a page read newest first is only a page. Every preview,
 * window, unread count, cursor and "last message" goes through these, so one rule decides.
 *
 * A record without a readable time is older than any with one (it cannot be placed after them);
 * records at the same instant are told apart by id, the higher one newer.
 */
export interface Timed {
  /** The record's time as the service wrote it (any shape `msOf` reads), or null. */
  at: unknown;
  id: number;
}

/** The instant of a time, -Infinity when it has none (oldest of all). */
function instant(at: unknown): number {
  const ms = msOf(at);
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

/** Negative when `a` is older than `b`, positive when newer, 0 for the same record. */
export function compareTimed(a: Timed, b: Timed): number {
  const ta = instant(a.at);
  const tb = instant(b.at);
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.id - b.id;
}

/** Whether `a` is newer than `b` (a missing `b` is older than anything). */
export function isNewer(a: Timed, b: Timed | null | undefined): boolean {
  return !b || compareTimed(a, b) > 0;
}

/** The newest of `items` by `timed` (those `keep` refuses left out); undefined when none. */
export function newestOf<T>(items: Iterable<T>, timed: (t: T) => Timed, keep: (t: T) => boolean = () => true): T | undefined {
  let best: T | undefined;
  let bestKey: Timed | undefined;
  for (const t of items) {
    if (!keep(t)) continue;
    const key = timed(t);
    if (isNewer(key, bestKey)) {
      best = t;
      bestKey = key;
    }
  }
  return best;
}

/** `items` oldest first by `timed` (a new array; the input is left as it came). */
export function oldestFirst<T>(items: Iterable<T>, timed: (t: T) => Timed): T[] {
  const keyed = [...items].map((t) => ({ t, k: timed(t) }));
  keyed.sort((a, b) => compareTimed(a.k, b.k));
  return keyed.map((x) => x.t);
}

/** A message's place in time: its `createdAt` and id (the shape the bridge carries). */
export const messageTime = (m: { createdAt: string | null; id: number }): Timed => ({ at: m.createdAt, id: m.id });

/** The messaging window of chat apps: 24 hours after the customer's last message. */
export const WINDOW_MS = 24 * 3600 * 1000;

/**
 * Whether a chat-app session's window is closed at `now`: the customer's newest message (by
 * time) is older than the window, or the messages read hold none of the customer's (then only
 * a template may reach them). Other channels have no window.
 */
export function windowClosed(
  channel: string | null,
  messages: Iterable<{ createdAt: string | null; id: number; fromCustomer: boolean }>,
  now: number,
): boolean {
  if (channel !== 'chatApp') return false;
  const list = [...messages];
  const last = newestOf(list, messageTime, (m) => m.fromCustomer);
  const at = msOf(last?.createdAt);
  return Number.isNaN(at) ? list.length > 0 : now - at > WINDOW_MS;
}

/** When a chat-app session's window closes (ms), null when it is closed already or has none. */
export function windowEndsAt(
  channel: string | null,
  messages: Iterable<{ createdAt: string | null; id: number; fromCustomer: boolean }>,
): number | null {
  if (channel !== 'chatApp') return null;
  const at = msOf(newestOf(messages, messageTime, (m) => m.fromCustomer)?.createdAt);
  return Number.isNaN(at) ? null : at + WINDOW_MS;
}

/**
 * Whether a list came newest first, as asked: a page of "the newest N" from a service that
 * ignored the sort is N records of any time, and tells nothing of which are the newest. Only the
 * times are compared: the service was asked to sort by its time column, and records at the same
 * instant come in whatever order it keeps them (a busy thread has many; taking ascending ids
 * there for a list in no order sent every long thread down the whole-thread read).
 */
export function listedNewestFirst<T>(items: readonly T[], timed: (t: T) => Timed): boolean {
  for (let i = 1; i < items.length; i++) if (instant(timed(items[i]!).at) > instant(timed(items[i - 1]!).at)) return false;
  return true;
}
