import { z } from 'zod';
import { AppError, type ErrorInfo } from '../../src-shared/errors';
import { NOTE_STATES, type JournalEntry, type NoteRecord, type NoteState } from './types';

/** A note as the outbox holds it in memory. */
export interface Note {
  id: string;
  ref: string;
  sessionId: number;
  text: string;
  seq: number;
  state: NoteState;
  createdAt: number;
  updatedAt: number;
  attempts: number;
  lastAttemptAt?: number;
  serviceId?: number;
  error?: ErrorInfo;
  /** The first durable write has not finished: not yet "saved", and it holds its session back. */
  writing?: boolean;
}

const NoteIdSchema = z.string().uuid();

/**
 * The outbox's notes in memory: outstanding ones queued per session in seq order, and the
 * recently confirmed ones `list()` keeps showing.
 */
export class NoteBook {
  readonly #queues = new Map<number, Note[]>();
  readonly #byId = new Map<string, Note>();
  #confirmed: Note[] = [];
  #nextSeq = 1;
  readonly #keepConfirmed: number;

  /** `keepConfirmed`: how many confirmed notes `list()` keeps showing. */
  constructor(keepConfirmed: number) {
    this.#keepConfirmed = keepConfirmed;
  }

  /** The order of a new note, after every note known. */
  newSeq(): number {
    return this.#nextSeq++;
  }

  insert(note: Note): void {
    let q = this.#queues.get(note.sessionId);
    if (!q) {
      q = [];
      this.#queues.set(note.sessionId, q);
    }
    let i = q.length;
    while (i > 0 && (q[i - 1]?.seq ?? 0) > note.seq) i--;
    q.splice(i, 0, note);
    this.#byId.set(note.id, note);
    this.#nextSeq = Math.max(this.#nextSeq, note.seq + 1);
  }

  unlink(note: Note): void {
    const q = this.#queues.get(note.sessionId);
    if (q) {
      const i = q.indexOf(note);
      if (i >= 0) q.splice(i, 1);
      if (q.length === 0) this.#queues.delete(note.sessionId);
    }
    this.#byId.delete(note.id);
  }

  /** Moves a note the service stored from its queue to the confirmed ones. */
  confirm(note: Note): void {
    this.unlink(note);
    this.#byId.set(note.id, note);
    this.#confirmed.push(note);
    if (this.#confirmed.length > this.#keepConfirmed) {
      for (const old of this.#confirmed.splice(0, this.#confirmed.length - this.#keepConfirmed)) this.#byId.delete(old.id);
    }
  }

  find(id: string): Note {
    const note = NoteIdSchema.safeParse(id).success ? this.#byId.get(id) : undefined;
    if (!note || note.writing) throw new AppError({ kind: 'NotFound', message: 'There is no such note in the outbox.' });
    return note;
  }

  /** The first outstanding note of a session. */
  head(sessionId: number): Note | undefined {
    return this.#queues.get(sessionId)?.[0];
  }

  /** The first outstanding note of every session, oldest first. */
  heads(): Note[] {
    return [...this.#queues.values()]
      .map((q) => q[0])
      .filter((n): n is Note => !!n)
      .sort((a, b) => a.seq - b.seq);
  }

  /** Outstanding notes (in order) and recently confirmed ones, optionally of one session. */
  list(sessionId?: number): NoteRecord[] {
    const out: Note[] = [];
    for (const q of this.#queues.values()) for (const n of q) if (!n.writing) out.push(n);
    out.push(...this.#confirmed);
    return out
      .filter((n) => sessionId === undefined || n.sessionId === sessionId)
      .sort((a, b) => a.seq - b.seq)
      .map(toRecord);
  }

  counts(): Record<NoteState, number> {
    const counts = Object.fromEntries(NOTE_STATES.map((s) => [s, 0])) as Record<NoteState, number>;
    for (const q of this.#queues.values()) for (const n of q) if (!n.writing) counts[n.state]++;
    counts.confirmed = this.#confirmed.length;
    return counts;
  }

  /** Notes still to be settled with the service (failed ones wait for the attendant). */
  get outstanding(): number {
    let n = 0;
    for (const q of this.#queues.values()) for (const note of q) if (note.state !== 'failed') n++;
    return n;
  }
}

/** What the journal keeps of a note: only states worth surviving a restart. */
export function toEntry(n: Note): JournalEntry {
  const state = n.state === 'failed' ? 'failed' : n.state === 'pending' ? 'pending' : 'sending';
  return {
    v: 1,
    id: n.id,
    ref: n.ref,
    sessionId: n.sessionId,
    text: n.text,
    seq: n.seq,
    state,
    createdAt: n.createdAt,
    updatedAt: n.updatedAt,
    attempts: n.attempts,
    ...(n.lastAttemptAt !== undefined ? { lastAttemptAt: n.lastAttemptAt } : {}),
    ...(n.error ? { error: n.error } : {}),
  };
}

/** What the outbox shows of a note (bridge -> renderer). */
export function toRecord(n: Note): NoteRecord {
  return {
    id: n.id,
    ref: n.ref,
    sessionId: n.sessionId,
    text: n.text,
    state: n.state,
    createdAt: n.createdAt,
    updatedAt: n.updatedAt,
    attempts: n.attempts,
    ...(n.serviceId !== undefined ? { serviceId: n.serviceId } : {}),
    ...(n.error ? { error: n.error } : {}),
  };
}
