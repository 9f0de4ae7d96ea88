import { z } from 'zod';

/**
 * The one error model every caller can act on (service client, outbox, bridge, renderer).
 * It crosses the bridge as `{error:{kind,message,...}}`, never as a stack.
 */
export const ERROR_KINDS = [
  'Unauthorized', // 401: the token was refused; sign in again
  'Forbidden', // 403: the role cannot do this
  'NotFound', // 404
  'Invalid', // 400, or an envelope with status ERROR (message, errorCode)
  'RateLimited', // 429 (retryAfterMs from Retry-After)
  'Unavailable', // 5xx, connection refused or reset before the request was sent
  'Timeout', // no answer in time for a read, or a write that was never sent
  'OutcomeUnknown', // a write was sent but its answer never came: reconcile by reading back
  'BadResponse', // the answer broke the schema (names the operation and the field)
  'Cancelled', // the caller aborted
  'Internal', // a bug on our side, reported without a stack
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/**
 * What happened, where the kind alone does not say it: the page words each in the user's
 * language from this and the fields beside it (`status`, `location`, `limit`).
 */
export const ERROR_REASONS = [
  'unreachable', // no connection to the service
  'timeout', // no answer in time
  'errorPage', // the service answered with an error page (`status`)
  'redirect', // the service redirected the request elsewhere (`location`); not followed
  'tooLarge', // the answer passed its size limit (`limit`, bytes); reading stopped there
  'tooDeep', // the answer was nested deeper than `limit` levels; not parsed
  'malformed', // the answer was not the JSON or the shape the interface states
  'paging', // a list's pages did not end (the same page again, or nothing new)
  'internal', // a fault of the console's own, said in general words; the details are in the log
] as const;
export type ErrorReason = (typeof ERROR_REASONS)[number];

export const ErrorInfoSchema = z.object({
  kind: z.enum(ERROR_KINDS),
  message: z.string(),
  status: z.number().int().optional(),
  errorCode: z.string().optional(),
  retryAfterMs: z.number().optional(),
  operation: z.string().optional(),
  field: z.string().optional(),
  reason: z.enum(ERROR_REASONS).optional(),
  /** Where a redirect pointed. */
  location: z.string().optional(),
  /** The limit an answer passed: bytes for `tooLarge`, levels for `tooDeep`. */
  limit: z.number().optional(),
});
export type ErrorInfo = z.infer<typeof ErrorInfoSchema>;

export class AppError extends Error {
  readonly info: ErrorInfo;
  constructor(info: ErrorInfo, options?: { cause?: unknown }) {
    super(info.message, options);
    this.name = `AppError(${info.kind})`;
    this.info = info;
  }
  get kind(): ErrorKind {
    return this.info.kind;
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** A fault of the console's own, in general words: the details (with the stack) go to the log. */
export const internalError = (operation?: string): ErrorInfo => ({
  kind: 'Internal',
  reason: 'internal',
  message: 'Something went wrong inside the console. The details are in the log.',
  ...(operation !== undefined ? { operation } : {}),
});

/** Turns anything thrown into a value safe to show and to send over the bridge. */
export function toErrorInfo(e: unknown): ErrorInfo {
  if (isAppError(e)) return e.info;
  if (e instanceof Error && e.name === 'AbortError') return { kind: 'Cancelled', message: 'The operation was cancelled.' };
  return internalError();
}
