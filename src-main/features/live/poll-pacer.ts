import type { Clock } from '../../clock';
import { systemClock } from '../../clock';
import { nextPollDelay, type PollOutcome, type PollPace } from './poll-pace';

export interface PollPacerOptions {
  /** One pass of the poll: reads forward and says what it found and what failed. */
  pass(): Promise<PollOutcome>;
  /** Whether a pass is wanted now (a workspace is open and live updates are not paused). */
  due(): boolean;
  /** Whether events reach the console (the poll then reads less often). */
  eventsFlow(): boolean;
  pace?: PollPace;
  clock?: Clock;
}

/**
 * The safety-net poll under the events: one pass at a time, never a backlog of them, each wait
 * set by `nextPollDelay` from what the last pass found. While no pass is due it keeps its first
 * pace, ready for when one is.
 */
export class PollPacer {
  readonly #o: PollPacerOptions;
  readonly #clock: Clock;
  #timer: unknown = null;
  #delay: number | null = null;
  #running = false;

  constructor(o: PollPacerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? systemClock;
  }

  /** The wait before the next pass, while one is scheduled. */
  get delay(): number | null {
    return this.#running ? this.#delay : null;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#schedule(null);
  }

  stop(): void {
    this.#running = false;
    if (this.#timer !== null) this.#clock.clearTimeout(this.#timer);
    this.#timer = null;
    this.#delay = null;
  }

  #schedule(outcome: PollOutcome | null): void {
    if (!this.#running) return;
    this.#delay = nextPollDelay(this.#delay, outcome, this.#o.eventsFlow(), this.#o.pace);
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = null;
      if (!this.#o.due()) {
        this.#delay = null;
        return this.#schedule(null);
      }
      void this.#o.pass().then(
        (found) => this.#schedule(found),
        (e: unknown) => this.#schedule({ found: 0, errors: [e] }),
      );
    }, this.#delay);
  }
}
