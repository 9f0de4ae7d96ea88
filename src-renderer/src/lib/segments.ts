import type { Entity } from '../../../src-shared/bridge/attendance';
import { findDocuments } from '../../../src-shared/documents';
import { maskDocuments } from '../../../src-shared/redact';

/** A piece of a message: plain text, or an entity (CPF and CNPJ are secret until revealed). */
export interface Segment {
  text: string;
  label: string | null;
  secret: boolean;
}

const SECRET_LABELS = new Set(['CPF', 'CNPJ']);

export function segmentsOf(text: string, entities: readonly Entity[] | undefined): Segment[] {
  const spans: Array<{ start: number; end: number; label: string }> = [];
  for (const e of entities ?? []) {
    let start = e.start ?? -1;
    let end = e.end ?? -1;
    if (start < 0 || end <= start || text.slice(start, end) !== e.text) {
      start = text.indexOf(e.text);
      end = start + e.text.length;
    }
    if (start >= 0 && e.text) spans.push({ start, end, label: e.label.toUpperCase() });
  }
  // Documents are hidden even before (or without) entity recognition: those masking hides.
  for (const d of findDocuments(text)) {
    if (!spans.some((s) => s.start < d.end && d.start < s.end)) spans.push({ start: d.start, end: d.end, label: d.kind });
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Segment[] = [];
  let at = 0;
  for (const s of spans) {
    if (s.start < at) continue;
    if (s.start > at) out.push({ text: text.slice(at, s.start), label: null, secret: false });
    out.push({ text: text.slice(s.start, s.end), label: s.label, secret: SECRET_LABELS.has(s.label) });
    at = s.end;
  }
  if (at < text.length) out.push({ text: text.slice(at), label: null, secret: false });
  return out;
}

/** How a secret looks until it is revealed. */
export function masked(text: string): string {
  const m = maskDocuments(text);
  return m === text ? text.replace(/\d/g, '•') : m;
}

/** A piece of plain text: words, or a link (`url` is the address it opens). */
export interface LinkPart {
  text: string;
  url: string | null;
}

/**
 * Web addresses and e-mail links in a message: http(s)://…, www.… (opened as https) and
 * mailto:…; punctuation closing a sentence is not part of the address.
 */
const LINK = /\b(?:https?:\/\/|www\.|mailto:)[^\s<>"']+/gi;

export function linksOf(text: string): LinkPart[] {
  const out: LinkPart[] = [];
  let at = 0;
  for (const m of text.matchAll(LINK)) {
    let raw = m[0];
    // A closing bracket stays only when the address opened one (a wiki page "…_(band)").
    for (;;) {
      const last = raw.at(-1) ?? '';
      const open = raw.split('(').length;
      if ('.,;:!?]}'.includes(last) || (last === ')' && open < raw.split(')').length)) raw = raw.slice(0, -1);
      else break;
    }
    if (raw.length < 5) continue;
    if (m.index > at) out.push({ text: text.slice(at, m.index), url: null });
    out.push({ text: raw, url: /^www\./i.test(raw) ? `https://${raw}` : raw });
    at = m.index + raw.length;
  }
  if (at < text.length) out.push({ text: text.slice(at), url: null });
  return out;
}
