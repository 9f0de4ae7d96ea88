import type { Dispatcher } from 'undici';

/**
 * One HTTP exchange on an undici dispatcher, through its low-level handler interface. We use
 * it (rather than `request()`) because it tells us when the request was fully written
 * (`onRequestSent`): a write that failed after that point has an unknown outcome, one that
 * failed before it never reached the service.
 */

export interface Exchange {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  /** Lower-case names; only the headers we read. */
  headers: { contentType?: string; retryAfter?: string };
  body: Buffer;
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

const errorDetail = (err: unknown): string => {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' ? `${code} ${err.message}` : err.message;
  }
  return String(err);
};

export function exchange(dispatcher: Dispatcher, ex: Exchange, signal: AbortSignal): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => {
    let sent = false;
    let settled = false;
    let status = 0;
    let contentType: string | undefined;
    let retryAfter: string | undefined;
    const chunks: Buffer[] = [];
    let abortRequest: ((reason?: Error) => void) | null = null;

    const reasonOf = (): FailureReason => {
      const r: unknown = signal.reason;
      return r instanceof AbortReason ? r.reason : 'cancelled';
    };
    const fail = (failure: TransportFailure) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      reject(failure);
    };
    const onAbort = () => {
      const reason = reasonOf();
      if (abortRequest) abortRequest(new AbortReason(reason === 'timeout' ? 'timeout' : 'cancelled'));
      else fail(new TransportFailure(reason, false, 'aborted before connecting'));
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
      onResponseStart(_controller, statusCode, headers) {
        if (statusCode < 200) return; // informational answers precede the real one
        status = statusCode;
        const header = (name: string) => {
          const v = headers[name];
          return Array.isArray(v) ? v[0] : v;
        };
        contentType = header('content-type');
        retryAfter = header('retry-after');
      },
      onResponseData(_controller, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        const headers: RawResponse['headers'] = {};
        if (contentType !== undefined) headers.contentType = contentType;
        if (retryAfter !== undefined) headers.retryAfter = retryAfter;
        resolve({ status, headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
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
