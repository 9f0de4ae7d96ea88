import { backoffDelay, cappedWait, isTemporary } from '../../../src-shared/error-kinds';
import type { ErrorInfo } from '../../../src-shared/errors';
import { BridgeError } from './bridge';

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

/**
 * A view's read that failed, asked again by itself: when (to say so on the page) and its one
 * timer. The store that owns it stops it when it is disposed, so a view gone asks nothing more.
 */
export class ReadRetry {
  #at = $state<number | null>(null);
  #timer: ReturnType<typeof setTimeout> | null = null;
  #failures = 0;

  /** When the read is asked again (ms since epoch), or null. */
  get at(): number | null {
    return this.#at;
  }

  /** The read answered (or a new one starts): nothing is asked again, and the next failure waits the least. */
  reset(): void {
    this.stop();
    this.#failures = 0;
  }

  /** The read failed: `again` runs when the service allows. Null when asking again would change nothing. */
  failed(info: ErrorInfo, again: () => void): number | null {
    this.stop();
    const delay = readRetryDelay(info, ++this.#failures);
    if (delay === null) return null;
    const at = Date.now() + delay;
    this.#at = at;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      again();
    }, delay);
    return at;
  }

  /**
   * A bridge call that failed: asked again as `failed` says; a fault of the page itself (no
   * error value from the main process) is not, since asking again would meet it again.
   */
  failedCall(e: unknown, again: () => void): number | null {
    if (e instanceof BridgeError) return this.failed(e.info, again);
    this.stop();
    return null;
  }

  /** Nothing more is asked (a new read starts, or the view is gone). */
  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#at = null;
  }
}
