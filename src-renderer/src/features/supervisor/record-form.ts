import { twoDigits } from '../../lib/digits';
import { idOf, instantOf, personOf, record as asRecord, text as textOf, type Rec } from '../../../../src-shared/concepts';
import { HIDDEN } from '../../../../src-shared/secret-fields';
import { maskDocuments } from '../../../../src-shared/redact';
import type { FieldKind } from './resource-fields';

/**
 * Between a record and the explorer's form: what each input shows for a value and what it
 * writes back. Pure. The record stays the one model (the JSON view prints it), so a field the
 * user does not touch keeps its value exactly, whatever its shape.
 */

/** The value at a dotted key (`associationId.userId`); undefined where the path breaks. */
export function getPath(rec: Rec, key: string): unknown {
  let v: unknown = rec;
  for (const part of key.split('.')) {
    const r = asRecord(v);
    if (!r) return undefined;
    v = r[part];
  }
  return v;
}

/** A copy of the record with the value at a dotted key; `undefined` removes the field. */
export function setPath(rec: Rec, key: string, value: unknown): Rec {
  const [head, ...rest] = key.split('.') as [string, ...string[]];
  const out: Rec = { ...rec };
  if (rest.length) {
    const inner = setPath(asRecord(rec[head]) ?? {}, rest.join('.'), value);
    if (Object.keys(inner).length) out[head] = inner;
    else delete out[head];
  } else if (value === undefined) delete out[head];
  else out[head] = value;
  return out;
}

/**
 * The kind an input shows for this value: the field's own, unless the record carries something
 * else there (a user object where a flag was expected); then the value is shown and edited as
 * JSON, so nothing is lost and nothing crashes.
 */
export function shownKind(kind: FieldKind, value: unknown): FieldKind {
  if (value === null || value === undefined || kind.type === 'any') return kind;
  const fits =
    kind.type === 'text'
      ? typeof value === 'string'
      : kind.type === 'number'
        ? typeof value === 'number'
        : kind.type === 'boolean'
          ? typeof value === 'boolean'
          : kind.type === 'date'
            ? instantOf(value) !== null
            : idOf(value) !== null;
  return fits ? kind : { type: 'any' };
}

const pad = twoDigits;

/** A date-time as a `datetime-local` input reads it (this machine's time zone); '' when not a date. */
export function toLocalInput(value: unknown): string {
  const iso = instantOf(value);
  if (!iso) return '';
  const d = new Date(iso);
  const base = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return d.getSeconds() ? `${base}:${pad(d.getSeconds())}` : base;
}

/** A `datetime-local` value (this machine's time zone) as an ISO 8601 instant; null when empty or invalid. */
export function fromLocalInput(local: string): string | null {
  if (!local.trim()) return null;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** What a text-like input shows for a value of this kind. */
export function inputOf(kind: FieldKind, value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (kind.type) {
    case 'date':
      return toLocalInput(value);
    case 'ref':
      return String(idOf(value) ?? '');
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

/**
 * The value an input writes for `typed`. `current` is what the record holds now, `base` what it
 * held when editing began: emptying a field the record did not have leaves it out, emptying one
 * it had sends null (or '' for text), so the service clears it.
 */
export function valueOf(kind: FieldKind, typed: string, current: unknown, base: unknown): unknown {
  if (!typed.trim() && kind.type !== 'text') return base === undefined || base === null ? undefined : null;
  switch (kind.type) {
    case 'text':
      return typed === '' && (base === undefined || base === null) ? undefined : typed;
    case 'number': {
      const n = Number(typed);
      return Number.isFinite(n) ? n : current;
    }
    case 'boolean':
      return typed === 'true';
    case 'date':
      return fromLocalInput(typed) ?? current;
    case 'ref':
      return refValueOf(kind.shape, typed, current);
    case 'any':
      return anyValueOf(typed, base);
  }
}

/** A reference typed as an id, written in the shape the record already uses there, else in the field's own. */
function refValueOf(shape: Extract<FieldKind, { type: 'ref' }>['shape'], typed: string, current: unknown): unknown {
  const id = idOf(typed);
  if (id === null) return current;
  if (typeof current === 'number' || typeof current === 'string') return id;
  return asRecord(current) || shape === 'object' ? { id } : id;
}

/** A field of no known type: one that held text keeps text; any other is read as JSON where it is JSON. */
function anyValueOf(typed: string, base: unknown): unknown {
  if (typeof base === 'string') return typed;
  try {
    return JSON.parse(typed) as unknown;
  } catch {
    return typed;
  }
}

/**
 * A secret field the service holds and the bridge hid: the input starts empty, what is typed
 * replaces the secret, and emptying it again leaves the secret as it is (the save skips `HIDDEN`).
 */
export const isHiddenSecret = (base: unknown): boolean => base === HIDDEN;
export const secretInputOf = (value: unknown): string => (value === HIDDEN || typeof value !== 'string' ? '' : value);
export const secretValueOf = (typed: string): string => (typed === '' ? HIDDEN : typed);

/** Words that tell records of a list apart, in the order they are tried. */
const NAMING = [
  'name',
  'displayName',
  'description',
  'elementName',
  'value',
  'protocol',
  'userName',
  'loginAttendance',
  'callId',
  'tag',
  'code',
  'message',
  'comment',
  'answer',
];

/** How a picker names a record: its id and the first words that tell it apart. */
export function optionLabel(rec: Rec): string {
  const id = idOf(rec.id);
  const own = NAMING.map((k) => textOf(rec[k])).find((t) => t !== null) ?? null;
  // A session by its protocol and customer, an agent by its user.
  const person = personOf(rec.user);
  const who = person?.name ?? person?.userName ?? null;
  const words = [own, who].filter((t): t is string => t !== null && t !== '');
  const label = [...new Set(words)].join(' · ');
  // A name or protocol may hold a CPF: masked here as everywhere a record is shown.
  const whole = maskDocuments(label);
  const short = whole.length > 70 ? `${whole.slice(0, 69)}…` : whole;
  return id === null ? short : short ? `#${id} · ${short}` : `#${id}`;
}
