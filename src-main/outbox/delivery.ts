import { AppError, type ErrorInfo } from '../../src-shared/errors';
import { shownError } from '../log';
import type { ConnectivityMonitor } from '../cache/connectivity';
import type { OutboxEvents } from './events';
import type { Journal } from './journal';
import { toEntry, type Note, type NoteBook } from './notes';
import { refOf, withRef } from './ref';
import { holdAfter, saveOutcome } from './rules';
import type { Scheduler } from './scheduler';
import type { Clock } from '../clock';
import type { CommentTransport } from './types';

export interface DeliveryOptions {
  journal: Journal;
  transport: CommentTransport;
  clock: Clock;
  /** A save or read with no answer after this long is abandoned (outcome unknown for a save). */
  requestTimeoutMs: number;
  monitor: ConnectivityMonitor;
  book: NoteBook;
  scheduler: Scheduler;
  events: OutboxEvents;
  log: (message: string, detail?: unknown) => void;
}

/**
 * One note's way to the service: a note whose save may have landed is looked for in its
 * session's comments (by its client reference) before anything is sent again; a send is
 * journaled as "sending" before the request leaves; the note is confirmed only on the
 * service's word.
 */
export class Delivery {
  readonly #o: DeliveryOptions;
  readonly #inflight = new Set<AbortController>();

  constructor(o: DeliveryOptions) {
    this.#o = o;
  }

  /** Settles one note: reads back first when its last save may have landed, else sends it. */
  async deliver(note: Note): Promise<void> {
    if (note.state === 'outcome-unknown' || note.state === 'sending') {
      let found: number | undefined;
      try {
        found = await this.#readBack(note);
      } catch (e) {
        this.#onReadError(note, e);
        return;
      }
      if (found !== undefined) {
        await this.#confirm(note, found);
        return;
      }
      this.#o.log(`outbox: note ${note.ref} not found on the service; sending it again`);
    }
    if (!this.#o.scheduler.canSend()) return;
    await this.#send(note);
  }

  /** Abandons every request in flight (their notes are reconciled next time). */
  abortAll(): void {
    for (const c of this.#inflight) c.abort();
  }

  /** Reads the session's comments back; the service id of the note if it is there. */
  async #readBack(note: Note): Promise<number | undefined> {
    const comments = await this.#request('Timeout', (signal) => this.#o.transport.listForSession(note.sessionId, signal));
    for (const c of comments) if (refOf(c.comment) === note.ref) return c.id;
    return undefined;
  }

  async #send(note: Note): Promise<void> {
    const { journal, clock, scheduler, events } = this.#o;
    const now = clock.now();
    const attempt: Note = { ...note, state: 'sending', attempts: note.attempts + 1, lastAttemptAt: now, updatedAt: now };
    try {
      // The one write that makes a crash during the request safe: it forces a read-back later.
      await journal.write(toEntry(attempt));
    } catch (e) {
      this.#o.log('outbox: journal write failed before sending', e);
      note.error = { kind: 'Internal', message: 'The note could not be updated on this computer; it will be tried again.' };
      scheduler.backoffSession(note.sessionId);
      events.changed(note);
      return;
    }
    Object.assign(note, { state: 'sending', attempts: attempt.attempts, lastAttemptAt: now, updatedAt: now });
    events.changed(note);
    if (!scheduler.canSend() || scheduler.isRateLimited()) {
      // Stopped, paused, offline or rate-limited while journaling: nothing went out. The entry
      // says sending, which costs at most one read-back after a crash.
      note.state = 'pending';
      events.changed(note);
      return;
    }
    // The settle delay counts from the moment the request really leaves, not from the journaling.
    note.lastAttemptAt = clock.now();
    let saved: { id: number };
    try {
      saved = await this.#request('OutcomeUnknown', (signal) =>
        this.#o.transport.save({ sessionId: note.sessionId, comment: withRef(note.text, note.ref) }, signal),
      );
    } catch (e) {
      await this.#onSendError(note, e);
      return;
    }
    await this.#confirm(note, saved.id);
  }

  async #confirm(note: Note, serviceId: number): Promise<void> {
    note.state = 'confirmed';
    note.serviceId = serviceId;
    note.error = undefined;
    note.updatedAt = this.#o.clock.now();
    this.#o.book.confirm(note);
    this.#o.scheduler.forgetFailures(note.sessionId);
    this.#o.events.changed(note);
    try {
      await this.#o.journal.remove(note.id);
    } catch (e) {
      // Harmless: next start finds it "sending", reads back, and confirms it again.
      this.#o.log('outbox: could not delete a confirmed entry', e);
    }
  }

  async #onSendError(note: Note, e: unknown): Promise<void> {
    const info = this.#shown(e);
    note.error = info;
    note.updatedAt = this.#o.clock.now();
    const outcome = saveOutcome(info);
    if (outcome === 'refused') {
      const failed: Note = { ...note, state: 'failed' };
      try {
        await this.#o.journal.write(toEntry(failed));
      } catch (err) {
        this.#o.log('outbox: could not record a refused note', err);
      }
      note.state = 'failed';
      this.#o.events.changed(note);
      return;
    }
    note.state = outcome === 'not-stored' ? 'pending' : 'outcome-unknown';
    this.#o.events.changed(note);
    const hold = holdAfter(info);
    // The service's word on the token or the rate holds even an outbox that is stopping.
    if (hold === 'pause' || hold === 'rate-limit' || this.#o.scheduler.running) this.#hold(note, info, hold);
  }

  #onReadError(note: Note, e: unknown): void {
    const info = this.#shown(e);
    note.error = info;
    this.#o.events.changed(note);
    if (!this.#o.scheduler.running) return;
    this.#hold(note, info, holdAfter(info));
  }

  /** The error as the note shows it; an internal one is logged with its stack. */
  #shown(e: unknown): ErrorInfo {
    return shownError({ error: (message, fields) => this.#o.log(message, fields) }, e, { op: 'outbox' });
  }

  #hold(note: Note, info: ErrorInfo, hold: ReturnType<typeof holdAfter>): void {
    const { scheduler } = this.#o;
    if (hold === 'pause') scheduler.pause(info);
    else if (hold === 'rate-limit') scheduler.rateLimit(info);
    // The monitor turns offline and probes until the service answers.
    else if (hold === 'offline') this.#o.monitor.report(new AppError(info));
    else scheduler.backoffSession(note.sessionId);
  }

  /**
   * Runs one request with the timeout and registers it so `abortAll()` can abandon it. A save
   * that times out is OutcomeUnknown (it may have arrived); a read that times out is a Timeout.
   */
  async #request<T>(onTimeout: 'Timeout' | 'OutcomeUnknown', op: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const { clock } = this.#o;
    const ctl = new AbortController();
    this.#inflight.add(ctl);
    const timer = clock.setTimeout(() => ctl.abort(new TimeoutSignal()), this.#o.requestTimeoutMs);
    try {
      const answer = await op(ctl.signal);
      this.#o.monitor.ok();
      return answer;
    } catch (e) {
      if (ctl.signal.aborted && ctl.signal.reason instanceof TimeoutSignal) {
        throw new AppError({ kind: onTimeout, message: 'The service did not answer in time.' }, { cause: e });
      }
      throw e;
    } finally {
      clock.clearTimeout(timer);
      this.#inflight.delete(ctl);
    }
  }
}

/** Abort reason that marks our own request timeout (as opposed to `stop()`). */
class TimeoutSignal extends Error {
  constructor() {
    super('request timeout');
  }
}
