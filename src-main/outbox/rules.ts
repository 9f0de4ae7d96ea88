import type { ErrorInfo } from '../../src-shared/errors';
import { isNetworkKind } from '../cache/connectivity';
import type { Note } from './notes';

/**
 * The outbox's rules: what a failed request says about a note, what the outbox does next, and
 * how long it waits. Pure functions; the scheduler and the delivery apply them.
 */

export interface Backoff {
  baseMs: number;
  maxMs: number;
}

/** Errors on a save that prove the service did not store the note. */
const REFUSALS = new Set(['Invalid', 'Forbidden', 'NotFound']);

export const PAUSED_MESSAGE = 'The service refused the token (401). Notes are kept and will be sent after you sign in again.';

/**
 * What a failed save says about its note:
 * - not-stored: the service answered before storing it (token refused, rate limit), or the
 *   request never left this machine, so it can go again without a read-back;
 * - refused: the service refused the note itself, for good;
 * - maybe-stored: no definitive answer; read the session back (after the settle delay) before
 *   any resend.
 */
export function saveOutcome(info: ErrorInfo): 'not-stored' | 'refused' | 'maybe-stored' {
  if (info.kind === 'Unauthorized' || info.kind === 'RateLimited') return 'not-stored';
  // The client's word that the request never left this machine (a write that left comes back
  // OutcomeUnknown): nothing can have been stored, so no read-back is owed.
  if ((info.kind === 'Unavailable' && info.status === undefined) || info.kind === 'Timeout') return 'not-stored';
  if (REFUSALS.has(info.kind)) return 'refused';
  return 'maybe-stored';
}

/**
 * What the outbox does after a failed request: pause every note until the attendant signs in
 * again, wait out a rate limit, go offline (the monitor probes until the service answers), or
 * back off this session alone.
 */
export function holdAfter(info: ErrorInfo): 'pause' | 'rate-limit' | 'offline' | 'back-off' {
  if (info.kind === 'Unauthorized') return 'pause';
  if (info.kind === 'RateLimited') return 'rate-limit';
  if (isNetworkKind(info.kind)) return 'offline';
  return 'back-off';
}

/**
 * When a session's head note may be tried: after the session's backoff and, for a note whose
 * save may still be travelling, `settleMs` after it was sent, so the read-back cannot miss it.
 */
export function readyAt(head: Note, notBefore: number, settleMs: number): number {
  if (head.state === 'outcome-unknown' || head.state === 'sending') {
    return Math.max(notBefore, (head.lastAttemptAt ?? 0) + settleMs);
  }
  return notBefore;
}

/** Exponential delay with "equal jitter": half fixed, half random, capped. */
export function backoffDelay(failures: number, b: Backoff, random: () => number): number {
  const d = Math.min(b.maxMs, b.baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(d / 2 + random() * (d / 2));
}

/** How long nothing is sent after a rate limit: Retry-After when given, else one backoff step. */
export function rateLimitWait(info: ErrorInfo, retry: Backoff, random: () => number): number {
  const wait = info.retryAfterMs ?? backoffDelay(1, retry, random);
  // A little jitter so several consoles released at once do not collide again.
  return wait + Math.floor(random() * Math.min(250, wait / 4 + 1));
}
