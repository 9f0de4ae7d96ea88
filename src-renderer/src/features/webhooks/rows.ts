import type { EventRow } from '../../../../src-shared/bridge/webhooks';

/** Zod-free copies of the bridge's limits and names, so the renderer bundle carries no zod. */
export const LOG_ROWS = 500;
export const GROUPS = ['messages', 'status', 'sessions', 'voice', 'bot', 'entities'] as const;

export interface RowFilter {
  group: string;
  type: string;
  text: string;
}

export const NO_FILTER: RowFilter = { group: '', type: '', text: '' };

/**
 * The listener log's own rule (exact group and type, case-insensitive text in the id or the
 * body), applied to rows pushed while a filter is set. Pushed bodies are cut at 4 KB, so text
 * deeper in a huge body matches only when the log is read again.
 */
export function matches(row: EventRow, f: RowFilter): boolean {
  if (f.group && row.group !== f.group) return false;
  if (f.type && row.type !== f.type) return false;
  if (f.text) {
    const text = f.text.toLowerCase();
    if (!row.id.toLowerCase().includes(text) && !row.raw.toLowerCase().includes(text)) return false;
  }
  return true;
}

/** The body as indented JSON when it parses, else as received. */
export function pretty(raw: string): { text: string; json: boolean } {
  try {
    return { text: JSON.stringify(JSON.parse(raw), null, 2), json: true };
  } catch {
    return { text: raw, json: false };
  }
}
