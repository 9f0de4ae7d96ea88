import { backoffDelay, cappedWait, isTemporary } from '../../../src-shared/error-kinds';
import type { ErrorInfo } from '../../../src-shared/errors';

/**
 * When a view reads again by itself after a read that failed: the wait the service asked for
 * (Retry-After, capped by the one rule), else a backoff from 2 s to 1 min; null when asking again
 * would change nothing (a refusal: the view says why instead).
 */
export function readRetryDelay(info: ErrorInfo, failures: number): number | null {
  if (!isTemporary(info)) return null;
  if (info.retryAfterMs !== undefined) return cappedWait(info.retryAfterMs) + 250;
  return backoffDelay(failures, { baseMs: 2_000, maxMs: 60_000 });
}
