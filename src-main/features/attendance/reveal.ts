import { findDocuments } from '../../../src-shared/documents';
import { maskDocuments } from '../../../src-shared/redact';

/**
 * The documents an attendant revealed and chose to send: only values that are a CPF or CNPJ
 * count (anything else is not secret and needs no exception), each once.
 */
export function revealedDocuments(values: readonly string[] | undefined): string[] {
  const out = new Set<string>();
  for (const v of values ?? []) {
    const t = v.trim();
    if (t && findDocuments(t).length) out.add(t);
  }
  return [...out];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * Masks every CPF/CNPJ in `text` except the `keep` values, which stay as written. Used when the
 * attendant deliberately sends what they revealed: the client is then told not to mask
 * (revealDocuments), so every other document must already be masked here.
 */
export function maskExcept(text: string, keep: readonly string[]): string {
  if (!keep.length) return maskDocuments(text);
  // Longest first, so a CNPJ is not cut by a shorter value that happens to sit inside it.
  const re = new RegExp(
    [...keep]
      .sort((a, b) => b.length - a.length)
      .map(escape)
      .join('|'),
    'g',
  );
  let out = '';
  let at = 0;
  for (const m of text.matchAll(re)) {
    const start = m.index ?? 0;
    // A kept value glued to more digits is part of another number: it is masked with it.
    if (/\d/.test(text[start - 1] ?? '') || /\d/.test(text[start + m[0].length] ?? '')) continue;
    out += maskDocuments(text.slice(at, start)) + m[0];
    at = start + m[0].length;
  }
  return out + maskDocuments(text.slice(at));
}
