import { idOf } from '../../src-shared/concepts';
import { AppError } from '../../src-shared/errors';
import { query } from '../../src-shared/query-builder';
import type { ServiceClient } from '../service';
import type { CommentTransport } from './types';

/** Read-backs list every note of one session; far beyond any real session, bounded all the same. */
const READ_BACK_CAP = 50_000;

type CommentClient = Pick<ServiceClient, 'resource'>;

/**
 * The outbox's view of the service: session-comment save, read-back and a light probe, over the
 * service client (which maps every failure to an AppError and never repeats a write by itself).
 * `client` is a client or a getter of the signed-in workspace's current one.
 */
export function createCommentTransport(client: CommentClient | (() => CommentClient)): CommentTransport {
  const comments = () => (typeof client === 'function' ? client() : client).resource('sessionComment');
  return {
    async save(c, signal) {
      const saved = await comments().save({ sessionId: c.sessionId, comment: c.comment }, { signal });
      const id = idOf(saved.id);
      if (id === null) {
        // It answered 2xx, so it most likely stored the note: reading back will tell.
        throw new AppError({
          kind: 'OutcomeUnknown',
          message: 'The service saved the note but did not return its id; the console will check the session before repeating it.',
          operation: 'sessionComment.save',
          field: 'id',
        });
      }
      return { id };
    },
    async listForSession(sessionId, signal) {
      const q = query().where('sessionId').eqNum(sessionId).sortBy('id', 'ASC');
      const got = await comments().collect(q, { signal, cap: READ_BACK_CAP });
      if (got.truncated) {
        throw new AppError({
          kind: 'BadResponse',
          message: `Session ${sessionId} has more notes than the console can check; a pending note cannot be confirmed safely.`,
          operation: 'sessionComment.list',
        });
      }
      const out: Array<{ id: number; comment: string }> = [];
      for (const r of got.records) {
        const id = idOf(r.id);
        if (id !== null) out.push({ id, comment: r.comment ?? '' });
      }
      return out;
    },
    async probe(signal) {
      // Any answer proves the service is reachable; a refused token surfaces as Unauthorized.
      await comments().list(query().where('sessionId').eqNum(0).size(1), { signal });
    },
  };
}
