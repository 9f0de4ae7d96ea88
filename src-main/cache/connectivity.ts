import type { Connectivity } from '../../src-shared/bridge/offline';
import { askedWaitMs, backoffDelay, isBackOff, isRefused, isUnreachable, type Backoff } from '../../src-shared/error-kinds';
import { AppError, toErrorInfo, type ErrorInfo } from '../../src-shared/errors';
import { systemClock } from '../clock';

const PROBE_TIMEOUT = Symbol('probe timeout');

export interface ConnectivityOptions {
  /** A light request; resolves or throws an AppError. */
  probe(signal: AbortSignal): Promise<void>;
  /** Whether a workspace is open (no probing without one). */
  canProbe(): boolean;
  /** While offline: probe delays (exponential, jittered). */
  backoff?: Backoff;
  /** While online and idle: probe when nothing answered for this long (null: never). */
  idleProbeMs?: number | null;
  timeoutMs?: number;
  now?: () => number;
  /** Timers (a test's manual clock); the system's by default. */
  timers?: { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(handle: unknown): void };
  random?: () => number;
  log?: (message: string, detail?: unknown) => void;
}

/**
 * Whether the service can be reached. Every feature reports the outcome of its calls (a network
 * error turns it offline at once); while offline a light probe runs with backoff until the
 * service answers; while online and idle the same probe runs now and then, so a network that
 * went away is noticed before the attendant needs it.
 */
export class ConnectivityMonitor {
  readonly #o: Required<Omit<ConnectivityOptions, 'log'>> & { log: (message: string, detail?: unknown) => void };
  #state: Connectivity = { state: 'online', since: null, reason: null, nextProbeAt: null, lastOkAt: null };
  readonly #listeners = new Set<(c: Connectivity) => void>();
  #timer: unknown = null;
  #failures = 0;
  #probing: Promise<void> | null = null;
  #running = false;
  #ctl: AbortController | null = null;
  #lastError: ErrorInfo | null = null;

  constructor(o: ConnectivityOptions) {
    this.#o = {
      backoff: { baseMs: 1_000, maxMs: 8_000 },
      idleProbeMs: 20_000,
      timeoutMs: 5_000,
      now: systemClock.now,
      timers: {
        setTimeout: (fn, ms) => {
          const t = setTimeout(fn, ms);
          t.unref?.();
          return t;
        },
        clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      },
      random: Math.random,
      log: () => undefined,
      ...o,
    };
  }

  status(): Connectivity {
    return { ...this.#state };
  }

  get offline(): boolean {
    return this.#state.state === 'offline';
  }

  /** While offline: the network error that explains it, whole (kind included). */
  get reason(): ErrorInfo | null {
    return this.offline ? this.#lastError : null;
  }

  /** Settles once no probe is running (after `stop()`: nothing of ours is left in flight). */
  async idle(): Promise<void> {
    await this.#probing;
  }

  subscribe(l: (c: Connectivity) => void): () => void {
    this.#listeners.add(l);
    return () => this.#listeners.delete(l);
  }

  start(): void {
    this.#running = true;
    this.#schedule();
  }

  stop(): void {
    this.#running = false;
    this.#clear();
    this.#ctl?.abort();
  }

  /** A new workspace: start over as online (its first calls will tell). */
  reset(): void {
    this.#failures = 0;
    this.#ctl?.abort();
    this.#set({ state: 'online', since: null, reason: null, nextProbeAt: null, lastOkAt: null, waitUntil: null });
    this.#schedule();
  }

  /** The service answered (any answer, even a refusal, proves it is reachable). */
  ok(): void {
    this.#state.lastOkAt = this.#o.now();
    if (this.#state.state === 'offline') this.#goOnline();
  }

  /** Until when the service asked for quiet (ms since epoch), or null. */
  get waitUntil(): number | null {
    const w = this.#state.waitUntil ?? null;
    return w !== null && w > this.#o.now() ? w : null;
  }

  #toldToWait(until: number): void {
    if (until <= (this.#state.waitUntil ?? 0)) return;
    this.#set({ ...this.#state, waitUntil: until });
    this.#schedule();
  }

  /** The outcome of a failed call: no answer at all turns the console offline. */
  report(e: unknown): void {
    if (!isUnreachable(e)) {
      // Any answer, even a refusal or an error page, proves the service reachable; a cancelled
      // call, a lost answer or a fault of our own proves nothing either way.
      if (isBackOff(e) || isRefused(e)) this.ok();
      // Reachable, told to wait: no probe before the time the service asked for.
      const wait = askedWaitMs(e);
      if (wait !== null) this.#toldToWait(this.#o.now() + wait);
      return;
    }
    this.#lastError = toErrorInfo(e);
    if (this.#state.state === 'online') {
      this.#failures = 0;
      this.#set({ ...this.#state, state: 'offline', since: this.#o.now(), reason: this.#lastError.message });
      this.#schedule();
    } else {
      this.#state.reason = this.#lastError.message;
    }
  }

  /** Runs a call and reports its outcome. */
  async watch<T>(p: Promise<T>): Promise<T> {
    try {
      const v = await p;
      this.ok();
      return v;
    } catch (e) {
      this.report(e);
      throw e;
    }
  }

  /** "Try now": probes at once and answers the state after it. */
  async probeNow(): Promise<Connectivity> {
    this.#clear();
    await this.#runProbe();
    return this.status();
  }

  #goOnline(): void {
    this.#failures = 0;
    this.#set({ state: 'online', since: null, reason: null, nextProbeAt: null, lastOkAt: this.#o.now(), waitUntil: this.waitUntil });
    this.#schedule();
  }

  #schedule(): void {
    this.#clear();
    if (!this.#running) return;
    let delay: number;
    if (this.#state.state === 'offline') {
      delay = backoffDelay(this.#failures + 1, this.#o.backoff, this.#o.random);
      this.#state.nextProbeAt = this.#o.now() + delay;
      this.#emit();
    } else {
      if (this.#o.idleProbeMs === null && this.waitUntil === null) return;
      const idleFor = this.#o.now() - (this.#state.lastOkAt ?? 0);
      delay = Math.max(1_000, (this.#o.idleProbeMs ?? 0) - idleFor);
    }
    // Never sooner than the service asked (Retry-After, capped by the one rule).
    const quiet = this.waitUntil;
    if (quiet !== null) {
      delay = Math.max(delay, quiet - this.#o.now());
      if (this.#state.state === 'offline') this.#state.nextProbeAt = this.#o.now() + delay;
    }
    this.#timer = this.#o.timers.setTimeout(() => {
      this.#timer = null;
      void this.#tick();
    }, delay);
  }

  async #tick(): Promise<void> {
    if (this.waitUntil !== null) {
      this.#schedule();
      return;
    }
    if (this.#state.waitUntil != null) {
      this.#set({ ...this.#state, waitUntil: null });
      if (this.#state.state === 'online' && this.#o.idleProbeMs === null) return;
    }
    if (
      this.#state.state === 'online' &&
      this.#o.idleProbeMs !== null &&
      this.#o.now() - (this.#state.lastOkAt ?? 0) < this.#o.idleProbeMs
    ) {
      this.#schedule();
      return;
    }
    await this.#runProbe();
  }

  #runProbe(): Promise<void> {
    this.#probing ??= this.#probeOnce().finally(() => {
      this.#probing = null;
      this.#schedule();
    });
    return this.#probing;
  }

  async #probeOnce(): Promise<void> {
    if (!this.#o.canProbe()) return;
    // "Try now" too waits out what the service asked: nothing is sent before then.
    if (this.waitUntil !== null) return;
    const ctl = new AbortController();
    this.#ctl = ctl;
    const timer = setTimeout(() => ctl.abort(PROBE_TIMEOUT), this.#o.timeoutMs);
    try {
      await this.#o.probe(ctl.signal);
      this.ok();
    } catch (e) {
      if (!this.#running || (ctl.signal.aborted && ctl.signal.reason !== PROBE_TIMEOUT)) return;
      // Our own time limit ended it: the client reports that as cancelled, it means no answer.
      if (ctl.signal.reason === PROBE_TIMEOUT)
        this.report(new AppError({ kind: 'Timeout', message: 'The service did not answer in time.' }));
      else this.report(e);
      if (this.#state.state === 'offline') this.#failures++;
    } finally {
      clearTimeout(timer);
      if (this.#ctl === ctl) this.#ctl = null;
    }
  }

  #clear(): void {
    if (this.#timer !== null) this.#o.timers.clearTimeout(this.#timer);
    this.#timer = null;
  }

  #set(next: Connectivity): void {
    this.#state = next;
    this.#emit();
  }

  #emit(): void {
    const s = this.status();
    for (const l of this.#listeners) {
      try {
        l(s);
      } catch (e) {
        this.#o.log('connectivity: listener failed', e);
      }
    }
  }
}
