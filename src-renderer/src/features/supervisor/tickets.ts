/**
 * Ticket references in free text ("ticket 4711", "#4711", "SUP-4711"), for the thread to turn
 * into links that open the lookup. Pure, so the attendance feature and tests can use it.
 */
export type TextPart = { kind: 'text'; text: string } | { kind: 'ticket'; text: string; ref: string };

// A unique key (two or more capitals, a dash, digits), "#digits", or "ticket/chamado digits".
const TICKET_REF = /\b([A-Z][A-Z0-9]{1,9}-\d{1,10})\b|(?<![\w#])#(\d{2,10})\b|\b(?:ticket|chamado)\s*(?:n[º°o.]?\s*)?#?(\d{2,10})\b/giu;

export function linkifyTickets(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const m of text.matchAll(TICKET_REF)) {
    const start = m.index;
    const key = m[1];
    // Keys are upper case by convention: "pre-2024" must not become a ticket.
    if (key !== undefined && key !== key.toUpperCase()) continue;
    const ref = key ?? m[2] ?? m[3];
    if (!ref) continue;
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'ticket', text: m[0], ref });
    last = start + m[0].length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
