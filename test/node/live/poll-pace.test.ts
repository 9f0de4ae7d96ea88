import { test, expect } from '@playwright/test';
import { nextPollDelay, POLL_PACE } from '../../../src-main/features/live/poll-pace';
import { AppError } from '../../../src-shared/errors';

const quiet = { found: 0, errors: [] };

test('the safety-net poll slows while nothing changes, to a minute without events and three with them', () => {
  for (const [live, base, max] of [
    [false, POLL_PACE.pollingMs, POLL_PACE.pollingIdleMaxMs],
    [true, POLL_PACE.liveMs, POLL_PACE.liveIdleMaxMs],
  ] as const) {
    let d = nextPollDelay(null, null, live);
    expect(d).toBe(base);
    const seen = [d];
    for (let i = 0; i < 10; i++) seen.push((d = nextPollDelay(d, quiet, live)));
    expect(seen.every((x, i) => i === 0 || x >= seen[i - 1]!)).toBe(true);
    expect(d).toBe(max);
    // Something new: back to its pace at once.
    expect(nextPollDelay(d, { found: 3, errors: [] }, live)).toBe(base);
  }
  // Idle, the poll reads at most twice a minute without events (2 reads a pass: 4 requests)...
  expect(60_000 / POLL_PACE.pollingMs).toBeLessThanOrEqual(2);
  // ...and with events, once a minute at first, then once every three.
  expect(60_000 / POLL_PACE.liveMs).toBeLessThanOrEqual(1);
});

test('a rate-limited or overloaded service is left alone at least as long as it asked, doubling up to five minutes', () => {
  const limited = new AppError({ kind: 'RateLimited', status: 429, message: 'slow down', retryAfterMs: 120_000 });
  expect(nextPollDelay(30_000, { found: 0, errors: [limited] }, false)).toBe(120_000);
  const down = new AppError({ kind: 'Unavailable', status: 503, message: 'down' });
  let d = 30_000;
  const seen: number[] = [];
  for (let i = 0; i < 6; i++) seen.push((d = nextPollDelay(d, { found: 0, errors: [down] }, false)));
  expect(seen).toEqual([60_000, 120_000, 240_000, 300_000, 300_000, 300_000]);
  // An error of the request itself (not the service's load) does not slow the poll more than quiet does.
  const refused = new AppError({ kind: 'Invalid', status: 400, message: 'bad' });
  expect(nextPollDelay(30_000, { found: 0, errors: [refused] }, false)).toBe(45_000);
  // The service answers again with news: back to its pace.
  expect(nextPollDelay(300_000, { found: 1, errors: [] }, false)).toBe(POLL_PACE.pollingMs);
});
