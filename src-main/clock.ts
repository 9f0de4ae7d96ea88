/**
 * The time and the timers of the main process, as one object the platform passes in
 * (`PlatformAdapters.clock`, then `FeatureContext.clock`): a test hands a manual one. This is the
 * one module that reads the system's time (eslint: one-place/clock); a module not yet handed a
 * clock takes `systemClock` from here.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now: () => number;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    // A waiting retry must not keep a process alive on its own.
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};
