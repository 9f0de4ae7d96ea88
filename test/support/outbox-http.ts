import { Agent, request } from 'undici';
import { z } from 'zod';
import { AppError, type ErrorKind } from '../../src-shared/errors';
import { RESOURCES, V2 } from '../../src-shared/paths';
import { pageEnvelope } from '../../src-shared/envelopes';
import type { CommentTransport } from '../../src-main/outbox/types';

/**
 * A tiny undici CommentTransport for tests and the bench, used until the service client lands.
 * It errs on the side of "outcome unknown" for saves: only a connection refused proves a save
 * never left.
 */
const CommentSchema = z.object({ id: z.number().int(), comment: z.string().nullable().optional() }).loose();
const SavedSchema = z.object({ id: z.number().int() }).loose();
const PageSchema = pageEnvelope(CommentSchema, 'sessionComment');
const PAGE = 500;

export interface HttpTransportOptions {
  baseUrl: string;
  getToken: () => string;
}

export function createHttpCommentTransport(opts: HttpTransportOptions): CommentTransport & { close(): Promise<void> } {
  const agent = new Agent({ keepAliveTimeout: 2_000, connections: 8 });

  async function post(path: string, body: unknown, signal: AbortSignal, write: boolean): Promise<unknown> {
    let res;
    try {
      res = await request(new URL(path, opts.baseUrl), {
        method: 'POST',
        dispatcher: agent,
        signal,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${opts.getToken()}` },
        body: JSON.stringify(body),
      });
    } catch (e) {
      throw failure(e, write);
    }
    let text: string;
    try {
      text = await res.body.text();
    } catch (e) {
      throw failure(e, write);
    }
    if (res.statusCode >= 200 && res.statusCode < 300) {
      try {
        return JSON.parse(text);
      } catch {
        throw err(write ? 'OutcomeUnknown' : 'BadResponse', `unreadable answer (${res.statusCode})`, res.statusCode);
      }
    }
    const s = res.statusCode;
    if (s === 401) throw err('Unauthorized', 'The service refused the token (401). Sign in again.', s);
    if (s === 403) throw err('Forbidden', 'Forbidden (403).', s);
    if (s === 404) throw err('NotFound', 'Not found (404).', s);
    if (s === 429) {
      const ra = Number(res.headers['retry-after']);
      throw new AppError({
        kind: 'RateLimited',
        message: 'Too many requests (429).',
        status: s,
        ...(Number.isFinite(ra) ? { retryAfterMs: ra * 1000 } : {}),
      });
    }
    if (s >= 500) throw err('Unavailable', `The service is unavailable (${s}).`, s);
    let message = `Refused (${s}).`;
    try {
      const env = JSON.parse(text) as { message?: unknown };
      if (typeof env.message === 'string') message = env.message;
    } catch {
      // keep the generic message
    }
    throw err('Invalid', message, s);
  }

  return {
    async save(c, signal) {
      const raw = await post(`${V2}${RESOURCES.sessionComment.save}`, c, signal, true);
      const parsed = SavedSchema.safeParse(raw);
      if (!parsed.success) throw err('OutcomeUnknown', 'the saved record had no id');
      return { id: parsed.data.id };
    },
    async listForSession(sessionId, signal) {
      const out: Array<{ id: number; comment: string }> = [];
      for (let page = 0; page < 10_000; page++) {
        const raw = await post(
          `${V2}${RESOURCES.sessionComment.list}`,
          {
            conditions: [{ key: 'sessionId', operator: 'EQNUM', value: String(sessionId) }],
            sort: true,
            sortColumn: 'id',
            direction: 'ASC',
            page,
            size: PAGE,
          },
          signal,
          false,
        );
        const parsed = PageSchema.safeParse(raw);
        if (!parsed.success) throw err('BadResponse', 'unreadable comment page');
        for (const r of parsed.data.results) out.push({ id: r.id, comment: r.comment ?? '' });
        // The service may cap the size below what we asked: only an empty or short page ends it.
        if (parsed.data.results.length === 0 || parsed.data.results.length < Math.min(PAGE, parsed.data.size || PAGE)) break;
      }
      return out;
    },
    async probe(signal) {
      await post(
        `${V2}${RESOURCES.sessionComment.list}`,
        { conditions: [{ key: 'sessionId', operator: 'EQNUM', value: '0' }], sort: false, page: 0, size: 1 },
        signal,
        false,
      );
    },
    close: () => agent.close(),
  };
}

function err(kind: ErrorKind, message: string, status?: number): AppError {
  return new AppError({ kind, message, ...(status !== undefined ? { status } : {}) });
}

function failure(e: unknown, write: boolean): AppError {
  if (e instanceof AppError) return e;
  const code = (e as { code?: string }).code ?? '';
  const name = (e as { name?: string }).name ?? '';
  if (code === 'ECONNREFUSED') return new AppError({ kind: 'Unavailable', message: 'connection refused' }, { cause: e });
  if (write) return new AppError({ kind: 'OutcomeUnknown', message: `connection lost (${code || name})` }, { cause: e });
  if (name === 'AbortError' || code === 'UND_ERR_ABORTED') return new AppError({ kind: 'Cancelled', message: 'cancelled' }, { cause: e });
  return new AppError({ kind: 'Unavailable', message: `network error (${code || name})` }, { cause: e });
}
