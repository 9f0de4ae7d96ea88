/**
 * The encodings real server stacks give a typed field (README: encodings): an integer as a
 * JSON number or a string of digits (protobuf's JSON mapping writes int64 so); a date-time as
 * ISO 8601 in UTC, with an offset, without a zone, with microseconds, or as epoch seconds or
 * milliseconds; a boolean as a JSON boolean or the word; an absent field left out or written
 * null; an empty list as [], null or left out. A record is re-encoded field by field from its
 * spec (fields.ts): one encoding for all fields (the variant reading, a dialect test) or one
 * chosen per field (a mix). Stored records are never changed: these rewrite copies.
 */
import { SPECS, isPlainObject, type CollectionName, type FieldType, type Spec } from './fields';
import type { Rec } from './query-engine';

export const INT_ENCODINGS = ['number', 'digits'] as const;
export const DATE_ENCODINGS = ['utc', 'offset', 'local', 'micro', 'epochSeconds', 'epochMillis'] as const;
export const BOOL_ENCODINGS = ['boolean', 'word'] as const;
export const ABSENT_ENCODINGS = ['missing', 'null'] as const;
export const EMPTY_LIST_ENCODINGS = ['empty', 'null', 'missing'] as const;

export type IntEncoding = (typeof INT_ENCODINGS)[number];
export type DateEncoding = (typeof DATE_ENCODINGS)[number];
export type BoolEncoding = (typeof BOOL_ENCODINGS)[number];
export type AbsentEncoding = (typeof ABSENT_ENCODINGS)[number];
export type EmptyListEncoding = (typeof EMPTY_LIST_ENCODINGS)[number];

/** How one field is written. */
export interface Encoding {
  int: IntEncoding;
  date: DateEncoding;
  bool: BoolEncoding;
  absent: AbsentEncoding;
  emptyList: EmptyListEncoding;
}

/** The stand-in's own way: numbers, ISO UTC, booleans, absent left out, empty lists as []. */
export const CANONICAL: Encoding = { int: 'number', date: 'utc', bool: 'boolean', absent: 'missing', emptyList: 'empty' };

/** Chooses the encoding of each field by its dotted path (a mix), or one for all. */
export type EncodingOf = (path: string) => Encoding;

/** Offset of the dates written with one: São Paulo's. */
export const OFFSET_MINUTES = -180;

/** `2026-11-23T20:04:05.123Z` → `2026-11-23T17:04:05.123-03:00` (the same instant). */
export function withOffset(iso: string, offsetMinutes = OFFSET_MINUTES): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, -1)}${sign}${hhmm}`;
}

/** One formatter per zone: making one costs far more than using it. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Minutes east of UTC in the IANA `zone` at the instant `ms`. */
export function zoneOffsetMinutes(zone: string, ms: number): number {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  const parts = format.formatToParts(new Date(ms));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour') % 24, n('minute'), n('second'));
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** `2026-11-23T20:04:05.123Z` in America/Sao_Paulo → `2026-11-23T17:04:05.123` (no offset). */
export function wallTimeIn(iso: string, zone: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  return new Date(ms + zoneOffsetMinutes(zone, ms) * 60_000).toISOString().slice(0, -1);
}

/** A date-time with no offset, as wall time in `zone`, to ISO UTC; null when it is not one such. */
export function fromWallTime(v: string, zone: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v.trim())) return null;
  const wall = Date.parse(`${v.trim().replace(' ', 'T')}Z`);
  if (Number.isNaN(wall)) return null;
  const first = wall - zoneOffsetMinutes(zone, wall) * 60_000;
  return new Date(wall - zoneOffsetMinutes(zone, first) * 60_000).toISOString();
}

function encodeDate(iso: string, how: DateEncoding): unknown {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const utc = new Date(ms).toISOString();
  switch (how) {
    case 'utc':
      return iso;
    case 'offset':
      return withOffset(iso);
    case 'local':
      // No zone at all, as a local date-time type writes it (read as UTC).
      return utc.slice(0, -1);
    case 'micro':
      return `${utc.slice(0, -1)}000+00:00`;
    case 'epochSeconds':
      return ms / 1000;
    case 'epochMillis':
      return ms;
  }
}

function encodeScalar(v: unknown, t: FieldType, how: Encoding): unknown {
  if (t === 'int' && typeof v === 'number' && Number.isInteger(v)) return how.int === 'digits' ? String(v) : v;
  if (t === 'date' && typeof v === 'string') return encodeDate(v, how.date);
  if (t === 'boolean' && typeof v === 'boolean') return how.bool === 'word' ? String(v) : v;
  return v;
}

const MISSING = Symbol('missing');

function encodeValue(v: unknown, t: FieldType | undefined, path: string, of: EncodingOf): unknown {
  const how = of(path);
  if (v === null || v === undefined) return how.absent === 'null' ? null : MISSING;
  if (t === undefined || t === 'any' || t === 'string' || t === 'number') return v;
  if (typeof t === 'string') return encodeScalar(v, t, how);
  if (t.kind === 'array') {
    if (!Array.isArray(v)) return v;
    if (v.length === 0) return how.emptyList === 'empty' ? [] : how.emptyList === 'null' ? null : MISSING;
    return v.map((x, i) => {
      const out = encodeValue(x, t.of, `${path}.${i}`, of);
      return out === MISSING ? null : out;
    });
  }
  if (t.kind === 'ref' && typeof v === 'number') return encodeScalar(v, 'int', how);
  return isPlainObject(v) ? encodeFields(v, t.fields(), path, of) : v;
}

function encodeFields(rec: Rec, spec: Spec, prefix: string, of: EncodingOf): Rec {
  const out: Rec = {};
  const keys = new Set([...Object.keys(rec), ...Object.keys(spec)]);
  for (const k of keys) {
    const path = prefix ? `${prefix}.${k}` : k;
    // Fields the record does not have are written per the encoding of absence (spec fields only).
    if (!(k in rec) && !(k in spec)) continue;
    const v = encodeValue(rec[k], spec[k], path, of);
    if (v !== MISSING) out[k] = v;
  }
  return out;
}

/**
 * A record of `coll` re-encoded: `of` gives each field's encoding by its dotted path. Fields the
 * spec does not know are copied as they are; fields it knows and the record lacks are written as
 * absence is. `hidden` fields are never added (a password the stand-in never shows).
 */
export function encodeRecord(coll: CollectionName, rec: Rec, of: EncodingOf, hidden: readonly string[] = []): Rec {
  return encodeWith(SPECS[coll], rec, of, hidden);
}

/** `encodeRecord` for a shape given by its spec (an answer that is not a stored record). */
export function encodeWith(spec: Spec, rec: Rec, of: EncodingOf, hidden: readonly string[] = []): Rec {
  const out = encodeFields(rec, spec, '', of);
  for (const k of hidden) if (!(k in rec)) delete out[k];
  return out;
}

/**
 * A record of `coll` with every date-time, nested ones included, as wall time of `zone` with no
 * offset; nothing else changes (absent fields stay absent, nulls null): the local-time reading.
 */
export function withWallDates(coll: CollectionName, rec: Rec, zone: string): Rec {
  const walk = (v: unknown, t: FieldType | undefined): unknown => {
    if (v === null || v === undefined || t === undefined) return v;
    if (t === 'date') return typeof v === 'string' ? wallTimeIn(v, zone) : v;
    if (typeof t === 'string') return v;
    if (t.kind === 'array') return Array.isArray(v) ? v.map((x) => walk(x, t.of)) : v;
    if (!isPlainObject(v)) return v;
    const spec = t.fields();
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, spec[k])]));
  };
  return walk(rec, { kind: 'object', fields: () => SPECS[coll] }) as Rec;
}

/** One encoding for every field. */
export const everywhere =
  (how: Encoding): EncodingOf =>
  () =>
    how;
