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

export const ErrorInfoSchema = z.object({
  kind: z.enum(ERROR_KINDS),
  message: z.string(),
  status: z.number().int().optional(),
  errorCode: z.string().optional(),
  retryAfterMs: z.number().optional(),
  operation: z.string().optional(),
  field: z.string().optional(),
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

/** Turns anything thrown into a value safe to show and to send over the bridge. */
export function toErrorInfo(e: unknown): ErrorInfo {
  if (isAppError(e)) return e.info;
  if (e instanceof Error && e.name === 'AbortError') return { kind: 'Cancelled', message: 'The operation was cancelled.' };
  return { kind: 'Internal', message: 'Something went wrong inside the console. The details are in the log.' };
}
