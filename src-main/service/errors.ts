import type { z } from 'zod';
import { AppError } from '../../src-shared/errors';
import { ErrorEnvelopeSchema } from '../../src-shared/envelopes';
import type { RawResponse, TransportFailure } from './transport';

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
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function tryJson(body: Buffer): unknown {
  if (body.length === 0) return undefined;
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

export function errorFromStatus(ctx: OpContext, res: RawResponse): AppError {
  const { status } = res;
  const base = { operation: ctx.operation, status };
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
    const when = retryAfterMs !== undefined ? ` Try again in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.` : ' Try again shortly.';
    return new AppError({
      kind: 'RateLimited',
      message: `The service is receiving too many requests (429).${when}`,
      ...base,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }
  if (status >= 500) {
    return new AppError({ kind: 'Unavailable', message: `The service is unavailable (${status}). Try again shortly.`, ...base });
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
      message: `The service did not answer in time while trying to ${ctx.action}. Check the connection and try again.`,
      ...base,
    });
  }
  return new AppError({
    kind: 'Unavailable',
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
    message: `The service answered "${ctx.operation}" with data the console cannot read (field ${field}: ${issue?.message ?? 'invalid'}).`,
    operation: ctx.operation,
    field,
  });
}

export function unreadable(ctx: OpContext, status: number, what: string): AppError {
  if (ctx.write) {
    return new AppError({
      kind: 'OutcomeUnknown',
      message: `The service took the request to ${ctx.action} but its answer was unreadable (${what}); it may or may not have been saved.`,
      operation: ctx.operation,
      status,
    });
  }
  return new AppError({
    kind: 'BadResponse',
    message: `The service answered "${ctx.operation}" with ${what}.`,
    operation: ctx.operation,
    status,
  });
}
