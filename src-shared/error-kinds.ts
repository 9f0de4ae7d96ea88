import type { ErrorInfo } from './errors';

/**
 * What a failure means for what to do next: one rule for the main process and the page alike.
 *
 * - `unreachable`: no answer came (the connection was refused or reset, or nothing arrived in
 *   time). A write in this class never left this machine (one that left is `outcomeUnknown`).
 * - `backOff`: the service answered, but cannot serve now (429, 5xx) or answered what cannot be
 *   used (an unreadable, oversized or endless answer): ask again later, not at once.
 * - `refused`: the service answered no to this request (400, 401, 403, 404, an ERROR envelope,
 *   a redirect not followed): repeating it unchanged changes nothing.
 * - `outcomeUnknown`: a write left and its answer was never read: read back before repeating it.
 * - `none`: cancelled, or a fault of the console's own: it says nothing about the service.
 */
export type ErrorClass = 'unreachable' | 'backOff' | 'refused' | 'outcomeUnknown' | 'none';

type Classified = Pick<ErrorInfo, 'kind' | 'status' | 'retryAfterMs'>;

/** The error value of an AppError or a BridgeError (both carry `info`), or an ErrorInfo itself. */
function infoOf(e: unknown): Classified | null {
  if (e === null || typeof e !== 'object') return null;
  const info: unknown = 'info' in e ? e.info : e;
  if (info === null || typeof info !== 'object' || !('kind' in info) || typeof info.kind !== 'string') return null;
  return info as Classified;
}

export function errorClass(e: unknown): ErrorClass {
  const info = infoOf(e);
  if (!info) return 'none';
  switch (info.kind) {
    case 'Timeout':
      return 'unreachable';
    case 'Unavailable':
      // With a status the service answered (5xx); without one it was never reached.
      return info.status === undefined ? 'unreachable' : 'backOff';
    case 'RateLimited':
    case 'BadResponse':
      return 'backOff';
    case 'Unauthorized':
    case 'Forbidden':
    case 'NotFound':
    case 'Invalid':
      return 'refused';
    case 'OutcomeUnknown':
      return 'outcomeUnknown';
    case 'Cancelled':
    case 'Internal':
      return 'none';
  }
}

export const isUnreachable = (e: unknown): boolean => errorClass(e) === 'unreachable';
export const isBackOff = (e: unknown): boolean => errorClass(e) === 'backOff';
export const isRefused = (e: unknown): boolean => errorClass(e) === 'refused';

/** Unreachable or back off: the same request may succeed later, and a kept copy serves meanwhile. */
export const isTemporary = (e: unknown): boolean => {
  const c = errorClass(e);
  return c === 'unreachable' || c === 'backOff';
};

/**
 * Worth repeating at once, after a short wait: no answer came, or the service said "not now"
 * (5xx, 429). An answer that could not be read would most likely come back the same.
 */
export const isRetryable = (e: unknown): boolean => {
  const c = errorClass(e);
  return c === 'unreachable' || (c === 'backOff' && infoOf(e)?.kind !== 'BadResponse');
};

/** Delays that double from `baseMs` up to `maxMs`. */
export interface Backoff {
  baseMs: number;
  maxMs: number;
}

/**
 * The wait after `failures` failures in a row (1 for the first): doubling from `baseMs`, capped
 * at `maxMs`, with "equal jitter" (half fixed, half random) so that clients failing together do
 * not all come back at the same moment.
 */
export function backoffDelay(failures: number, b: Backoff, random: () => number = Math.random): number {
  const d = Math.min(b.maxMs, b.baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(d / 2 + random() * (d / 2));
}

/** For `backoffDelay`'s `random`: the whole doubled wait, no jitter (a pace of one client, not many coming back at once). */
export const noJitter = (): number => 1;

/**
 * The wait after one more failure, from the wait before it (which a Retry-After may have set):
 * the same doubling as `backoffDelay`, at least `baseMs`, capped at `maxMs`, no jitter.
 */
export const doubledDelay = (previousMs: number, b: Backoff): number => Math.min(b.maxMs, Math.max(b.baseMs, previousMs * 2));

/**
 * Retry-After, one rule for every request path (reads, writes, the connectivity monitor, the
 * relay, the tunnel's registration): nothing is sent sooner than the service asked, and no ask
 * holds the console longer than this (a 429 asking for 999,999,999 s, or a date in 9999, waits
 * five minutes, then the service is asked again).
 */
export const RETRY_AFTER_CAP_MS = 5 * 60_000;

/** A Retry-After wait, capped by the one rule. */
export const cappedWait = (askedMs: number): number => Math.min(RETRY_AFTER_CAP_MS, Math.max(0, askedMs));

/**
 * The wait a failure asks for: a 429 or 5xx that said Retry-After (already capped when read),
 * a 429 without one a short default; null when it asks for none.
 */
export function askedWaitMs(e: unknown): number | null {
  const info = infoOf(e);
  if (!info) return null;
  if (info.retryAfterMs !== undefined && (info.kind === 'RateLimited' || info.kind === 'Unavailable')) return cappedWait(info.retryAfterMs);
  return info.kind === 'RateLimited' ? 5_000 : null;
}

/** The wait a service asked for (Retry-After), plus a little jitter for the same reason. */
export function retryAfterDelay(askedMs: number, random: () => number = Math.random): number {
  return askedMs + Math.floor(random() * Math.min(250, askedMs / 4 + 1));
}
