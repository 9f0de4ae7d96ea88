import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { backoffDelay, isRefused, isUnreachable, retryAfterDelay, type Backoff } from '../../src-shared/error-kinds';
import { AppError, type ErrorInfo } from '../../src-shared/errors';
import { ConnectivityMonitor } from '../cache/connectivity';
import { shownError } from '../log';
import { Journal } from './journal';
import { newRef, refOf, withRef } from './ref';
import {
  NOTE_STATES,
  systemClock,
  type Clock,
  type CommentTransport,
  type JournalEntry,
  type NoteRecord,
  type NoteState,
  type OutboxEvent,
  type OutboxProblem,
  type OutboxStatus,
  type SendingState,
} from './types';

export type { Backoff };

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

interface Note {
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

const AddInputSchema = z.object({
  sessionId: z.number().int().positive(),
  text: z.string().refine((t) => t.trim().length > 0, 'A note cannot be empty.'),
});

const NoteIdSchema = z.string().uuid();

/**
 * The durable outbox for session notes. Exactly-once over a service without idempotency keys:
 * - a note is journaled (fsync) before `add` resolves;
 * - before each send its entry says "sending", durably; a crash or a lost answer after that
 *   leaves it outcome-unknown, and the session's comments are read back (matching the note's
 *   client reference) before any resend;
 * - the entry is deleted only after the service confirmed it.
 * Notes of one session go in order, one at a time; a failed note holds its session back until
 * it is edited and retried or discarded, so a later note never lands before an earlier one.
 */
export class Outbox {
  private readonly journal: Journal;
  private readonly transport: CommentTransport;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly concurrency: number;
  private readonly requestTimeoutMs: number;
  private readonly settleMs: number;
  private readonly retryBackoff: Backoff;
  private readonly monitor: ConnectivityMonitor;
  /** The monitor was built here, so it starts and stops with the outbox. */
  private readonly ownMonitor: boolean;
  private readonly keepConfirmed: number;
  private readonly log: (message: string, detail?: unknown) => void;

  /** Outstanding notes per session, in seq order. */
  private readonly queues = new Map<number, Note[]>();
  private readonly byId = new Map<string, Note>();
  private confirmed: Note[] = [];
  private problems: OutboxProblem[] = [];
  private readonly listeners = new Set<(e: OutboxEvent) => void>();

  private loading: Promise<void> | null = null;
  private nextSeq = 1;
  private running = false;
  /** Set while the service refuses the token: nothing is sent until `resume()`. */
  private paused: ErrorInfo | undefined;
  private offMonitor: (() => void) | null = null;
  /** Rate limit: nothing is sent before this time. */
  private globalNotBefore = 0;
  private readonly sessionRetry = new Map<number, { failures: number; notBefore: number }>();
  private readonly busy = new Map<number, Promise<void>>();
  private readonly inflight = new Set<AbortController>();
  private wakeTimer: unknown;
  private wakeAt = Infinity;
  private lastStatusKey = '';

  constructor(opts: OutboxOptions) {
    this.journal = new Journal(opts.dir);
    this.transport = opts.transport;
    this.clock = opts.clock ?? systemClock;
    this.random = opts.random ?? Math.random;
    this.concurrency = opts.concurrency ?? 4;
    this.requestTimeoutMs = opts.requestTimeoutMs ?? 15_000;
    this.settleMs = opts.settleMs ?? 5_000;
    this.retryBackoff = opts.retry ?? { baseMs: 1_000, maxMs: 60_000 };
    this.keepConfirmed = opts.keepConfirmed ?? 200;
    this.log = opts.log ?? (() => undefined);
    this.ownMonitor = opts.connectivity === undefined;
    this.monitor =
      opts.connectivity ??
      new ConnectivityMonitor({
        probe: (signal) => this.transport.probe(signal),
        canProbe: () => this.running,
        backoff: opts.probe ?? { baseMs: 1_000, maxMs: 30_000 },
        // Nothing to send, nothing to find out: only an offline outbox probes.
        idleProbeMs: null,
        timeoutMs: this.requestTimeoutMs,
        now: () => this.clock.now(),
        random: this.random,
        log: this.log,
      });
  }

  // ---- public API ---------------------------------------------------------------------------

  /** Journals a note durably and queues it. Resolves only once it would survive a crash. */
  async add(sessionId: number, text: string): Promise<NoteRecord> {
    const input = AddInputSchema.safeParse({ sessionId, text });
    if (!input.success) {
      throw new AppError({ kind: 'Invalid', message: input.error.issues[0]?.message ?? 'Invalid note.' });
    }
    await this.load();
    const now = this.clock.now();
    const note: Note = {
      id: randomUUID(),
      ref: newRef(),
      sessionId,
      text,
      seq: this.nextSeq++,
      state: 'pending',
      createdAt: now,
      updatedAt: now,
      attempts: 0,
      writing: true,
    };
    // Queued before the write finishes so a note added later in the same session cannot overtake it.
    this.insert(note);
    try {
      await this.journal.write(toEntry(note));
    } catch (e) {
      this.unlink(note);
      this.log('outbox: journal write failed', e);
      throw new AppError({ kind: 'Internal', message: 'The note could not be saved on this computer. It was not sent.' }, { cause: e });
    }
    note.writing = false;
    this.emit({ type: 'note', note: toRecord(note) });
    this.emitStatus();
    this.pump();
    return toRecord(note);
  }

  /** Outstanding notes (in order) and recently confirmed ones, optionally of one session. */
  list(sessionId?: number): NoteRecord[] {
    const out: Note[] = [];
    for (const q of this.queues.values()) for (const n of q) if (!n.writing) out.push(n);
    out.push(...this.confirmed);
    return out
      .filter((n) => sessionId === undefined || n.sessionId === sessionId)
      .sort((a, b) => a.seq - b.seq)
      .map(toRecord);
  }

  /** Sends a failed note again, optionally with new text. */
  async retry(id: string, newText?: string): Promise<NoteRecord> {
    const note = this.find(id);
    if (note.state !== 'failed') {
      throw new AppError({ kind: 'Invalid', message: 'Only a note the service refused can be edited and sent again.' });
    }
    const text = newText ?? note.text;
    const input = AddInputSchema.safeParse({ sessionId: note.sessionId, text });
    if (!input.success) {
      throw new AppError({ kind: 'Invalid', message: input.error.issues[0]?.message ?? 'Invalid note.' });
    }
    const next: Note = { ...note, text, state: 'pending', error: undefined, updatedAt: this.clock.now() };
    await this.journal.write(toEntry(next));
    Object.assign(note, { text, state: 'pending', error: undefined, updatedAt: next.updatedAt });
    this.sessionRetry.delete(note.sessionId);
    this.changed(note);
    this.pump();
    return toRecord(note);
  }

  /** Throws a note away, at the attendant's explicit request. Never while it is being sent. */
  async discard(id: string): Promise<void> {
    const note = this.find(id);
    if (note.state === 'confirmed') throw new AppError({ kind: 'Invalid', message: 'This note is already on the service.' });
    if (note.writing || this.isWorkingOn(note)) {
      throw new AppError({ kind: 'Invalid', message: 'This note is being sent right now; try again in a moment.' });
    }
    await this.journal.remove(note.id, true);
    this.unlink(note);
    this.emit({ type: 'removed', id: note.id, sessionId: note.sessionId });
    this.emitStatus();
    this.pump();
  }

  /** Loads the journal (if not yet) and starts syncing. */
  async start(): Promise<void> {
    await this.load();
    if (this.running) return;
    this.running = true;
    let was = this.monitor.offline;
    this.offMonitor = this.monitor.subscribe((c) => {
      const back = was && c.state === 'online';
      was = c.state === 'offline';
      this.emitStatus();
      // Back online: pending notes go now, in order per session.
      if (back) this.pump();
    });
    if (this.ownMonitor) this.monitor.start();
    this.emitStatus();
    this.pump();
  }

  /** Stops syncing: in-flight requests are abandoned (their notes are reconciled next time). */
  async stop(): Promise<void> {
    this.running = false;
    this.clearWake();
    this.offMonitor?.();
    this.offMonitor = null;
    if (this.ownMonitor) this.monitor.stop();
    for (const c of this.inflight) c.abort();
    await Promise.allSettled([...this.busy.values(), this.ownMonitor ? this.monitor.idle() : Promise.resolve()]);
    await this.journal.idle();
    this.emitStatus();
  }

  /** Called after the attendant signed in again: lifts the pause an Unauthorized answer set. */
  resume(): void {
    if (this.paused) {
      this.paused = undefined;
      this.emitStatus();
      this.pump();
    } else {
      this.nudge();
    }
  }

  /**
   * A hint that the network may be back (OS online event, wake from sleep): probe now if
   * offline, retry now if waiting on a backoff. Rate limits are still honoured.
   */
  nudge(): void {
    if (!this.running) return;
    if (this.connectivity === 'offline') {
      void this.monitor.probeNow();
    } else if (this.connectivity === 'online') {
      this.sessionRetry.clear();
      this.pump();
    }
  }

  status(): OutboxStatus {
    const counts = Object.fromEntries(NOTE_STATES.map((s) => [s, 0])) as Record<NoteState, number>;
    for (const q of this.queues.values()) for (const n of q) if (!n.writing) counts[n.state]++;
    counts.confirmed = this.confirmed.length;
    const connectivity = this.connectivity;
    const probeAt = connectivity === 'offline' ? (this.monitor.status().nextProbeAt ?? Infinity) : Infinity;
    const waits = [this.wakeAt, probeAt].filter((t) => Number.isFinite(t));
    const reason = connectivity === 'paused' ? this.paused : connectivity === 'offline' ? (this.monitor.reason ?? undefined) : undefined;
    return {
      connectivity,
      ...(reason ? { reason } : {}),
      ...(waits.length ? { nextAttemptAt: Math.min(...waits) } : {}),
      counts,
      problems: [...this.problems],
    };
  }

  /** Listens to changes (the bridge pushes them to the renderer). Returns the unsubscribe. */
  subscribe(listener: (e: OutboxEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Counters for the bench and the log. */
  stats(): { dirFsyncs: number } {
    return { dirFsyncs: this.journal.dirFsyncs };
  }

  /** Notes still to be settled with the service (failed ones wait for the attendant). */
  get outstanding(): number {
    let n = 0;
    for (const q of this.queues.values()) for (const note of q) if (note.state !== 'failed') n++;
    return n;
  }

  // ---- loading ------------------------------------------------------------------------------

  private load(): Promise<void> {
    this.loading ??= this.doLoad();
    return this.loading;
  }

  private async doLoad(): Promise<void> {
    const now = this.clock.now();
    const { entries, quarantined } = await this.journal.load(now);
    for (const e of entries) {
      const note: Note = {
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
      this.insert(note);
      this.nextSeq = Math.max(this.nextSeq, e.seq + 1);
    }
    for (const q of quarantined) {
      const problem: OutboxProblem = {
        kind: 'quarantined',
        file: q.file,
        movedTo: q.movedTo,
        message: `A saved note could not be read (${q.reason}) and was not sent. It was set aside in ${q.movedTo}.`,
        at: now,
      };
      this.problems.push(problem);
      this.log('outbox: entry quarantined', problem);
      this.emit({ type: 'problem', problem });
    }
    this.emitStatus();
  }

  // ---- scheduling ---------------------------------------------------------------------------

  private pump(): void {
    if (!this.running || this.connectivity !== 'online') return;
    const now = this.clock.now();
    if (this.globalNotBefore > now) {
      this.scheduleWake(this.globalNotBefore);
      return;
    }
    let wake = Infinity;
    // Oldest waiting note first, so a busy session cannot starve the others.
    const heads = [...this.queues.values()]
      .map((q) => q[0])
      .filter((n): n is Note => !!n)
      .sort((a, b) => a.seq - b.seq);
    for (const head of heads) {
      if (this.busy.size >= this.concurrency) break;
      const sid = head.sessionId;
      if (this.busy.has(sid) || head.writing || head.state === 'failed') continue;
      let ready = this.sessionRetry.get(sid)?.notBefore ?? 0;
      if (head.state === 'outcome-unknown' || head.state === 'sending') {
        ready = Math.max(ready, (head.lastAttemptAt ?? 0) + this.settleMs);
      }
      if (ready > now) {
        wake = Math.min(wake, ready);
        continue;
      }
      const work = this.work(head)
        .catch((e: unknown) => {
          // A bug, not a service answer: keep the note and try again later rather than crash.
          this.log('outbox: unexpected failure while syncing a note', e);
          this.backoffSession(sid);
        })
        .finally(() => {
          this.busy.delete(sid);
          this.pump();
        });
      this.busy.set(sid, work);
    }
    if (Number.isFinite(wake)) this.scheduleWake(wake);
  }

  private scheduleWake(at: number): void {
    if (at >= this.wakeAt && this.wakeTimer !== undefined) return;
    this.clearWake();
    this.wakeAt = at;
    this.wakeTimer = this.clock.setTimeout(
      () => {
        this.wakeTimer = undefined;
        this.wakeAt = Infinity;
        this.pump();
      },
      Math.max(0, at - this.clock.now()),
    );
  }

  private clearWake(): void {
    if (this.wakeTimer !== undefined) this.clock.clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
    this.wakeAt = Infinity;
  }

  // ---- one note -----------------------------------------------------------------------------

  private async work(note: Note): Promise<void> {
    if (note.state === 'outcome-unknown' || note.state === 'sending') {
      let found: number | undefined;
      try {
        found = await this.reconcile(note);
      } catch (e) {
        this.onReadError(note, e);
        return;
      }
      if (found !== undefined) {
        await this.confirm(note, found);
        return;
      }
      this.log(`outbox: note ${note.ref} not found on the service; sending it again`);
    }
    if (!this.running || this.connectivity !== 'online') return;
    await this.send(note);
  }

  /** Reads the session's comments back; the service id of the note if it is there. */
  private async reconcile(note: Note): Promise<number | undefined> {
    const comments = await this.request('Timeout', (signal) => this.transport.listForSession(note.sessionId, signal));
    for (const c of comments) if (refOf(c.comment) === note.ref) return c.id;
    return undefined;
  }

  private async send(note: Note): Promise<void> {
    const now = this.clock.now();
    const attempt: Note = { ...note, state: 'sending', attempts: note.attempts + 1, lastAttemptAt: now, updatedAt: now };
    try {
      // The one write that makes a crash during the request safe: it forces a read-back later.
      await this.journal.write(toEntry(attempt));
    } catch (e) {
      this.log('outbox: journal write failed before sending', e);
      note.error = { kind: 'Internal', message: 'The note could not be updated on this computer; it will be tried again.' };
      this.backoffSession(note.sessionId);
      this.changed(note);
      return;
    }
    Object.assign(note, { state: 'sending', attempts: attempt.attempts, lastAttemptAt: now, updatedAt: now });
    this.changed(note);
    if (!this.running || this.connectivity !== 'online' || this.globalNotBefore > this.clock.now()) {
      // Stopped, paused, offline or rate-limited while journaling: nothing went out. The entry
      // says sending, which costs at most one read-back after a crash.
      note.state = 'pending';
      this.changed(note);
      return;
    }
    // The settle delay counts from the moment the request really leaves, not from the journaling.
    note.lastAttemptAt = this.clock.now();
    let saved: { id: number };
    try {
      saved = await this.request('OutcomeUnknown', (signal) =>
        this.transport.save({ sessionId: note.sessionId, comment: withRef(note.text, note.ref) }, signal),
      );
    } catch (e) {
      await this.onSendError(note, e);
      return;
    }
    await this.confirm(note, saved.id);
  }

  private async confirm(note: Note, serviceId: number): Promise<void> {
    note.state = 'confirmed';
    note.serviceId = serviceId;
    note.error = undefined;
    note.updatedAt = this.clock.now();
    this.unlink(note);
    this.byId.set(note.id, note);
    this.confirmed.push(note);
    if (this.confirmed.length > this.keepConfirmed) {
      for (const old of this.confirmed.splice(0, this.confirmed.length - this.keepConfirmed)) this.byId.delete(old.id);
    }
    this.sessionRetry.delete(note.sessionId);
    this.changed(note);
    try {
      await this.journal.remove(note.id);
    } catch (e) {
      // Harmless: next start finds it "sending", reads back, and confirms it again.
      this.log('outbox: could not delete a confirmed entry', e);
    }
  }

  private async onSendError(note: Note, e: unknown): Promise<void> {
    const info = this.errorInfo(e);
    note.error = info;
    note.updatedAt = this.clock.now();
    if (info.kind === 'Unauthorized') {
      note.state = 'pending';
      this.changed(note);
      this.pause(info);
    } else if (info.kind === 'RateLimited') {
      note.state = 'pending';
      this.changed(note);
      this.rateLimit(info);
    } else if (isUnreachable(info)) {
      // The client's word that the request never left this machine (a write that left comes back
      // OutcomeUnknown): nothing can have been stored, so no read-back is owed.
      note.state = 'pending';
      this.changed(note);
      if (this.running) this.goOffline(info);
    } else if (isRefused(info)) {
      // The service answered no: it did not store the note.
      const failed: Note = { ...note, state: 'failed' };
      try {
        await this.journal.write(toEntry(failed));
      } catch (err) {
        this.log('outbox: could not record a refused note', err);
      }
      note.state = 'failed';
      this.changed(note);
    } else {
      // No definitive answer: it may be stored. Read back (after settleMs) before any resend.
      note.state = 'outcome-unknown';
      this.changed(note);
      if (!this.running) return;
      if (isUnreachable(info)) this.goOffline(info);
      else this.backoffSession(note.sessionId);
    }
  }

  private onReadError(note: Note, e: unknown): void {
    const info = this.errorInfo(e);
    note.error = info;
    this.changed(note);
    if (!this.running) return;
    if (info.kind === 'Unauthorized') this.pause(info);
    else if (info.kind === 'RateLimited') this.rateLimit(info);
    else if (isUnreachable(info)) this.goOffline(info);
    else this.backoffSession(note.sessionId);
  }

  /**
   * Runs one request with the timeout and registers it so `stop()` can abandon it. A save that
   * times out is OutcomeUnknown (it may have arrived); a read that times out is a Timeout.
   */
  private async request<T>(onTimeout: 'Timeout' | 'OutcomeUnknown', op: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const ctl = new AbortController();
    this.inflight.add(ctl);
    const timer = this.clock.setTimeout(() => ctl.abort(new TimeoutSignal()), this.requestTimeoutMs);
    try {
      const answer = await op(ctl.signal);
      this.monitor.ok();
      return answer;
    } catch (e) {
      if (ctl.signal.aborted && ctl.signal.reason instanceof TimeoutSignal) {
        throw new AppError({ kind: onTimeout, message: 'The service did not answer in time.' }, { cause: e });
      }
      throw e;
    } finally {
      this.clock.clearTimeout(timer);
      this.inflight.delete(ctl);
    }
  }

  private errorInfo(e: unknown): ErrorInfo {
    return shownError({ error: (message, fields) => this.log(message, fields) }, e, { op: 'outbox' });
  }

  // ---- connectivity -------------------------------------------------------------------------

  private pause(info: ErrorInfo): void {
    this.clearWake();
    this.paused = {
      ...info,
      message: 'The service refused the token (401). Notes are kept and will be sent after you sign in again.',
    };
    this.emitStatus();
  }

  private rateLimit(info: ErrorInfo): void {
    const wait = info.retryAfterMs ?? backoffDelay(1, this.retryBackoff, this.random);
    // Jittered, so several consoles released at once do not collide again.
    this.globalNotBefore = Math.max(this.globalNotBefore, this.clock.now() + retryAfterDelay(wait, this.random));
    this.emitStatus();
  }

  /** A network error met by a note: the monitor turns offline and probes until the service answers. */
  private goOffline(info: ErrorInfo): void {
    this.monitor.report(new AppError(info));
  }

  private get connectivity(): SendingState {
    if (this.paused) return 'paused';
    return this.monitor.offline ? 'offline' : 'online';
  }

  private backoffSession(sessionId: number): void {
    const r = this.sessionRetry.get(sessionId) ?? { failures: 0, notBefore: 0 };
    r.failures++;
    r.notBefore = this.clock.now() + backoffDelay(r.failures, this.retryBackoff, this.random);
    this.sessionRetry.set(sessionId, r);
  }

  // ---- bookkeeping --------------------------------------------------------------------------

  private insert(note: Note): void {
    let q = this.queues.get(note.sessionId);
    if (!q) {
      q = [];
      this.queues.set(note.sessionId, q);
    }
    let i = q.length;
    while (i > 0 && (q[i - 1]?.seq ?? 0) > note.seq) i--;
    q.splice(i, 0, note);
    this.byId.set(note.id, note);
  }

  private unlink(note: Note): void {
    const q = this.queues.get(note.sessionId);
    if (q) {
      const i = q.indexOf(note);
      if (i >= 0) q.splice(i, 1);
      if (q.length === 0) this.queues.delete(note.sessionId);
    }
    this.byId.delete(note.id);
  }

  private find(id: string): Note {
    const note = NoteIdSchema.safeParse(id).success ? this.byId.get(id) : undefined;
    if (!note || note.writing) throw new AppError({ kind: 'NotFound', message: 'There is no such note in the outbox.' });
    return note;
  }

  private isWorkingOn(note: Note): boolean {
    return this.busy.has(note.sessionId) && this.queues.get(note.sessionId)?.[0] === note;
  }

  private changed(note: Note): void {
    this.emit({ type: 'note', note: toRecord(note) });
    this.emitStatus();
  }

  private emitStatus(): void {
    const status = this.status();
    const key = JSON.stringify({ ...status, nextAttemptAt: undefined });
    if (key === this.lastStatusKey) return;
    this.lastStatusKey = key;
    this.emit({ type: 'status', status });
  }

  private emit(e: OutboxEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch (err) {
        this.log('outbox: listener failed', err);
      }
    }
  }
}

/** Abort reason that marks our own request timeout (as opposed to `stop()`). */
class TimeoutSignal extends Error {
  constructor() {
    super('request timeout');
  }
}

function toEntry(n: Note): JournalEntry {
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

function toRecord(n: Note): NoteRecord {
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
