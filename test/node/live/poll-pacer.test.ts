import { test, expect } from '@playwright/test';
import { PollPacer } from '../../../src-main/features/live/poll-pacer';
import { POLL_PACE, type PollOutcome } from '../../../src-main/features/live/poll-pace';
import { AppError } from '../../../src-shared/errors';
import { ManualClock } from '../../support/manual-clock';

function pacer(o: { due?: () => boolean; eventsFlow?: () => boolean; outcomes?: Array<PollOutcome | Error> } = {}) {
  const clock = new ManualClock();
  const passes: number[] = [];
  const outcomes = [...(o.outcomes ?? [])];
  let hold: Promise<void> | null = null;
  const p = new PollPacer({
    clock,
    due: o.due ?? (() => true),
    eventsFlow: o.eventsFlow ?? (() => false),
    pass: async () => {
      passes.push(clock.now());
      if (hold) await hold;
      const next = outcomes.shift() ?? { found: 0, errors: [] };
      if (next instanceof Error) throw next;
      return next;
    },
  });
  return {
    clock,
    p,
    passes,
    holdWith: (h: Promise<void> | null): void => {
      hold = h;
    },
  };
}

test('the poll reads at its pace, slows while nothing changes, comes back at once when something does, and backs off when refused', async () => {
  const limited = new AppError({ kind: 'RateLimited', status: 429, message: 'slow down', retryAfterMs: 200_000 });
  const { clock, p, passes } = pacer({
    outcomes: [
      { found: 0, errors: [] },
      { found: 0, errors: [] },
      { found: 2, errors: [] },
      { found: 0, errors: [limited] },
    ],
  });
  p.start();
  expect(p.delay).toBe(POLL_PACE.pollingMs);
  const waits: number[] = [];
  for (let i = 0; i < 4; i++) {
    await clock.advance(p.delay!);
    waits.push(p.delay!);
  }
  expect(passes).toHaveLength(4);
  // Quiet, quiet (slower, up to a minute), news (back to its pace), a 429 asking for 200 s.
  expect(waits).toEqual([45_000, 60_000, 30_000, 200_000]);
  p.stop();
  await clock.advance(1_000_000);
  expect(passes).toHaveLength(4);
  expect(clock.pending).toBe(0);
});

test('with events flowing it reads less often; one pass at a time, never a backlog; a failed pass counts as an error', async () => {
  const { clock, p, passes, holdWith } = pacer({ eventsFlow: () => true, outcomes: [new Error('boom')] });
  p.start();
  expect(p.delay).toBe(POLL_PACE.liveMs);
  let release!: () => void;
  holdWith(new Promise<void>((r) => (release = r)));
  await clock.advance(POLL_PACE.liveMs);
  expect(passes).toHaveLength(1);
  // The pass takes ten minutes: nothing else starts meanwhile.
  await clock.advance(600_000);
  expect(passes).toHaveLength(1);
  expect(clock.pending).toBe(0);
  holdWith(null);
  release();
  await clock.advance(0);
  // It failed (not the service's load): the next wait is the quiet one.
  expect(p.delay).toBe(Math.min(POLL_PACE.liveIdleMaxMs, Math.round(POLL_PACE.liveMs * 1.5)));
  p.stop();
});

test('while no pass is due (no workspace, or live updates paused) it reads nothing and keeps its first pace', async () => {
  let due = false;
  const { clock, p, passes } = pacer({ due: () => due });
  p.start();
  await clock.advance(10 * 60_000);
  expect(passes).toHaveLength(0);
  expect(p.delay).toBe(POLL_PACE.pollingMs);
  due = true;
  await clock.advance(POLL_PACE.pollingMs);
  expect(passes).toHaveLength(1);
  p.stop();
  expect(p.delay).toBeNull();
});
