import type { Dispatcher } from 'undici';
import { JsonDepthGauge } from '../../src-shared/json-depth';
import type { AnswerMemory, AnswerReader } from './answer-memory';
import { collectNow } from './collector';

/**
 * One HTTP exchange on an undici dispatcher, through its low-level handler interface. We use
 * it (rather than `request()`) because it tells us when the request was fully written
 * (`onRequestSent`): a write that failed after that point has an unknown outcome, one that
 * failed before it never reached the service. The answer is read as it streams in, within
 * limits: whatever the service sends, the console holds at most `maxBytes` of it.
 */

export interface Exchange {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** How much of an answer is read. */
export interface ReadLimits {
  /** Bytes of a successful (2xx) answer; reading stops past it (`cut: 'too-large'`). */
  maxBytes: number;
  /** Bytes kept of any other answer (an error page says what it needs early); the rest is not read. */
  maxOtherBytes: number;
  /** Nesting allowed in a successful answer read as JSON; reading stops past it (`cut: 'too-deep'`). */
  jsonDepth?: number;
  /** What the answers being read hold between them; this one waits while it is full. */
  memory: AnswerMemory;
}

export interface RawResponse {
  status: number;
  /** Lower-case names; only the headers we read. */
  headers: { contentType?: string; retryAfter?: string; location?: string; date?: string };
  body: Buffer;
  /**
   * Reading stopped before the end: a successful answer passed `maxBytes` or `jsonDepth` (its
   * body is then empty), or another answer passed `maxOtherBytes` (its body is the first part).
   */
  cut?: 'too-large' | 'too-deep' | 'truncated';
}

export type FailureReason = 'network' | 'timeout' | 'cancelled';

export class TransportFailure extends Error {
  constructor(
    readonly reason: FailureReason,
    /** The whole request had been written to the socket. */
    readonly sent: boolean,
    readonly detail: string,
  ) {
    super(`${reason}${sent ? ' after sending' : ' before sending'}: ${detail}`);
    this.name = 'TransportFailure';
  }
}

/** Why we aborted: kept so the failure names timeout or cancellation, not a generic abort. */
export class AbortReason extends Error {
  constructor(readonly reason: 'timeout' | 'cancelled') {
    super(reason);
  }
}

/** Bytes read before other work gets its turn. */
const YIELD_EVERY_BYTES = 256 * 1024;
/** An answer dropped past its limit after this much was read is collected at once. */
const COLLECT_AFTER_BYTES = 1024 * 1024;

const errorDetail = (err: unknown): string => {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' ? `${code} ${err.message}` : err.message;
  }
  return String(err);
};

export function exchange(dispatcher: Dispatcher, ex: Exchange, signal: AbortSignal, limits: ReadLimits): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => {
    let sent = false;
    let settled = false;
    let status = 0;
    const headers: RawResponse['headers'] = {};
    let chunks: Buffer[] = [];
    let received = 0;
    let success = false;
    let limit = limits.maxBytes;
    let gauge: JsonDepthGauge | null = null;
    let abortRequest: ((reason?: Error) => void) | null = null;
    let resume: (() => void) | null = null;
    let sinceYield = 0;
    let held: AnswerReader | null = null;
    /** Reads on, in a later turn of the event loop (never inside another answer's callback). */
    const readOn = () =>
      setImmediate(() => {
        if (!settled) resume?.();
      });

    const reasonOf = (): FailureReason => {
      const r: unknown = signal.reason;
      return r instanceof AbortReason ? r.reason : 'cancelled';
    };
    const fail = (failure: TransportFailure) => {
      if (settled) return;
      settled = true;
      held?.release();
      signal.removeEventListener('abort', onAbort);
      reject(failure);
    };
    const onAbort = () => {
      const reason = reasonOf();
      if (abortRequest) abortRequest(new AbortReason(reason === 'timeout' ? 'timeout' : 'cancelled'));
      else fail(new TransportFailure(reason, false, 'aborted before connecting'));
    };
    const finish = (cut?: RawResponse['cut']) => {
      if (settled) return;
      settled = true;
      // The body passes to the caller, who parses it at once: no longer counted as in flight.
      held?.release();
      signal.removeEventListener('abort', onAbort);
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      chunks = [];
      resolve({ status, headers, body, ...(cut ? { cut } : {}) });
    };
    /** Stops reading here: what came is the answer, and the connection is dropped (the rest is never read). */
    const stop = (cut: NonNullable<RawResponse['cut']>) => {
      if (cut !== 'truncated') chunks = [];
      finish(cut);
      abortRequest?.(new AbortReason('cancelled'));
      // What was read of an answer over its limit is dead now: return it at once (collector.ts).
      if (cut === 'too-large' && received >= COLLECT_AFTER_BYTES) collectNow();
    };

    if (signal.aborted) {
      reject(new TransportFailure(reasonOf(), false, 'aborted before sending'));
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(controller) {
        abortRequest = (reason) => controller.abort(reason ?? new AbortReason('cancelled'));
        if (signal.aborted) onAbort();
      },
      onRequestSent() {
        sent = true;
      },
      onResponseStart(controller, statusCode, responseHeaders) {
        if (statusCode < 200) return; // informational answers precede the real one
        status = statusCode;
        resume = () => controller.resume();
        const header = (name: string) => {
          const v = responseHeaders[name];
          return Array.isArray(v) ? v[0] : v;
        };
        const contentType = header('content-type');
        const retryAfter = header('retry-after');
        const location = header('location');
        const date = header('date');
        if (contentType !== undefined) headers.contentType = contentType;
        if (retryAfter !== undefined) headers.retryAfter = retryAfter;
        if (location !== undefined) headers.location = location;
        // The service's clock, true UTC: what its date-times without an offset are measured against.
        if (date !== undefined) headers.date = date;
        const length = header('content-length');
        success = status >= 200 && status < 300;
        limit = success ? limits.maxBytes : limits.maxOtherBytes;
        if (success && limits.jsonDepth !== undefined) gauge = new JsonDepthGauge(limits.jsonDepth);
        // Announced too large: not a byte of it is read.
        if (success && length !== undefined && Number(length) > limit) stop('too-large');
      },
      onResponseData(controller, chunk) {
        if (settled) return;
        received += chunk.length;
        if (received > limit) {
          if (success) stop('too-large');
          else {
            chunks.push(chunk.subarray(0, chunk.length - (received - limit)));
            stop('truncated');
          }
          return;
        }
        if (gauge && !gauge.feed(chunk)) {
          stop('too-deep');
          return;
        }
        chunks.push(chunk);
        held ??= limits.memory.open();
        if (!held.take(chunk.length, readOn)) return void controller.pause();
        sinceYield += chunk.length;
        if (sinceYield < YIELD_EVERY_BYTES) return;
        // A long answer is read over many turns of the event loop, never in one: whatever the
        // service sends, the console's other work (bridge calls) runs in between.
        sinceYield = 0;
        controller.pause();
        readOn();
      },
      onResponseEnd() {
        finish();
      },
      onResponseError(_controller, err) {
        if (err instanceof AbortReason) fail(new TransportFailure(err.reason, sent, 'aborted'));
        else if (signal.aborted) fail(new TransportFailure(reasonOf(), sent, errorDetail(err)));
        else fail(new TransportFailure('network', sent, errorDetail(err)));
      },
    };

    try {
      dispatcher.dispatch({ method: ex.method, path: ex.path, headers: ex.headers, body: ex.body ?? null }, handler);
    } catch (err) {
      fail(new TransportFailure('network', false, errorDetail(err)));
    }
  });
}
