import { test, expect } from '@playwright/test';
import { SleepDetector } from '../../../src-main/features/live/sleep-detector';
import { ManualClock } from '../../support/manual-clock';

test('a wake from sleep is noticed once, when the clock has moved far more than the timers did; a failing listener does not stop the others', async () => {
  const clock = new ManualClock();
  const errors: unknown[] = [];
  const detector = new SleepDetector({ clock, tickMs: 5_000, gapMs: 20_000, onListenerError: (e) => errors.push(e) });
  let wakes = 0;
  detector.onWake(() => {
    throw new Error('a broken listener');
  });
  const off = detector.onWake(() => wakes++);
  detector.start();

  // An hour awake: ticks on time, no wake.
  await clock.advance(3_600_000);
  expect(wakes).toBe(0);

  // The machine sleeps for ten minutes: the next tick comes late.
  clock.jump(600_000);
  await clock.advance(5_000);
  expect(wakes).toBe(1);
  expect(errors).toHaveLength(1);
  // And it goes on as before.
  await clock.advance(60_000);
  expect(wakes).toBe(1);

  // A frozen process is the same as sleep; a listener that left hears nothing.
  off();
  clock.jump(30_000);
  await clock.advance(5_000);
  expect(wakes).toBe(1);
  expect(errors).toHaveLength(2);

  detector.stop();
  expect(clock.pending).toBe(0);
});
