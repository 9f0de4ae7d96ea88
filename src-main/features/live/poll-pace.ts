import { doubledDelay, isTemporary } from '../../../src-shared/error-kinds';
import { toErrorInfo } from '../../../src-shared/errors';

/**
 * How long the safety-net poll waits before its next read. It costs the service little: while
 * events arrive (the service delivers to the listener) it reads rarely, since events already say
 * what changed; without events it reads more often, as the only way news arrives. Either way it
 * slows down while nothing changes, comes back to its pace as soon as something does, and backs
 * off when the service is overloaded or rate-limits it, never sooner than it asked (Retry-After).
 */
export const POLL_PACE = {
  /** Without events: the first wait, and the longest while nothing changes. */
  pollingMs: 30_000,
  pollingIdleMaxMs: 60_000,
  /** With events flowing: the first wait, and the longest while nothing changes. */
  liveMs: 60_000,
  liveIdleMaxMs: 180_000,
  /** The longest wait after errors. */
  errorMaxMs: 300_000,
} as const;

/** A pace with the same parts (benchmarks and tests run the poll faster). */
export type PollPace = { readonly [K in keyof typeof POLL_PACE]: number };

export type PollOutcome = { found: number; errors: unknown[] };

export function nextPollDelay(previousMs: number | null, outcome: PollOutcome | null, live: boolean, pace: PollPace = POLL_PACE): number {
  const base = live ? pace.liveMs : pace.pollingMs;
  const idleMax = live ? pace.liveIdleMaxMs : pace.pollingIdleMaxMs;
  if (previousMs === null || outcome === null) return base;
  const infos = outcome.errors.map(toErrorInfo);
  const pushBack = infos.filter(isTemporary);
  if (pushBack.length) {
    const asked = Math.max(0, ...pushBack.map((i) => i.retryAfterMs ?? 0));
    return Math.min(pace.errorMaxMs, Math.max(asked, doubledDelay(previousMs, { baseMs: base, maxMs: pace.errorMaxMs })));
  }
  if (outcome.found > 0) return base;
  return Math.min(idleMax, Math.max(base, Math.round(previousMs * 1.5)));
}
