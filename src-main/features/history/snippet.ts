import type { SearchHit } from '../../../src-shared/bridge/history';
import { maskDocuments } from '../../../src-shared/redact';

/** Characters of context kept on each side of a match. */
const AROUND = 40;

/**
 * Where `query` is in `text` (case-insensitive, as the service's LIKE): the match with what
 * surrounds it, cut at word boundaries where it can be, documents masked. A text the query is not
 * literally in (the user typed `%` or `_`, which LIKE reads as wildcards) shows its start.
 */
export function snippetOf(raw: string, query: string): SearchHit['snippet'] {
  // Masked first, so a document is never shown in clear, even when it is what was searched.
  const text = maskDocuments(raw);
  const at = query ? text.toLowerCase().indexOf(query.toLowerCase()) : -1;
  if (at < 0) return { before: '', match: '', after: clip(text, AROUND * 2) };
  let start = Math.max(0, at - AROUND);
  const space = text.lastIndexOf(' ', at);
  if (start > 0 && space > start) start = space + 1;
  const end = Math.min(text.length, at + query.length + AROUND);
  return {
    before: (start > 0 ? '…' : '') + text.slice(start, at),
    match: text.slice(at, at + query.length),
    after: text.slice(at + query.length, end) + (end < text.length ? '…' : ''),
  };
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** Whether `text` holds `query`, case-insensitive (the offline search over the kept copies). */
export const holds = (text: string | null | undefined, query: string): text is string =>
  !!text && text.toLowerCase().includes(query.toLowerCase());
