import type { ResourceKey } from '../../../../src-shared/paths';
import { instantOf } from '../../../../src-shared/concepts';
import { HIDDEN } from '../../../../src-shared/secret-fields';
import { maskDocuments } from '../../../../src-shared/redact';
import { findDocuments, type DocumentKind } from '../../../../src-shared/documents';
import { knownLabel } from '../../lib/enums';
import { i18n } from '../../lib/i18n.svelte';
import { segmentsOf, type Segment } from '../../lib/segments';
import { fieldsOf, type FieldSpec } from './resource-fields';
import { fieldLabel, tt } from './strings';

/**
 * How the explorer shows a record's fields to people: each field by its word (the field table),
 * instants in the interface language's format, service codes through the shared code table, a
 * yes/no for flags, a secret field as "hidden" (it never crossed the bridge), and every CPF or
 * CNPJ as a piece of its own, masked until the user reveals it.
 */

/** A field's value as shown: nothing, hidden, or text in pieces (a document is a piece of its own). */
export type Cell = { kind: 'empty' } | { kind: 'hidden' } | { kind: 'text'; parts: Segment[] };

const EMPTY: Cell = { kind: 'empty' };
const HIDDEN_CELL: Cell = { kind: 'hidden' };

const specOf = (resource: ResourceKey, key: string): FieldSpec | undefined => fieldsOf(resource).find((f) => f.key === key);

/** A column's or a field's name in words; a field the table does not know keeps its key. */
export function columnLabel(resource: ResourceKey, key: string): string {
  const spec = specOf(resource, key);
  return spec?.label ? fieldLabel(spec.label) : key;
}

/** An ISO date-time as servers write it, with or without a zone. */
const INSTANT = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
/** A day alone: it names a day, not an instant, so no time zone moves it. */
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A service code: capitals and underscores ("CLOSED", "WAITING_CUSTOMER"). */
const CODE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

/** An instant or a day in the interface language's format; null when the value is neither. */
function dateWords(spec: FieldSpec | undefined, value: unknown): string | null {
  const isDate = spec?.kind.type === 'date';
  if (typeof value === 'string' && DAY.test(value))
    return i18n.dateTime(`${value}T00:00:00Z`, { dateStyle: 'short', timeZone: 'UTC' }) || null;
  if (!isDate && !(typeof value === 'string' && INSTANT.test(value))) return null;
  // The one reader of instants (epoch numbers, offsets, no zone at all) for every shape servers send.
  const iso = instantOf(value);
  return iso ? i18n.dateTime(iso, { dateStyle: 'short', timeStyle: 'medium' }) : null;
}

/** What a reference object is called: its name where it has one, else the object as JSON. */
function objectWords(value: object): string {
  const r = value as Record<string, unknown>;
  const name = [r.name, r.displayName, r.userName, r.companyName].find((n) => typeof n === 'string' && n && n !== HIDDEN);
  if (typeof name === 'string' && !Array.isArray(value))
    return typeof r.id === 'number' || typeof r.id === 'string' ? `${name} (#${r.id})` : name;
  return JSON.stringify(value, (_k, v: unknown) => (v === HIDDEN ? tt('explorer.hidden') : v));
}

/** A value that is not an instant, in words. */
function valueWords(value: unknown): string {
  switch (typeof value) {
    case 'boolean':
      return tt(value ? 'explorer.yes' : 'explorer.no');
    case 'string':
      return CODE.test(value) ? knownLabel(value) : value;
    case 'number':
    case 'bigint':
      return String(value);
    case 'object':
      return value ? objectWords(value) : '';
    default:
      return '';
  }
}

/** One field of a record as the explorer shows it. */
export function cellOf(resource: ResourceKey, key: string, value: unknown): Cell {
  if (value === HIDDEN) return HIDDEN_CELL;
  if (value === null || value === undefined || value === '') return EMPTY;
  const text = dateWords(specOf(resource, key), value) ?? valueWords(value);
  return { kind: 'text', parts: segmentsOf(text, undefined) };
}

/** A cell as one line of text, its documents masked (a tooltip, a screen reader's summary). */
export const cellText = (cell: Cell): string =>
  cell.kind === 'empty'
    ? '—'
    : cell.kind === 'hidden'
      ? tt('explorer.hidden')
      : cell.parts.map((p) => (p.secret ? maskDocuments(p.text) : p.text)).join('');

/**
 * The one rule for every editor of a record (the form's inputs, the JSON view): each string, and
 * each number written out, that holds a CPF or CNPJ is masked, however deep it sits and whatever
 * its field. Null when `value` holds none.
 */
export function documentIn(value: unknown, depth = 0): DocumentKind | null {
  if (typeof value === 'string' || typeof value === 'number') return findDocuments(String(value))[0]?.kind ?? null;
  if (!value || typeof value !== 'object' || depth > 64) return null;
  for (const v of Array.isArray(value) ? (value as unknown[]) : Object.values(value)) {
    const kind = documentIn(v, depth + 1);
    if (kind) return kind;
  }
  return null;
}

/** `value` with every string or number holding a document replaced by its masked text. */
export function maskedValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string' || typeof value === 'number') {
    const text = String(value);
    const out = maskDocuments(text);
    return out === text ? value : out;
  }
  if (!value || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((v: unknown) => maskedValue(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskedValue(v, depth + 1)]));
}

/** A field's value as a masked input shows it: text as it is, anything else as JSON. */
export function maskedInput(value: unknown): string {
  const m = maskedValue(value);
  return typeof m === 'string' ? m : JSON.stringify(m);
}

/**
 * A record as JSON for the advanced view: documents masked, like everywhere else on screen.
 * `unmaskJson` puts back every masked value the user left as it was.
 */
export function maskedJson(record: Record<string, unknown>): string {
  return JSON.stringify(maskedValue(record), null, 2);
}

/** `edited` with each string still equal to the masked form of `original`'s at the same place given back its value. */
export function unmaskJson(edited: unknown, original: unknown): unknown {
  if (typeof edited === 'string')
    return (typeof original === 'string' || typeof original === 'number') && edited !== original && maskedValue(original) === edited
      ? original
      : edited;
  if (!edited || typeof edited !== 'object' || !original || typeof original !== 'object') return edited;
  if (Array.isArray(edited)) {
    const from = Array.isArray(original) ? (original as unknown[]) : [];
    return edited.map((v: unknown, i) => unmaskJson(v, from[i]));
  }
  const from = original as Record<string, unknown>;
  return Object.fromEntries(Object.entries(edited).map(([k, v]) => [k, unmaskJson(v, from[k])]));
}
