import type { ErrorInfo } from '../../src-shared/errors';
import type { ConnectivityMonitor } from '../cache/connectivity';
import type { Note } from './notes';
import { PAUSED_MESSAGE, backoffDelay, rateLimitWait, readyAt, type Backoff } from './rules';
import type { Clock } from '../clock';
import type { SendingState } from './types';

export interface SchedulerOptions {
  clock: Clock;
  random: () => number;
  /** How many sessions sync in parallel; inside a session notes go strictly one by one. */
  concurrency: number;
  settleMs: number;
  retry: Backoff;
  monitor: ConnectivityMonitor;
  /** The first outstanding note of every session, oldest first. */
  heads: () => Note[];
  /** Settles one note with the service. */
  deliver: (note: Note) => Promise<void>;
  /** Whether notes go out, or when, changed (the status is sent again). */
  changed: () => void;
  log: (message: string, detail?: unknown) => void;
}

/**
 * When notes go out: one at a time per session, a few sessions at once, oldest waiting note
 * first; never while stopped, offline or paused, never before a rate limit or a session's
 * backoff ends. One timer wakes it for the earliest wait.
 */
export class Scheduler {
  readonly #o: SchedulerOptions;
  #running = false;
  /** Set while the service refuses the token: nothing is sent until `resume()`. */
  #paused: ErrorInfo | undefined;
  /** Rate limit: nothing is sent before this time. */
  #notBefore = 0;
  readonly #sessionRetry = new Map<number, { failures: number; notBefore: number }>();
  readonly #busy = new Map<number, Promise<void>>();
  #wakeTimer: unknown;
  #wakeAt = Infinity;

  constructor(o: SchedulerOptions) {
    this.#o = o;
  }

  get running(): boolean {
    return this.#running;
  }

  get connectivity(): SendingState {
    if (this.#paused) return 'paused';
    return this.#o.monitor.offline ? 'offline' : 'online';
  }

  /** Why notes are paused, while they are. */
  get pausedReason(): ErrorInfo | undefined {
    return this.#paused;
  }

  /** The time the wake timer is set for (Infinity when none is). */
  get wakeAt(): number {
    return this.#wakeAt;
  }

  /** Running, and neither offline nor paused. */
  canSend(): boolean {
    return this.#running && this.connectivity === 'online';
  }

  isRateLimited(): boolean {
    return this.#notBefore > this.#o.clock.now();
  }

  /** Whether a note of this session is being settled right now. */
  isBusy(sessionId: number): boolean {
    return this.#busy.has(sessionId);
  }

  start(): void {
    this.#running = true;
  }

  /** Stops scheduling; resolves the work in progress as it ends. */
  stop(): Promise<void>[] {
    this.#running = false;
    this.#clearWake();
    return [...this.#busy.values()];
  }

  /** Starts every note that may go now; sets the timer for the earliest one that must wait. */
  pump(): void {
    if (!this.canSend()) return;
    const now = this.#o.clock.now();
    if (this.#notBefore > now) {
      this.#scheduleWake(this.#notBefore);
      return;
    }
    let wake = Infinity;
    // Oldest waiting note first, so a busy session cannot starve the others.
    for (const head of this.#o.heads()) {
      if (this.#busy.size >= this.#o.concurrency) break;
      const sid = head.sessionId;
      if (this.#busy.has(sid) || head.writing || head.state === 'failed') continue;
      const ready = readyAt(head, this.#sessionRetry.get(sid)?.notBefore ?? 0, this.#o.settleMs);
      if (ready > now) {
        wake = Math.min(wake, ready);
        continue;
      }
      const work = this.#o
        .deliver(head)
        .catch((e: unknown) => {
          // A bug, not a service answer: keep the note and try again later rather than crash.
          this.#o.log('outbox: unexpected failure while syncing a note', e);
          this.backoffSession(sid);
        })
        .finally(() => {
          this.#busy.delete(sid);
          this.pump();
        });
      this.#busy.set(sid, work);
    }
    if (Number.isFinite(wake)) this.#scheduleWake(wake);
  }

  /** The service refused the token: nothing goes until `resume()`. */
  pause(info: ErrorInfo): void {
    this.#clearWake();
    this.#paused = { ...info, message: PAUSED_MESSAGE };
    this.#o.changed();
  }

  /** Lifts a pause; false when there was none. */
  resume(): boolean {
    if (!this.#paused) return false;
    this.#paused = undefined;
    this.#o.changed();
    return true;
  }

  rateLimit(info: ErrorInfo): void {
    this.#notBefore = Math.max(this.#notBefore, this.#o.clock.now() + rateLimitWait(info, this.#o.retry, this.#o.random));
    this.#o.changed();
  }

  /** One more failure in this session: its next note waits longer. */
  backoffSession(sessionId: number): void {
    const r = this.#sessionRetry.get(sessionId) ?? { failures: 0, notBefore: 0 };
    r.failures++;
    r.notBefore = this.#o.clock.now() + backoffDelay(r.failures, this.#o.retry, this.#o.random);
    this.#sessionRetry.set(sessionId, r);
  }

  /** The session's backoff is over (a note went, or the attendant sends one again). */
  forgetFailures(sessionId: number): void {
    this.#sessionRetry.delete(sessionId);
  }

  /** Every session's backoff is over (the network may be back). */
  forgetAllFailures(): void {
    this.#sessionRetry.clear();
  }

  #scheduleWake(at: number): void {
    if (at >= this.#wakeAt && this.#wakeTimer !== undefined) return;
    this.#clearWake();
    this.#wakeAt = at;
    this.#wakeTimer = this.#o.clock.setTimeout(
      () => {
        this.#wakeTimer = undefined;
        this.#wakeAt = Infinity;
        this.pump();
      },
      Math.max(0, at - this.#o.clock.now()),
    );
  }

  #clearWake(): void {
    if (this.#wakeTimer !== undefined) this.#o.clock.clearTimeout(this.#wakeTimer);
    this.#wakeTimer = undefined;
    this.#wakeAt = Infinity;
  }
}
