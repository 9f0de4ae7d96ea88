import type { z } from 'zod';
import { AppError } from '../../src-shared/errors';
import { cappedWait } from '../../src-shared/error-kinds';
import { nestsDeeperThan } from '../../src-shared/json-depth';
import { sizeWords } from '../../src-shared/size-words';
import { ErrorEnvelopeSchema } from '../../src-shared/envelopes';
import type { RawResponse, TransportFailure } from './transport';
import { systemClock } from '../clock';

/**
 * Maps HTTP answers and transport failures to the one error model (src-shared/errors.ts),
 * with messages a user can act on.
 */

export interface OpContext {
  /** Stable name, e.g. `sessionComment.save`. */
  operation: string;
  /** What the user tried, as a verb phrase: "save session comments". */
  action: string;
  write: boolean;
  notFound?: string;
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = systemClock.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  // Capped as it is read (RETRY_AFTER_CAP_MS), so no path waits longer than the one rule says.
  if (/^\d+(\.\d+)?$/.test(v)) return cappedWait(Math.round(Number(v) * 1000));
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : cappedWait(at - now);
}

/** "in 40 s", "in 5 min": how long the service asked us to wait, in words. */
export function waitWords(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  return s < 120 ? `${s} s` : `${Math.ceil(s / 60)} min`;
}

function tryJson(body: Buffer): unknown {
  if (body.length === 0 || nestsDeeperThan(body)) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** An envelope with status ERROR (interface §7.3). Records carry ids; envelopes do not. */
export function errorEnvelope(value: unknown): { message?: string; errorCode?: string } | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || 'id' in value) return null;
  const parsed = ErrorEnvelopeSchema.safeParse(value);
  if (!parsed.success) return null;
  const out: { message?: string; errorCode?: string } = {};
  if (parsed.data.message) out.message = parsed.data.message;
  if (parsed.data.errorCode !== undefined) out.errorCode = String(parsed.data.errorCode);
  return out;
}

export function invalidFromEnvelope(ctx: OpContext, env: { message?: string; errorCode?: string }, status?: number): AppError {
  const detail = env.message ? `: ${env.message}` : '';
  const code = env.errorCode ? ` [${env.errorCode}]` : '';
  return new AppError({
    kind: 'Invalid',
    message: `The service refused to ${ctx.action}${detail}${code}.`,
    operation: ctx.operation,
    ...(status !== undefined ? { status } : {}),
    ...(env.errorCode !== undefined ? { errorCode: env.errorCode } : {}),
  });
}

/**
 * Where a redirect pointed, as an address to show: resolved against the request's, without
 * credentials, query or fragment (they may carry secrets), and short.
 */
function redirectTarget(location: string | undefined, requestUrl: string): string | undefined {
  if (location === undefined || location.trim() === '') return undefined;
  try {
    const u = new URL(location.trim(), requestUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return `${u.protocol} address`;
    return `${u.origin}${u.pathname}`.slice(0, 300);
  } catch {
    return undefined;
  }
}

/** `requestUrl`: the address asked, to say where a redirect pointed. */
export function errorFromStatus(ctx: OpContext, res: RawResponse, requestUrl: string): AppError {
  const { status } = res;
  const base = { operation: ctx.operation, status };
  if (status >= 300 && status < 400) {
    // Not followed: the token must not travel to another address, and a moved service is the
    // user's to confirm (a new address in the workspace), not ours to assume.
    const location = redirectTarget(res.headers.location, requestUrl);
    return new AppError({
      kind: 'Invalid',
      reason: 'redirect',
      message: `The service redirected the request to ${ctx.action} ${location ? `to ${location} ` : ''}(${status}); the console does not follow redirects. Check the service address.`,
      ...base,
      ...(location ? { location } : {}),
    });
  }
  if (status === 401) {
    return new AppError({ kind: 'Unauthorized', message: 'The service refused the token (401). Sign in again.', ...base });
  }
  if (status === 403) {
    return new AppError({
      kind: 'Forbidden',
      message: `Your role cannot ${ctx.action} (403). Ask a supervisor or an administrator.`,
      ...base,
    });
  }
  if (status === 404) {
    return new AppError({ kind: 'NotFound', message: ctx.notFound ?? `The service found nothing to ${ctx.action} (404).`, ...base });
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(res.headers.retryAfter);
    const when =
      retryAfterMs !== undefined ? ` Try again in ${waitWords(retryAfterMs)} (the service asked us to wait).` : ' Try again shortly.';
    return new AppError({
      kind: 'RateLimited',
      message: `The service is receiving too many requests (429).${when}`,
      ...base,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }
  if (status >= 500) {
    // A 503 may say how long to stay away too: the same rule as a 429's.
    const retryAfterMs = parseRetryAfter(res.headers.retryAfter);
    return new AppError({
      kind: 'Unavailable',
      reason: 'errorPage',
      message: `The service failed to ${ctx.action}: it answered with an error page (${status}). Try again shortly.`,
      ...base,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }
  const env = errorEnvelope(tryJson(res.body));
  if (env) return invalidFromEnvelope(ctx, env, status);
  return new AppError({ kind: 'Invalid', message: `The service refused to ${ctx.action} (${status}).`, ...base });
}

export function errorFromFailure(ctx: OpContext, f: TransportFailure): AppError {
  const base = { operation: ctx.operation };
  // A write that left this machine may have been applied: only reading back can tell.
  if (ctx.write && f.sent) {
    const why =
      f.reason === 'timeout'
        ? 'no answer came in time'
        : f.reason === 'cancelled'
          ? 'it was cancelled while in flight'
          : 'the connection closed before the answer';
    return new AppError({
      kind: 'OutcomeUnknown',
      message: `The request to ${ctx.action} was sent but ${why}; it may or may not have been saved. The console will check before repeating it.`,
      ...base,
    });
  }
  if (f.reason === 'cancelled') return new AppError({ kind: 'Cancelled', message: 'The operation was cancelled.', ...base });
  if (f.reason === 'timeout') {
    return new AppError({
      kind: 'Timeout',
      reason: 'timeout',
      message: `The service did not answer in time while trying to ${ctx.action}. Check the connection and try again.`,
      ...base,
    });
  }
  return new AppError({
    kind: 'Unavailable',
    reason: 'unreachable',
    message: `The service could not be reached to ${ctx.action}. Check the connection and try again.`,
    ...base,
  });
}

/** `results.3.groupConf.id` from a zod issue path. */
export function issuePath(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return '(root)';
  return issue.path.length ? issue.path.map(String).join('.') : '(root)';
}

export function badResponse(ctx: OpContext, error: z.ZodError): AppError {
  const field = issuePath(error);
  const issue = error.issues[0];
  return new AppError({
    kind: 'BadResponse',
    reason: 'malformed',
    message: `The service answered "${ctx.operation}" with data the console cannot read (field ${field}: ${issue?.message ?? 'invalid'}).`,
    operation: ctx.operation,
    field,
  });
}

/** Why an answer could not be read, with what the page needs to say it in words. */
type Unreadable = { reason: 'malformed'; what: string } | { reason: 'tooLarge'; limit: number } | { reason: 'tooDeep'; limit: number };

export function unreadable(ctx: OpContext, status: number, why: Unreadable): AppError {
  const what =
    why.reason === 'malformed'
      ? why.what
      : why.reason === 'tooLarge'
        ? `an answer larger than its limit of ${sizeWords(why.limit)} (reading stopped there)`
        : `an answer nested more than ${why.limit} levels deep (not read)`;
  const base = { operation: ctx.operation, status };
  if (ctx.write) {
    // What matters most here is that it may have been saved: the kind says so, not the reason.
    return new AppError({
      kind: 'OutcomeUnknown',
      message: `The service took the request to ${ctx.action} but answered with ${what}; it may or may not have been saved.`,
      ...base,
    });
  }
  return new AppError({
    kind: 'BadResponse',
    message: `The service answered "${ctx.operation}" with ${what}.`,
    reason: why.reason,
    ...base,
    ...(why.reason === 'malformed' ? {} : { limit: why.limit }),
  });
}
