import type { Clock } from '../../src-main/clock';

/**
 * A clock the test moves: timers run when `advance` passes their time, in order, each followed by
 * the promise work it started; `jump` moves the time without running anything (a machine asleep).
 */
export class ManualClock implements Clock {
  #now = 1_000_000;
  #next = 1;
  readonly #timers = new Map<number, { at: number; fn: () => void }>();

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.#next++;
    this.#timers.set(id, { at: this.#now + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** How many timers wait. */
  get pending(): number {
    return this.#timers.size;
  }

  /** The time left until the next timer, or null. */
  get nextIn(): number | null {
    const next = Math.min(...[...this.#timers.values()].map((t) => t.at));
    return Number.isFinite(next) ? next - this.#now : null;
  }

  jump(ms: number): void {
    this.#now += ms;
  }

  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    for (;;) {
      const due = [...this.#timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!due) break;
      this.#timers.delete(due[0]);
      this.#now = Math.max(this.#now, due[1].at);
      due[1].fn();
      await settle();
    }
    this.#now = end;
    await settle();
  }
}

/** Lets the promise work already started run to its end (a few turns of the microtask queue). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
