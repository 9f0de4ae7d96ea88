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

const reasonOf = (signal: AbortSignal): FailureReason => {
  const r: unknown = signal.reason;
  return r instanceof AbortReason ? r.reason : 'cancelled';
};

export function exchange(dispatcher: Dispatcher, ex: Exchange, signal: AbortSignal, limits: ReadLimits): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => {
    if (signal.aborted) {
      reject(new TransportFailure(reasonOf(signal), false, 'aborted before sending'));
      return;
    }
    const handler = new AnswerRead(signal, limits, resolve, reject);
    try {
      dispatcher.dispatch({ method: ex.method, path: ex.path, headers: ex.headers, body: ex.body ?? null }, handler);
    } catch (err) {
      handler.fail(new TransportFailure('network', false, errorDetail(err)));
    }
  });
}

/** The headers of an answer the client reads. */
function answerHeaders(responseHeaders: Record<string, string | string[] | undefined>): RawResponse['headers'] {
  const headers: RawResponse['headers'] = {};
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
  return headers;
}

/** One exchange's answer as it is read: within its limits, over many turns of the event loop. */
class AnswerRead implements Dispatcher.DispatchHandler {
  readonly #signal: AbortSignal;
  readonly #limits: ReadLimits;
  readonly #resolve: (r: RawResponse) => void;
  readonly #reject: (e: unknown) => void;
  #sent = false;
  #settled = false;
  #status = 0;
  #headers: RawResponse['headers'] = {};
  #chunks: Buffer[] = [];
  #received = 0;
  #success = false;
  #limit: number;
  #gauge: JsonDepthGauge | null = null;
  #abortRequest: ((reason?: Error) => void) | null = null;
  #resume: (() => void) | null = null;
  #sinceYield = 0;
  #held: AnswerReader | null = null;
  /** Reads on, in a later turn of the event loop (never inside another answer's callback). */
  readonly #readOn = (): void => {
    setImmediate(() => {
      if (!this.#settled) this.#resume?.();
    });
  };
  readonly #onAbort = (): void => {
    const reason = reasonOf(this.#signal);
    if (this.#abortRequest) this.#abortRequest(new AbortReason(reason === 'timeout' ? 'timeout' : 'cancelled'));
    else this.fail(new TransportFailure(reason, false, 'aborted before connecting'));
  };

  constructor(signal: AbortSignal, limits: ReadLimits, resolve: (r: RawResponse) => void, reject: (e: unknown) => void) {
    this.#signal = signal;
    this.#limits = limits;
    this.#limit = limits.maxBytes;
    this.#resolve = resolve;
    this.#reject = reject;
    signal.addEventListener('abort', this.#onAbort, { once: true });
  }

  fail(failure: TransportFailure): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#held?.release();
    this.#signal.removeEventListener('abort', this.#onAbort);
    this.#reject(failure);
  }

  #finish(cut?: RawResponse['cut']): void {
    if (this.#settled) return;
    this.#settled = true;
    // The body passes to the caller, who parses it at once: no longer counted as in flight.
    this.#held?.release();
    this.#signal.removeEventListener('abort', this.#onAbort);
    const chunks = this.#chunks;
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    this.#chunks = [];
    this.#resolve({ status: this.#status, headers: this.#headers, body, ...(cut ? { cut } : {}) });
  }

  /** Stops reading here: what came is the answer, and the connection is dropped (the rest is never read). */
  #stop(cut: NonNullable<RawResponse['cut']>): void {
    if (cut !== 'truncated') this.#chunks = [];
    this.#finish(cut);
    this.#abortRequest?.(new AbortReason('cancelled'));
    // What was read of an answer over its limit is dead now: return it at once (collector.ts).
    if (cut === 'too-large' && this.#received >= COLLECT_AFTER_BYTES) collectNow();
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#abortRequest = (reason) => controller.abort(reason ?? new AbortReason('cancelled'));
    if (this.#signal.aborted) this.#onAbort();
  }

  onRequestSent(): void {
    this.#sent = true;
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    responseHeaders: Record<string, string | string[] | undefined>,
  ): void {
    if (statusCode < 200) return; // informational answers precede the real one
    this.#status = statusCode;
    this.#resume = () => controller.resume();
    this.#headers = answerHeaders(responseHeaders);
    const length = Array.isArray(responseHeaders['content-length'])
      ? responseHeaders['content-length'][0]
      : responseHeaders['content-length'];
    const success = (this.#success = statusCode >= 200 && statusCode < 300);
    this.#limit = success ? this.#limits.maxBytes : this.#limits.maxOtherBytes;
    if (success && this.#limits.jsonDepth !== undefined) this.#gauge = new JsonDepthGauge(this.#limits.jsonDepth);
    // Announced too large: not a byte of it is read.
    if (success && length !== undefined && Number(length) > this.#limit) this.#stop('too-large');
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#settled) return;
    this.#received += chunk.length;
    if (this.#received > this.#limit) {
      if (this.#success) this.#stop('too-large');
      else {
        this.#chunks.push(chunk.subarray(0, chunk.length - (this.#received - this.#limit)));
        this.#stop('truncated');
      }
      return;
    }
    if (this.#gauge && !this.#gauge.feed(chunk)) {
      this.#stop('too-deep');
      return;
    }
    this.#chunks.push(chunk);
    this.#held ??= this.#limits.memory.open();
    if (!this.#held.take(chunk.length, this.#readOn)) return void controller.pause();
    this.#sinceYield += chunk.length;
    if (this.#sinceYield < YIELD_EVERY_BYTES) return;
    // A long answer is read over many turns of the event loop, never in one: whatever the
    // service sends, the console's other work (bridge calls) runs in between.
    this.#sinceYield = 0;
    controller.pause();
    this.#readOn();
  }

  onResponseEnd(): void {
    this.#finish();
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    if (err instanceof AbortReason) this.fail(new TransportFailure(err.reason, this.#sent, 'aborted'));
    else if (this.#signal.aborted) this.fail(new TransportFailure(reasonOf(this.#signal), this.#sent, errorDetail(err)));
    else this.fail(new TransportFailure('network', this.#sent, errorDetail(err)));
  }
}
