import { createSubscriber } from 'svelte/reactivity';

/**
 * The renderer's one clock for what counts time on screen (Needs me's SLA, a pause's length, a
 * restart's countdown). Reading `now` in a view makes it tick every second, on the second, for
 * as long as something shown reads it (`minute`: every minute); nothing ticks while nothing does.
 * (A queue row's wait wakes itself when what it shows changes: WaitTimer.svelte.)
 */
export class Clock {
  #seconds = ticking(1000);
  #minutes = ticking(60_000);

  /** Now, in ms since the epoch. */
  get now(): number {
    this.#seconds();
    return Date.now();
  }

  /** Now, read again each minute on the minute: for what shows no seconds (a clock time, a day). */
  get minute(): number {
    this.#minutes();
    return Date.now();
  }
}

/** A subscription that updates its readers every `periodMs`, on the period's turn, while read. */
function ticking(periodMs: number): () => void {
  return createSubscriber((update) => {
    let timer: ReturnType<typeof setTimeout>;
    const next = () => {
      timer = setTimeout(
        () => {
          update();
          next();
        },
        periodMs - (Date.now() % periodMs),
      );
    };
    next();
    return () => clearTimeout(timer);
  });
}

export const clock = new Clock();
