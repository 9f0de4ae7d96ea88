import type { NoteView } from '../notes';
import type { ThreadRow } from './thread.svelte';

/** One row of the conversation as the attendant reads it: a message, or an internal note. */
export type TimelineRow = { kind: 'message'; key: string; row: ThreadRow } | { kind: 'note'; key: string; note: NoteView };

/** When a note was written (ms), from the service's date or the outbox's clock; NaN when unknown. */
export function noteTime(v: NoteView): number {
  return v.kind === 'local' ? v.note.createdAt : v.note.createdAt ? Date.parse(v.note.createdAt) : NaN;
}

/**
 * Messages and notes interleaved by time. Notes never change the messages' order; a note goes
 * before the first message written after it. While older messages are still to be read
 * (`complete` false), notes older than the oldest message shown wait for them, so the rows above
 * the reader do not move when an older page comes in; a note without a time goes last.
 */
export function timeline(rows: readonly ThreadRow[], notes: readonly NoteView[], complete: boolean): TimelineRow[] {
  const timed = notes
    .map((note) => ({ note, at: noteTime(note) }))
    .map(({ note, at }) => ({ note, at: Number.isNaN(at) ? Infinity : at }))
    .sort((a, b) => a.at - b.at);
  const out: TimelineRow[] = [];
  let i = 0;
  if (!complete && rows.length) {
    const first = Date.parse(rows[0]!.message.createdAt ?? '');
    while (i < timed.length && !Number.isNaN(first) && timed[i]!.at < first) i++;
  }
  for (const row of rows) {
    const at = Date.parse(row.message.createdAt ?? '');
    while (!Number.isNaN(at) && i < timed.length && timed[i]!.at < at) out.push(noteRow(timed[i++]!.note));
    out.push({ kind: 'message', key: row.key, row });
  }
  while (i < timed.length) out.push(noteRow(timed[i++]!.note));
  return out;
}

const noteRow = (note: NoteView): TimelineRow => ({ kind: 'note', key: `note-${note.key}`, note });

/**
 * The note that whoever holds the session now should read first: the session's newest note, when
 * someone other than the attendant signed in wrote it (a transfer's note, a colleague's word).
 */
export function handoverNote(notes: readonly NoteView[], me: string | null): (NoteView & { kind: 'service' }) | null {
  let newest: NoteView | null = null;
  let newestAt = -Infinity;
  for (const v of notes) {
    const at = noteTime(v);
    if (!Number.isNaN(at) && at >= newestAt) {
      newest = v;
      newestAt = at;
    }
  }
  if (newest?.kind !== 'service' || !newest.note.createdBy) return null;
  return me !== null && newest.note.createdBy.toLowerCase() === me.toLowerCase() ? null : newest;
}
