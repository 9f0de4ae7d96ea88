import type { Clock } from '../../clock';
import { systemClock } from '../../clock';

export interface SleepDetectorOptions {
  /** How often it looks at the clock. Default 5 s. */
  tickMs?: number;
  /** A look this much later than the last one means the machine slept (or the process was frozen). Default 20 s. */
  gapMs?: number;
  clock?: Clock;
  /** A wake listener threw: reported, the others still run. */
  onListenerError?(e: unknown): void;
}

/**
 * Notices that the machine slept: timers do not run while it sleeps, so a look at the clock that
 * comes much later than asked means time passed unseen (events may have been missed, the network
 * may have changed).
 */
export class SleepDetector {
  readonly #tickMs: number;
  readonly #gapMs: number;
  readonly #clock: Clock;
  readonly #listeners = new Set<() => void>();
  #timer: unknown = null;
  #last = 0;

  readonly #o: SleepDetectorOptions;
  constructor(o: SleepDetectorOptions = {}) {
    this.#o = o;
    this.#tickMs = o.tickMs ?? 5_000;
    this.#gapMs = o.gapMs ?? 20_000;
    this.#clock = o.clock ?? systemClock;
  }

  /** Called after each wake. */
  onWake(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  start(): void {
    if (this.#timer !== null) return;
    this.#last = this.#clock.now();
    this.#tick();
  }

  stop(): void {
    if (this.#timer !== null) this.#clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  #tick(): void {
    this.#timer = this.#clock.setTimeout(() => {
      const now = this.#clock.now();
      const gap = now - this.#last;
      this.#last = now;
      this.#tick();
      if (gap > this.#gapMs) this.#wake();
    }, this.#tickMs);
  }

  #wake(): void {
    for (const l of this.#listeners) {
      try {
        l();
      } catch (e) {
        this.#o.onListenerError?.(e);
      }
    }
  }
}
