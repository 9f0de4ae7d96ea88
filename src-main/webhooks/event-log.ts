import type { EventLogEntry, EventLogFilter } from './types';

/** Bodies longer than this are cut in the event log (the event handed on keeps all of it). */
const LOG_RAW_CHARS = 32 * 1024;
export const EVENT_LOG_CAPACITY = 500;

/**
 * The event log: the last `capacity` events received, their bodies cut at 32 KiB, listed newest
 * first and filtered. The listener keeps one in its durable state; a console reading a team
 * relay keeps one in memory.
 */
export class EventRing {
  readonly #rows: EventLogEntry[] = [];
  readonly #capacity: number;

  constructor(capacity = EVENT_LOG_CAPACITY) {
    this.#capacity = capacity;
  }

  add(row: Omit<EventLogEntry, 'truncated'>): void {
    this.#rows.push(row.raw.length > LOG_RAW_CHARS ? { ...row, raw: row.raw.slice(0, LOG_RAW_CHARS), truncated: true } : row);
    if (this.#rows.length > this.#capacity) this.#rows.shift();
  }

  /** Rows read back from a snapshot, oldest first. */
  load(rows: readonly EventLogEntry[]): void {
    this.#rows.push(...rows);
    this.#rows.splice(0, Math.max(0, this.#rows.length - this.#capacity));
  }

  /** Oldest first, for a snapshot. */
  entries(): EventLogEntry[] {
    return this.#rows.slice();
  }

  /** Newest first, filtered. */
  select({ group, type, text, limit }: EventLogFilter = {}): EventLogEntry[] {
    const t = text?.toLowerCase();
    const rows = this.#rows.filter(
      (e) =>
        (group === undefined || e.group === group) &&
        (type === undefined || e.type === type) &&
        (!t || e.id.toLowerCase().includes(t) || e.raw.toLowerCase().includes(t)),
    );
    return rows.reverse().slice(0, limit);
  }

  clear(): void {
    this.#rows.length = 0;
  }
}
