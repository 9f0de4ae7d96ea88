import type { z } from 'zod';

/** What a handler answers; objects in `body` are sent as JSON by the server that mounts us. */
export interface AiResponse {
  status: number;
  headers?: Record<string, string>;
  body?: Buffer | string | object;
}

/** Error codes of the AI family (the interface leaves them open; DESIGN.md §2 keeps 400 as ERROR envelopes). */
export type AiErrorCode =
  | 'INVALID_JSON'
  | 'INVALID_BODY'
  | 'PAYLOAD_TOO_LARGE'
  | 'METHOD_NOT_ALLOWED'
  | 'INVALID_INDEX_NAME'
  | 'INVALID_URL'
  | 'DRIVE_LINK_REFUSED'
  | 'UNSUPPORTED_FILE_TYPE'
  | 'UNKNOWN_PROVIDER'
  | 'UNKNOWN_MODEL'
  | 'PROVIDER_UNREACHABLE'
  | 'LANGUAGE_NOT_INSTALLED'
  | 'UNKNOWN_VOICE'
  | 'AUDIO_UNREADABLE'
  | 'MISSING_BINARY'
  | 'VOICE_FAILED'
  | 'INTERNAL';

export const ok = (body: object): AiResponse => ({ status: 200, body });

export const notFound = (message?: string): AiResponse => ({
  status: 404,
  body: message ? { status: 'Not Found', message } : { status: 'Not Found' },
});

export const failure = (status: number, message: string, errorCode: AiErrorCode, headers?: Record<string, string>): AiResponse => ({
  status,
  ...(headers ? { headers } : {}),
  body: { status: 'ERROR', message, errorCode },
});

export const badRequest = (message: string, errorCode: AiErrorCode = 'INVALID_BODY'): AiResponse => failure(400, message, errorCode);

/** A thrown answer: lets deep helpers stop a request with a precise status. */
export class AiHttpError extends Error {
  constructor(readonly response: AiResponse) {
    super(
      typeof response.body === 'object' && response.body && 'message' in response.body
        ? String(response.body.message)
        : `HTTP ${response.status}`,
    );
  }
}

/** Parses a JSON body through a zod schema, or answers 400 naming the first bad field. */
export function parseJsonBody<T extends z.ZodType>(body: Buffer, schema: T): z.infer<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(body.toString('utf8'));
  } catch {
    throw new AiHttpError(badRequest('The body is not valid JSON.', 'INVALID_JSON'));
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length ? issue.path.join('.') : 'body';
    throw new AiHttpError(badRequest(`Invalid ${where}: ${issue?.message ?? 'bad value'}.`, 'INVALID_BODY'));
  }
  return parsed.data;
}
