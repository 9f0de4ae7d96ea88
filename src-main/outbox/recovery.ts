import type { Journal } from './journal';
import type { Note } from './notes';
import type { JournalEntry, OutboxProblem } from './types';

/** What a start finds in the journal: the notes to settle, and the entries set aside. */
export interface Recovered {
  notes: Note[];
  problems: OutboxProblem[];
}

/** Reads the journal back after a start (or a crash); unreadable entries become problems. */
export async function recoverJournal(journal: Journal, now: number): Promise<Recovered> {
  const { entries, quarantined } = await journal.load(now);
  return {
    notes: entries.map(fromEntry),
    problems: quarantined.map((q) => ({
      kind: 'quarantined',
      file: q.file,
      movedTo: q.movedTo,
      message: `A saved note could not be read (${q.reason}) and was not sent. It was set aside in ${q.movedTo}.`,
      at: now,
    })),
  };
}

function fromEntry(e: JournalEntry): Note {
  return {
    id: e.id,
    ref: e.ref,
    sessionId: e.sessionId,
    text: e.text,
    seq: e.seq,
    // A note found "sending" may have reached the service: read back before resending.
    state: e.state === 'sending' ? 'outcome-unknown' : e.state,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
    attempts: e.attempts,
    ...(e.lastAttemptAt !== undefined ? { lastAttemptAt: e.lastAttemptAt } : {}),
    ...(e.error ? { error: e.error } : {}),
  };
}
