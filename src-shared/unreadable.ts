import { idOf, record } from './concepts';

/**
 * Records the console could not use, counted and described the same way wherever it drops any
 * (the queue, a thread, the groups view, the pause reasons, a ticket, the explorer...): how many,
 * and the first one as the log names it (the resource, the record's id when it can be read, the
 * first field that failed and why). Zod-free: the renderer words the notice from it.
 */

export interface SkippedRecord {
  /** The resource's key (`userSession`, `message`, `pauseReason`...). */
  resource: string;
  id: number | null;
  /** The first field that failed, dotted; null when the record as a whole was not one. */
  field: string | null;
  reason: string;
}

export interface Unreadable {
  count: number;
  first: SkippedRecord | null;
}

export const NONE_UNREADABLE: Unreadable = { count: 0, first: null };

/** What kind of value a record turned out to be, for a reason ("a string", "null"). */
const kindOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;

/** A record the service sent that is not an object at all. */
export const notARecord = (resource: string, raw: unknown): SkippedRecord => ({
  resource,
  id: null,
  field: null,
  reason: `not a record but ${kindOf(raw)}`,
});

/** A record the console read but cannot use for want of `field`. */
export const lacking = (resource: string, raw: unknown, field: string, why = 'missing or unreadable'): SkippedRecord => ({
  resource,
  id: idOf(record(raw)?.id),
  field,
  reason: why,
});

/** The log line's words for a skipped record: `userSession 123, field createdAt: not a date-time`. */
export function describeSkip(s: SkippedRecord): string {
  const who = s.id === null ? s.resource : `${s.resource} ${s.id}`;
  return s.field ? `${who}, field ${s.field}: ${s.reason}` : `${who}: ${s.reason}`;
}

/** A tally of what one read or view could not use. */
export class Skips {
  #count = 0;
  #first: SkippedRecord | null = null;

  /** One record left out. */
  add(s: SkippedRecord): void {
    this.#count++;
    this.#first ??= s;
  }

  /** What a page (or a whole list) left out when it was read. */
  addAll(u: { count: number; first: SkippedRecord | null }): void {
    if (u.count <= 0) return;
    this.#count += u.count;
    this.#first ??= u.first;
  }

  get count(): number {
    return this.#count;
  }

  summary(): Unreadable {
    return { count: this.#count, first: this.#first };
  }

  /** One log line for the place (`queue`, `groups view`...) when it left anything out. */
  report(log: { warn(message: string, fields?: Record<string, unknown>): void } | undefined, place: string): void {
    if (this.#count && log)
      log.warn(`${place}: records not shown`, { count: this.#count, first: this.#first && describeSkip(this.#first) });
  }
}
