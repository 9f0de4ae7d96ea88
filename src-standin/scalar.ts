/**
 * A stored or sent value as text, for the stand-in's own records (typed `unknown`): a string as
 * it is, a number, boolean or bigint as String() writes it; null for anything else (absent, an
 * object, a list), which String() would write as "[object Object]".
 */
export function scalarText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  return typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' ? String(v) : null;
}

/** A value as an error message shows it: a scalar as it is, anything else as JSON. */
export const shownValue = (v: unknown): string => scalarText(v) ?? JSON.stringify(v) ?? String(v);
