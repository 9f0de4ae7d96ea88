import { z } from 'zod';

/**
 * Building blocks for lenient resource schemas (policy: README.md here). The interface leaves
 * most required flags unstated, so a field is optional and nullable unless the interface marks
 * it required, and every object keeps the fields we do not know about (`.loose()`). A field of
 * the wrong type is dropped (read as absent) instead of failing its whole record: one odd field
 * never costs a record it is not needed for. Fields whose shape the interface leaves open are
 * `anyValue()` and read through src-shared/concepts.ts.
 */
export const opt = <T extends z.ZodType>(schema: T) => schema.nullable().optional().catch(undefined);

/** ids and counters (int64 / int32 in the interface). */
export const int = () => opt(z.number().int());
/** doubles and durations whose unit the interface does not give. */
export const num = () => opt(z.number());
export const str = () => opt(z.string());
export const bool = () => opt(z.boolean());
/** ISO 8601 date-times stay strings: parsing them is the caller's choice. */
export const dateTime = () => opt(z.string());
/** A field whose type the interface does not show at all. */
export const anyValue = () => z.unknown().optional();

/** The four audit fields (interface §2.9, "audit"). */
export const audit = {
  createdAt: dateTime(),
  createdBy: str(),
  updatedAt: dateTime(),
  updatedBy: str(),
};

/** Only the creation half of the audit fields (session comment, bot tag, cognition, message). */
export const created = {
  createdAt: dateTime(),
  createdBy: str(),
};

/** An identifier from another system (call ids, dispatch ids): a string or an integer. */
export const externalId = () => opt(z.union([z.string(), z.number().int()]));

/**
 * The first field a lenient parse dropped for its type (present in `input`, absent from `parsed`),
 * as a dotted path; null when none was. Reads tolerate such fields; what the console sends must
 * not lose one silently (a mistyped id would turn an update into a create).
 */
export function droppedField(input: unknown, parsed: unknown, path: string[] = []): string | null {
  if (path.length > 6 || !isPlain(input) || !isPlain(parsed)) return null;
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined || v === null) continue;
    const out = parsed[k];
    if (out === undefined) return [...path, k].join('.');
    const inner = droppedField(v, out, [...path, k]);
    if (inner) return inner;
  }
  return null;
}

const isPlain = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
