import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../../src-shared/errors';
import { ConnectivityMonitor } from '../cache/connectivity';
import { Delivery } from './delivery';
import { OutboxEvents } from './events';
import { Journal } from './journal';
import { NoteBook, toEntry, toRecord, type Note } from './notes';
import { recoverJournal } from './recovery';
import { newRef } from './ref';
import type { Backoff } from './rules';
import { Scheduler } from './scheduler';
import { systemClock, type Clock } from '../clock';
import { type CommentTransport, type NoteRecord, type OutboxEvent, type OutboxProblem, type OutboxStatus } from './types';

export type { Backoff } from './rules';

export interface OutboxOptions {
  /** Directory of the journal (created if missing). One outbox per directory. */
  dir: string;
  transport: CommentTransport;
  clock?: Clock;
  /** In [0, 1); jitter only (client references always use crypto randomness). */
  random?: () => number;
  /** How many sessions sync in parallel; inside a session notes go strictly one by one. */
  concurrency?: number;
  /** A save or read with no answer after this long is abandoned (outcome unknown for a save). */
  requestTimeoutMs?: number;
  /**
   * After a save whose answer never came, wait this long (from when it was sent) before reading
   * the session back, so a request still travelling to the service cannot land after the check.
   */
  settleMs?: number;
  /** Retry delays per session after a failure (exponential, jittered). */
  retry?: Backoff;
  /**
   * The console's connectivity monitor: notes wait while it says offline, and the outbox's network
   * errors feed it. Without one the outbox runs its own over `transport.probe`.
   */
  connectivity?: ConnectivityMonitor;
  /** Probe delays while offline, for the outbox's own monitor (exponential, jittered). */
  probe?: Backoff;
  /** How many confirmed notes `list()` keeps showing. */
  keepConfirmed?: number;
  log?: (message: string, detail?: unknown) => void;
}

const AddInputSchema = z.object({
  sessionId: z.number().int().positive(),
  text: z.string().refine((t) => t.trim().length > 0, 'A note cannot be empty.'),
});

/**
 * The durable outbox for session notes. Exactly-once over a service without idempotency keys:
 * - a note is journaled (fsync) before `add` resolves;
 * - before each send its entry says "sending", durably; a crash or a lost answer after that
 *   leaves it outcome-unknown, and the session's comments are read back (matching the note's
 *   client reference) before any resend;
 * - the entry is deleted only after the service confirmed it.
 * Notes of one session go in order, one at a time; a failed note holds its session back until
 * it is edited and retried or discarded, so a later note never lands before an earlier one.
 *
 * This class is the public face; the work is done by its parts: `recovery.ts` (the journal
 * read back at start), `scheduler.ts` (when notes go), `delivery.ts` (one note's send and
 * read-back), `rules.ts` (what an error means, how long to wait), `notes.ts` and `events.ts`
 * (the notes in memory, what listeners hear).
 */
export class Outbox {
  readonly #journal: Journal;
  readonly #clock: Clock;
  readonly #monitor: ConnectivityMonitor;
  /** The monitor was built here, so it starts and stops with the outbox. */
  readonly #ownMonitor: boolean;
  readonly #log: (message: string, detail?: unknown) => void;
  readonly #book: NoteBook;
  readonly #events: OutboxEvents;
  readonly #scheduler: Scheduler;
  readonly #delivery: Delivery;
  readonly #problems: OutboxProblem[] = [];
  #loading: Promise<void> | null = null;
  #offMonitor: (() => void) | null = null;

  constructor(opts: OutboxOptions) {
    const clock = opts.clock ?? systemClock;
    const random = opts.random ?? Math.random;
    const requestTimeoutMs = opts.requestTimeoutMs ?? 15_000;
    const log = opts.log ?? (() => undefined);
    this.#journal = new Journal(opts.dir);
    this.#clock = clock;
    this.#log = log;
    this.#book = new NoteBook(opts.keepConfirmed ?? 200);
    this.#events = new OutboxEvents(() => this.status(), log);
    this.#ownMonitor = opts.connectivity === undefined;
    this.#monitor =
      opts.connectivity ??
      new ConnectivityMonitor({
        probe: (signal) => opts.transport.probe(signal),
        canProbe: () => this.#scheduler.running,
        backoff: opts.probe ?? { baseMs: 1_000, maxMs: 30_000 },
        // Nothing to send, nothing to find out: only an offline outbox probes.
        idleProbeMs: null,
        timeoutMs: requestTimeoutMs,
        now: () => clock.now(),
        random,
        log,
      });
    this.#scheduler = new Scheduler({
      clock,
      random,
      concurrency: opts.concurrency ?? 4,
      settleMs: opts.settleMs ?? 5_000,
      retry: opts.retry ?? { baseMs: 1_000, maxMs: 60_000 },
      monitor: this.#monitor,
      heads: () => this.#book.heads(),
      deliver: (note) => this.#delivery.deliver(note),
      changed: () => this.#events.status(),
      log,
    });
    this.#delivery = new Delivery({
      journal: this.#journal,
      transport: opts.transport,
      clock,
      requestTimeoutMs,
      monitor: this.#monitor,
      book: this.#book,
      scheduler: this.#scheduler,
      events: this.#events,
      log,
    });
  }

  /** Journals a note durably and queues it. Resolves only once it would survive a crash. */
  async add(sessionId: number, text: string): Promise<NoteRecord> {
    checkNote(sessionId, text);
    await this.#load();
    const now = this.#clock.now();
    const note: Note = {
      id: randomUUID(),
      ref: newRef(),
      sessionId,
      text,
      seq: this.#book.newSeq(),
      state: 'pending',
      createdAt: now,
      updatedAt: now,
      attempts: 0,
      writing: true,
    };
    // Queued before the write finishes so a note added later in the same session cannot overtake it.
    this.#book.insert(note);
    try {
      await this.#journal.write(toEntry(note));
    } catch (e) {
      this.#book.unlink(note);
      this.#log('outbox: journal write failed', e);
      throw new AppError({ kind: 'Internal', message: 'The note could not be saved on this computer. It was not sent.' }, { cause: e });
    }
    note.writing = false;
    this.#events.note(note);
    this.#events.status();
    this.#scheduler.pump();
    return toRecord(note);
  }

  /** Outstanding notes (in order) and recently confirmed ones, optionally of one session. */
  list(sessionId?: number): NoteRecord[] {
    return this.#book.list(sessionId);
  }

  /** Sends a failed note again, optionally with new text. */
  async retry(id: string, newText?: string): Promise<NoteRecord> {
    const note = this.#book.find(id);
    if (note.state !== 'failed') {
      throw new AppError({ kind: 'Invalid', message: 'Only a note the service refused can be edited and sent again.' });
    }
    const text = newText ?? note.text;
    checkNote(note.sessionId, text);
    const next: Note = { ...note, text, state: 'pending', error: undefined, updatedAt: this.#clock.now() };
    await this.#journal.write(toEntry(next));
    Object.assign(note, { text, state: 'pending', error: undefined, updatedAt: next.updatedAt });
    this.#scheduler.forgetFailures(note.sessionId);
    this.#events.changed(note);
    this.#scheduler.pump();
    return toRecord(note);
  }

  /** Throws a note away, at the attendant's explicit request. Never while it is being sent. */
  async discard(id: string): Promise<void> {
    const note = this.#book.find(id);
    if (note.state === 'confirmed') throw new AppError({ kind: 'Invalid', message: 'This note is already on the service.' });
    if (note.writing || (this.#scheduler.isBusy(note.sessionId) && this.#book.head(note.sessionId) === note)) {
      throw new AppError({ kind: 'Invalid', message: 'This note is being sent right now; try again in a moment.' });
    }
    await this.#journal.remove(note.id, true);
    this.#book.unlink(note);
    this.#events.emit({ type: 'removed', id: note.id, sessionId: note.sessionId });
    this.#events.status();
    this.#scheduler.pump();
  }

  /** Loads the journal (if not yet) and starts syncing. */
  async start(): Promise<void> {
    await this.#load();
    if (this.#scheduler.running) return;
    this.#scheduler.start();
    let was = this.#monitor.offline;
    this.#offMonitor = this.#monitor.subscribe((c) => {
      const back = was && c.state === 'online';
      was = c.state === 'offline';
      this.#events.status();
      // Back online: pending notes go now, in order per session.
      if (back) this.#scheduler.pump();
    });
    if (this.#ownMonitor) this.#monitor.start();
    this.#events.status();
    this.#scheduler.pump();
  }

  /** Stops syncing: in-flight requests are abandoned (their notes are reconciled next time). */
  async stop(): Promise<void> {
    const working = this.#scheduler.stop();
    this.#offMonitor?.();
    this.#offMonitor = null;
    if (this.#ownMonitor) this.#monitor.stop();
    this.#delivery.abortAll();
    await Promise.allSettled([...working, this.#ownMonitor ? this.#monitor.idle() : Promise.resolve()]);
    await this.#journal.idle();
    this.#events.status();
  }

  /** Called after the attendant signed in again: lifts the pause an Unauthorized answer set. */
  resume(): void {
    if (this.#scheduler.resume()) this.#scheduler.pump();
    else this.nudge();
  }

  /**
   * A hint that the network may be back (OS online event, wake from sleep): probe now if
   * offline, retry now if waiting on a backoff. Rate limits are still honoured.
   */
  nudge(): void {
    if (!this.#scheduler.running) return;
    const connectivity = this.#scheduler.connectivity;
    if (connectivity === 'offline') {
      void this.#monitor.probeNow();
    } else if (connectivity === 'online') {
      this.#scheduler.forgetAllFailures();
      this.#scheduler.pump();
    }
  }

  status(): OutboxStatus {
    const connectivity = this.#scheduler.connectivity;
    const probeAt = connectivity === 'offline' ? (this.#monitor.status().nextProbeAt ?? Infinity) : Infinity;
    const waits = [this.#scheduler.wakeAt, probeAt].filter((t) => Number.isFinite(t));
    const reason =
      connectivity === 'paused'
        ? this.#scheduler.pausedReason
        : connectivity === 'offline'
          ? (this.#monitor.reason ?? undefined)
          : undefined;
    return {
      connectivity,
      ...(reason ? { reason } : {}),
      ...(waits.length ? { nextAttemptAt: Math.min(...waits) } : {}),
      counts: this.#book.counts(),
      problems: [...this.#problems],
    };
  }

  /** Listens to changes (the bridge pushes them to the renderer). Returns the unsubscribe. */
  subscribe(listener: (e: OutboxEvent) => void): () => void {
    return this.#events.subscribe(listener);
  }

  /** Counters for the bench and the log. */
  stats(): { dirFsyncs: number } {
    return { dirFsyncs: this.#journal.dirFsyncs };
  }

  /** Notes still to be settled with the service (failed ones wait for the attendant). */
  get outstanding(): number {
    return this.#book.outstanding;
  }

  #load(): Promise<void> {
    this.#loading ??= this.#recover();
    return this.#loading;
  }

  async #recover(): Promise<void> {
    const { notes, problems } = await recoverJournal(this.#journal, this.#clock.now());
    for (const note of notes) this.#book.insert(note);
    for (const problem of problems) {
      this.#problems.push(problem);
      this.#log('outbox: entry quarantined', problem);
      this.#events.emit({ type: 'problem', problem });
    }
    this.#events.status();
  }
}

function checkNote(sessionId: number, text: string): void {
  const input = AddInputSchema.safeParse({ sessionId, text });
  if (!input.success) {
    throw new AppError({ kind: 'Invalid', message: input.error.issues[0]?.message ?? 'Invalid note.' });
  }
}
