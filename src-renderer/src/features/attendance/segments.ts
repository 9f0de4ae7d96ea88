import type { Entity } from '../../../../src-shared/bridge/attendance';
import { findDocuments } from '../../../../src-shared/documents';
import { maskDocuments } from '../../../../src-shared/redact';

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
