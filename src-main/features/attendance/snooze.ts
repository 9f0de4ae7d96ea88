import { z } from 'zod';
import type { QueueItem } from '../../../src-shared/bridge/attendance';
import { AppError } from '../../../src-shared/errors';
import { bucketOf } from '../../../src-shared/queue';
import { systemClock, type Clock } from '../../clock';
import { KeptFile } from '../../kept-file';
import type { HandlerTable } from '../../bridge/table';
import type { FeatureContext } from '../context';

/**
 * Snooze: the attendant puts a session of theirs aside until a time or until its customer
 * writes. The service has no such field (README: "Snooze is the console's own"), so it is kept
 * here, in the main process, in one file of the signed-in account's folder: another account
 * signing in on this computer has its own.
 */

/** A snooze further away than this is refused (a date typed wrong, most likely). */
export const MAX_SNOOZE_MS = 366 * 24 * 3600 * 1000;
/** setTimeout's longest delay; a farther wake is armed again when this one fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const SnoozedSchema = z
  .object({
    /** When it wakes (ISO); null: when the customer writes. */
    until: z.string().nullable(),
    /** When the attendant snoozed it (ISO). */
    at: z.string(),
  })
  .strict();
const WokeSchema = z.object({ why: z.enum(['customer', 'time']), at: z.string() }).strict();
const FileSchema = z
  .object({
    version: z.literal(1),
    snoozed: z.record(z.string(), SnoozedSchema),
    /** Sessions woken and not yet opened by the attendant: their rows say why they came back. */
    woken: z.record(z.string(), WokeSchema),
  })
  .strict();
type SnoozeFile = z.infer<typeof FileSchema>;
export type Woke = z.infer<typeof WokeSchema>;

/** What a queue row carries of its snooze (fields of `QueueItem`). */
export type SnoozeFields = Pick<QueueItem, 'snoozed' | 'snoozedUntil' | 'woke'>;

/** `item` with its snooze fields replaced by `fields` (the same object when neither has any). */
export function withSnoozeFields(item: QueueItem, fields: Partial<SnoozeFields>): QueueItem {
  if (!('snoozed' in item) && !('snoozedUntil' in item) && !('woke' in item) && !fields.snoozed && !fields.woke) return item;
  const { snoozed: _s, snoozedUntil: _u, woke: _w, ...rest } = item;
  return { ...rest, ...fields };
}

const empty = (): SnoozeFile => ({ version: 1, snoozed: {}, woken: {} });

/**
 * The account's snoozed sessions and the wake rules: a time in the future or the customer's
 * next message; a session that closes or leaves the attendant drops its snooze. One timer wakes
 * what is due (`start`, stopped by `stop`); `onChange` hears every session whose snooze changed.
 */
export class SnoozeStore {
  #data: SnoozeFile = empty();
  #timer: unknown = null;
  #running = false;
  readonly #listeners = new Set<(sessionId: number) => void>();
  readonly #kept: KeptFile<SnoozeFile>;

  readonly #clock: Clock;
  constructor(file: string, warn: (message: string) => void, clock: Clock = systemClock) {
    this.#clock = clock;
    this.#kept = new KeptFile({ file, schema: FileSchema, what: 'snoozed sessions', warn });
    // Unreadable: set aside and said on the page; nothing is snoozed meanwhile.
    this.#data = this.#kept.read() ?? empty();
  }

  /** Hears each session whose snooze or wake mark changed; the returned function stops it. */
  onChange(listener: (sessionId: number) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The row's snooze fields; absent keys when the session is neither snoozed nor freshly woken. */
  fieldsOf(sessionId: number): Partial<SnoozeFields> {
    const s = this.#data.snoozed[sessionId];
    if (s) return { snoozed: true, snoozedUntil: s.until };
    const w = this.#data.woken[sessionId];
    return w ? { woke: w.why } : {};
  }

  isSnoozed(sessionId: number): boolean {
    return sessionId in this.#data.snoozed;
  }

  /** Every snoozed session's id. */
  snoozedIds(): number[] {
    return Object.keys(this.#data.snoozed).map(Number);
  }

  /**
   * Snoozes a session until `until` (ISO, in the future and within `MAX_SNOOZE_MS`), or until its
   * customer writes (null). Bad times are refused with what to do instead; nothing changes then.
   */
  snooze(sessionId: number, until: string | null): void {
    const now = this.#clock.now();
    let wake: string | null = null;
    if (until !== null) {
      const ms = Date.parse(until);
      if (Number.isNaN(ms))
        throw new AppError({ kind: 'Invalid', message: 'That is not a time the console can read: choose a date and time.' });
      if (ms <= now) throw new AppError({ kind: 'Invalid', message: 'That time has already passed: choose a time later than now.' });
      if (ms - now > MAX_SNOOZE_MS)
        throw new AppError({ kind: 'Invalid', message: 'That is more than a year away: choose an earlier time.' });
      wake = new Date(ms).toISOString();
    }
    this.#data.snoozed[sessionId] = { until: wake, at: new Date(now).toISOString() };
    delete this.#data.woken[sessionId];
    this.#changed([sessionId]);
  }

  /** The attendant wakes it by hand (no mark: they know why it is back). True when it was snoozed. */
  wake(sessionId: number): boolean {
    if (!this.isSnoozed(sessionId)) return false;
    delete this.#data.snoozed[sessionId];
    this.#changed([sessionId]);
    return true;
  }

  /** Its customer wrote (news, not a message seen before): a snoozed session wakes, marked so. */
  customerWrote(sessionId: number): boolean {
    return this.#wakeMarked([sessionId], 'customer') > 0;
  }

  /** The attendant opened the session: its wake mark has been seen. */
  seen(sessionId: number): boolean {
    if (!(sessionId in this.#data.woken)) return false;
    delete this.#data.woken[sessionId];
    this.#changed([sessionId]);
    return true;
  }

  /**
   * The session as the queue now holds it: one closed, or no longer the attendant's (`me`),
   * drops its snooze and its wake mark. Answers the fields its row carries.
   */
  follow(item: QueueItem, me: string | null): Partial<SnoozeFields> {
    const id = item.id;
    if (!(id in this.#data.snoozed) && !(id in this.#data.woken)) return {};
    const b = bucketOf(item, me);
    if (b !== 'mine' && b !== 'pending') {
      // The queue is projecting this very item: nobody else needs telling.
      this.#drop([id], false);
      return {};
    }
    return this.fieldsOf(id);
  }

  /** After a whole read of the queue: sessions it no longer holds (closed) drop their snooze. */
  keepOnly(held: ReadonlySet<number>): void {
    const gone = [...new Set([...Object.keys(this.#data.snoozed), ...Object.keys(this.#data.woken)].map(Number))].filter(
      (id) => !held.has(id),
    );
    if (gone.length) this.#drop(gone);
  }

  /** Wakes every session whose time has come; their ids. */
  wakeDue(): number[] {
    const now = this.#clock.now();
    const due = Object.entries(this.#data.snoozed)
      .filter(([, s]) => s.until !== null && Date.parse(s.until) <= now)
      .map(([id]) => Number(id));
    this.#wakeMarked(due, 'time');
    return due;
  }

  /** Starts the one timer that wakes sessions when their time comes. */
  start(): void {
    this.#running = true;
    this.#arm();
  }

  /** Stops the timer (sign-out, dispose) and writes what is pending. */
  async stop(): Promise<void> {
    this.#running = false;
    if (this.#timer !== null) this.#clock.clearTimeout(this.#timer);
    this.#timer = null;
    this.#listeners.clear();
    await this.#kept.flushed();
  }

  /** Settles once every change so far is on disk. */
  flushed(): Promise<void> {
    return this.#kept.flushed();
  }

  #wakeMarked(ids: readonly number[], why: Woke['why']): number {
    const woken = ids.filter((id) => id in this.#data.snoozed);
    const at = new Date(this.#clock.now()).toISOString();
    for (const id of woken) {
      delete this.#data.snoozed[id];
      this.#data.woken[id] = { why, at };
    }
    if (woken.length) this.#changed(woken);
    return woken.length;
  }

  #drop(ids: readonly number[], notify = true): void {
    for (const id of ids) {
      delete this.#data.snoozed[id];
      delete this.#data.woken[id];
    }
    this.#changed(ids, notify);
  }

  /** The nearest wake time still ahead, armed as the one timer. */
  #arm(): void {
    if (this.#timer !== null) this.#clock.clearTimeout(this.#timer);
    this.#timer = null;
    if (!this.#running) return;
    let next = Infinity;
    for (const s of Object.values(this.#data.snoozed)) if (s.until !== null) next = Math.min(next, Date.parse(s.until));
    if (!Number.isFinite(next)) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, next - this.#clock.now()));
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = null;
      // Waking re-arms (a change); nothing due (a long delay cut short): armed again here.
      if (!this.wakeDue().length) this.#arm();
    }, delay);
  }

  #changed(ids: readonly number[], notify = true): void {
    void this.#kept.write(this.#data);
    this.#arm();
    if (notify) for (const id of ids) for (const l of this.#listeners) l(id);
  }
}

type SnoozeChannel = 'attendance:snooze' | 'attendance:wake';

/** What the attendant asks: snooze a session of theirs, or wake it now. */
export function snoozeHandlers(
  ctx: Pick<FeatureContext, 'me'>,
  // The queue as the snooze needs it (named here: the queue imports this file).
  d: { queue: { item(id: number): QueueItem | undefined }; snooze: SnoozeStore },
): Pick<HandlerTable, SnoozeChannel> {
  const { queue, snooze } = d;
  /** The session as the queue holds it: only the attendant's own can be snoozed. */
  function mine(sessionId: number): QueueItem {
    const item = queue.item(sessionId);
    if (!item) throw new AppError({ kind: 'Invalid', message: 'This session is no longer in the queue: it may have closed.' });
    const b = bucketOf(item, ctx.me()?.userName ?? null);
    if (b !== 'mine' && b !== 'pending') throw new AppError({ kind: 'Invalid', message: 'Only a session of yours can be snoozed.' });
    return item;
  }
  return {
    'attendance:snooze': async ({ sessionId, until }) => {
      mine(sessionId);
      snooze.snooze(sessionId, until);
      // The change re-projected the row (the queue listens): its new state is the answer.
      return mine(sessionId);
    },
    'attendance:wake': async ({ sessionId }) => {
      mine(sessionId);
      snooze.wake(sessionId);
      return mine(sessionId);
    },
  };
}
