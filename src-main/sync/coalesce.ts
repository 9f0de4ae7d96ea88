import { systemClock } from '../clock';
/**
 * Batches pushes to the renderer: at most one flush per `intervalMs` per kind, so a burst of
 * events (a resync after a long gap, a busy simulator) repaints once, not once per record.
 */
export class Coalescer<K, V> {
  readonly #pending = new Map<K, V[]>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  #lastFlush = 0;

  readonly #flush: (key: K, values: V[]) => void;
  readonly #intervalMs: number;
  readonly #now: () => number;
  constructor(flush: (key: K, values: V[]) => void, intervalMs = 16, now: () => number = systemClock.now) {
    this.#flush = flush;
    this.#intervalMs = intervalMs;
    this.#now = now;
  }

  push(key: K, ...values: V[]): void {
    const list = this.#pending.get(key);
    if (list) list.push(...values);
    else this.#pending.set(key, [...values]);
    if (this.#timer) return;
    const wait = Math.max(0, this.#lastFlush + this.#intervalMs - this.#now());
    this.#timer = setTimeout(() => this.run(), wait);
    this.#timer.unref?.();
  }

  /** Sends what is waiting now (used before answering a call that depends on it). */
  run(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#lastFlush = this.#now();
    const batches = [...this.#pending];
    this.#pending.clear();
    for (const [key, values] of batches) this.#flush(key, values);
  }

  clear(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#pending.clear();
  }
}
