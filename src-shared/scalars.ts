/**
 * The scalar readers: how a field of a service record is read as a record, a text, an integer, a
 * number, a boolean, a list or an instant, whatever shape the server wrote it in. The schemas
 * (src-shared/schemas/) read every field through them and the concept readers
 * (src-shared/concepts.ts) build on them; they know nothing of either, so neither loops back.
 */

import { wallToInstant, type ServiceZone } from './service-zone';

export type Rec = Record<string, unknown>;

/** A plain object, or null for anything else (arrays included). */
export const record = (v: unknown): Rec | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : null);

/** A non-blank string, trimmed; null for anything else. */
export function text(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t.length ? t : null;
}

/** A string of decimal digits, optionally signed: how many servers write an int64. */
const DIGITS = /^-?\d+$/;

/**
 * Whether `v` is an integer beyond what a JavaScript number carries exactly (2^53 − 1), as a
 * number or as digits. Such a value is never rounded silently: the record carrying it is refused
 * with this reason (schemas/README.md, "Integers beyond 2^53").
 */
export function isUnsafeInteger(v: unknown): boolean {
  if (typeof v === 'number') return Number.isInteger(v) && !Number.isSafeInteger(v);
  if (typeof v !== 'string') return false;
  const t = v.trim();
  return DIGITS.test(t) && !Number.isSafeInteger(Number(t));
}

/** Why an integer beyond 2^53 − 1 is refused, for the log and the user. */
export const unsafeIntegerReason = (v: unknown): string =>
  `${String(v).trim()} is beyond the integers this console carries exactly (2^53 - 1); the record is not used rather than rounded`;

/** An integer: a safe integer number or a string of digits (int64 as protobuf's JSON writes it). */
export function intOf(v: unknown): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : null;
  if (typeof v !== 'string') return null;
  const t = v.trim();
  if (!DIGITS.test(t)) return null;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * An integer identifier: an integer (`intOf`), or an object carrying one in `id` (a reference
 * such as `{id: 7}` or a whole record).
 */
export function idOf(v: unknown, depth = 0): number | null {
  const n = intOf(v);
  if (n !== null) return n;
  const r = record(v);
  return r && depth < 2 ? idOf(r.id, depth + 1) : null;
}

const DECIMAL = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** A number (a double, a duration): a finite JSON number or a decimal string. */
export function numOf(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string' || !DECIMAL.test(v.trim())) return null;
  const n = Number(v.trim());
  return Number.isFinite(n) ? n : null;
}

/** A boolean: a JSON boolean, or the word true or false (as XML-to-JSON bridges write them). */
export function boolOf(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (typeof v !== 'string') return null;
  const t = v.trim().toLowerCase();
  return t === 'true' ? true : t === 'false' ? false : null;
}

/** A string field: a string as it comes, or a number written as one (a protocol, an extension). */
export function stringOf(v: unknown): string | null {
  if (typeof v === 'string') return v;
  return typeof v === 'number' && Number.isFinite(v) && !isUnsafeInteger(v) ? String(v) : null;
}

/** A list: an array; an empty list may come as null or not at all, and reads as empty. */
export const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Epoch values below this are seconds, above it milliseconds (1e11 s is the year 5138). */
const SECONDS_LIMIT = 1e11;
/** An epoch number written as a string (9 digits or more: 1973 onwards in seconds). */
const EPOCH_DIGITS = /^\d{9,}(\.\d+)?$/;
/**
 * ISO 8601 as servers write it: a day, then optionally a time (`T` or a space, SQL's way) with
 * seconds and a fraction of any length, then optionally `Z` or an offset (`+03:00`, `+0300`, `+03`).
 * Nothing else is a date-time here: `Date.parse` would read "11/29/2026 10:00" in this machine's
 * zone, which is no one's instant.
 */
const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[Tt ](\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** What `instantOf` writes: `2026-11-26T18:45:00.000Z`. */
const CANONICAL_INSTANT = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number written by the `count` ASCII digits of `v` from `at`. */
function digits(v: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) n = n * 10 + v.charCodeAt(i) - 48;
  return n;
}

/**
 * Already in the form `instantOf` writes, and a real day (the 30th of February is read on as the
 * 2nd of March, as `Date.parse` reads it): most date-times a service sends, kept as they are
 * without a round trip through `Date` (reading a page of records is mostly reading its dates).
 */
export function isCanonicalInstant(v: string): boolean {
  if (v.length !== 24 || !CANONICAL_INSTANT.test(v)) return false;
  // Digits read from their character codes (the pattern said they are digits): slicing them out
  // made three small strings per date, most of what reading a page allocated.
  const month = digits(v, 5, 2);
  const day = digits(v, 8, 2);
  if (day <= DAYS_IN_MONTH[month - 1]!) return true;
  const year = digits(v, 0, 4);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && day === 29 && leap;
}

/**
 * The zone the service's date-times without an offset are read in, while a service's answer is
 * being read (`readingInZone`); null: UTC, until the console knows better (README: "Date-times
 * without an offset"). Reading is synchronous, so the answer being read is the only one.
 */
let serviceZone: ServiceZone | null = null;
let sawWallTime: (() => void) | null = null;

/**
 * Runs `read` (a schema's parse of one answer, a webhook event's record) with the service's
 * date-times without an offset read as wall time in `zone`. `onWallTime` hears that the answer
 * had such a date-time: the service writes them so, and is written to so.
 */
export function readingInZone<T>(zone: ServiceZone | null, read: () => T, onWallTime?: () => void): T {
  const was = serviceZone;
  const wasSaw = sawWallTime;
  serviceZone = zone;
  sawWallTime = onWallTime ?? null;
  try {
    return read();
  } finally {
    serviceZone = was;
    sawWallTime = wasSaw;
  }
}

/** The epoch milliseconds an ISO 8601 string names (a wall time in the service's zone), or NaN. */
function isoMs(t: string): number {
  const m = ISO_DATE_TIME.exec(t);
  if (!m) return Number.NaN;
  const [, day, time, zone] = m;
  // A day alone names a day, not an instant: midnight UTC, the same on every machine.
  if (time === undefined) return Date.parse(`${day}T00:00:00Z`);
  const clock = time.replace(',', '.');
  if (zone === undefined) {
    const wall = Date.parse(`${day}T${clock}Z`);
    if (!Number.isFinite(wall)) return Number.NaN;
    sawWallTime?.();
    return serviceZone ? wallToInstant(wall, serviceZone) : wall;
  }
  // `+0300` and `+03` as `Date.parse` takes them: `+03:00`.
  const hhmm = zone.slice(1).replace(':', '');
  const offset = /^[Zz]$/.test(zone) ? 'Z' : `${zone[0]}${hhmm.slice(0, 2)}:${hhmm.slice(2) || '00'}`;
  return Date.parse(`${day}T${clock}${offset}`);
}

/**
 * The wall-clock time of an ISO 8601 date-time written with no offset, as epoch milliseconds read
 * as if it were UTC (what the service's zone is learned from); null for anything else (an offset,
 * `Z`, a day alone, an epoch number, not a date).
 */
export function wallClockOf(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  const m = ISO_DATE_TIME.exec(v.trim());
  if (!m || m[2] === undefined || m[3] !== undefined) return null;
  const ms = Date.parse(`${m[1]}T${m[2].replace(',', '.')}Z`);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * A date-time as an ISO 8601 string in UTC (milliseconds), from an ISO string with or without
 * an offset or fraction, or an epoch number in seconds or milliseconds (as a number or digits).
 * Without an offset it is wall time in the service's zone (`readingInZone`). Null when it is not
 * a date.
 */
export function instantOf(v: unknown): string | null {
  if (typeof v === 'string' && isCanonicalInstant(v)) return v;
  let ms: number;
  if (typeof v === 'number' && Number.isFinite(v)) ms = Math.abs(v) < SECONDS_LIMIT ? v * 1000 : v;
  else if (typeof v === 'string' && v.trim()) {
    const t = v.trim();
    if (EPOCH_DIGITS.test(t)) return instantOf(Number(t));
    ms = isoMs(t);
  } else return null;
  if (!Number.isFinite(ms)) return null;
  const d = new Date(Math.round(ms));
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The epoch milliseconds of a date-time in any shape `instantOf` reads; NaN when it is none. */
export function msOf(v: unknown): number {
  const iso = instantOf(v);
  return iso === null ? Number.NaN : Date.parse(iso);
}
