import { findDocuments, type FoundDocument } from './documents';

/**
 * Masks Brazilian personal and company documents (CPF, CNPJ) in free text, as `findDocuments`
 * finds them. No Node imports: the renderer uses it as well as the main-process log.
 */

/** `123.456.789-09` -> `***.***.789-09`; `12.345.678/0001-95` -> `**.***.***\/****-95`. */
function maskOf(d: FoundDocument): string {
  return d.kind === 'CNPJ' ? `**.***.***/****-${d.digits.slice(12)}` : `***.***.${d.digits.slice(6, 9)}-${d.digits.slice(9)}`;
}

export function maskDocuments(text: string): string {
  const found = findDocuments(text);
  if (!found.length) return text;
  let out = '';
  let at = 0;
  for (const d of found) {
    out += text.slice(at, d.start) + maskOf(d);
    at = d.end;
  }
  return out + text.slice(at);
}
