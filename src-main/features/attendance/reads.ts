import type { ThreadMessage } from '../../../src-shared/bridge/attendance';
import { AppError } from '../../../src-shared/errors';
import type { Condition } from '../../../src-shared/query';
import type { ServiceClient } from '../../service';
import type { SyncSource } from '../../sync/engine';
import { toThreadMessage } from './project';

/** Reads of sessions and messages shared by the thread, the close flow and the sync engine. */

type Rec = Record<string, unknown>;
export const THREAD_PAGE = 50;
const bySession = (sessionId: number): Condition => ({ key: 'session.id', operator: 'EQNUM', value: String(sessionId) });

export interface StampedMessage {
  id: number;
  stamp: string | null;
  message: ThreadMessage;
}
export interface StampedSession {
  id: number;
  stamp: string | null;
  record: Rec;
}

export const stampMessage = (m: ThreadMessage): StampedMessage => ({ id: m.id, stamp: m.createdAt, message: m });

export async function readSession(client: ServiceClient, sessionId: number): Promise<Rec> {
  const page = await client.resource('userSession').list({
    conditions: [{ key: 'id', operator: 'EQNUM', value: String(sessionId) }], sort: false, page: 0, size: 1,
  });
  const rec = page.results[0];
  if (!rec) throw new AppError({ kind: 'NotFound', message: `Session ${sessionId} no longer exists on the service.` });
  return rec as Rec;
}

/** Page `page` of the thread, newest first on the wire, returned oldest first. */
export async function threadPage(client: ServiceClient, sessionId: number, page: number): Promise<{ messages: ThreadMessage[]; hasMore: boolean }> {
  const got = await client.resource('message').list({
    conditions: [bySession(sessionId)], sort: true, sortColumn: 'createdAt', direction: 'DESC', page, size: THREAD_PAGE,
  });
  const messages: ThreadMessage[] = [];
  for (const r of got.results) {
    const m = toThreadMessage(r as Rec, sessionId);
    if (m) messages.push(m);
  }
  messages.reverse();
  return { messages, hasMore: got.results.length >= THREAD_PAGE };
}

/** The sync engine's reads: forward from a high-water mark, paging until a short page. */
export function syncSource(client: () => ServiceClient): SyncSource<StampedMessage, StampedSession> {
  return {
    async messagesSince(sessionId, since) {
      const conditions: Condition[] = [bySession(sessionId)];
      if (since) conditions.push({ key: 'createdAt', operator: 'AFTER', value: since, logic: 'AND' });
      const rows = await client().resource('message').pageAll(
        { conditions, sort: true, sortColumn: 'createdAt', direction: 'ASC', size: 500 },
        { cap: 50_000 },
      );
      const out: StampedMessage[] = [];
      for (const r of rows) {
        const m = toThreadMessage(r as Rec, sessionId);
        if (m) out.push(stampMessage(m));
      }
      return out;
    },
    async sessionsSince(since) {
      const rows = await client().resource('userSession').pageAll(
        { conditions: [{ key: 'updatedAt', operator: 'AFTER', value: since }], sort: true, sortColumn: 'updatedAt', direction: 'ASC', size: 500 },
        { cap: 100_000 },
      );
      const out: StampedSession[] = [];
      for (const r of rows) {
        if (typeof r.id === 'number') out.push({ id: r.id, stamp: typeof r.updatedAt === 'string' ? r.updatedAt : null, record: r as Rec });
      }
      return out;
    },
  };
}
