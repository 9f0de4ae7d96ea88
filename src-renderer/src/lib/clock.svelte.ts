import { createSubscriber } from 'svelte/reactivity';

/**
 * The renderer's one clock for what counts time on screen (SLA timers, a pause's length, a
 * restart's countdown). Reading `now` in a view makes it tick every second, on the second, for
 * as long as something shown reads it; nothing ticks while nothing does.
 */
export class Clock {
  #subscribe = createSubscriber((update) => {
    let timer: ReturnType<typeof setTimeout>;
    const next = () => {
      timer = setTimeout(
        () => {
          update();
          next();
        },
        1000 - (Date.now() % 1000),
      );
    };
    next();
    return () => clearTimeout(timer);
  });

  /** Now, in ms since the epoch. */
  get now(): number {
    this.#subscribe();
    return Date.now();
  }
}

export const clock = new Clock();
