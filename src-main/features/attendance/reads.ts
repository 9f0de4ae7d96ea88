import type { ThreadMessage } from '../../../src-shared/bridge/attendance';
import { AppError } from '../../../src-shared/errors';
import type { Condition } from '../../../src-shared/query';
import type { ServiceClient } from '../../service';
import type { SyncSource } from '../../sync/engine';
import type { Parties } from '../../../src-shared/concepts';
import type { Read } from '../../../src-shared/envelopes';
import type { Message, Session } from '../../../src-shared/schemas/index';
import { lacking, Skips, type Unreadable } from '../../../src-shared/unreadable';
import { toThreadMessage } from './project';
import { listedNewestFirst, messageTime, oldestFirst } from '../../../src-shared/newest';
import { eqNum } from '../../../src-shared/query-builder';

/** Reads of sessions and messages shared by the thread, the close flow and the sync engine. */

export const THREAD_PAGE = 50;
const bySession = (sessionId: number): Condition => eqNum('session.id', sessionId);

export interface StampedMessage {
  id: number;
  stamp: string | null;
  message: ThreadMessage;
}
export interface StampedSession {
  id: number;
  stamp: string | null;
  record: Read<Session>;
}

export const stampMessage = (m: ThreadMessage): StampedMessage => ({ id: m.id, stamp: m.createdAt, message: m });

export async function readSession(client: ServiceClient, sessionId: number): Promise<Read<Session>> {
  const page = await client.resource('userSession').list({
    conditions: [eqNum('id', sessionId)],
    sort: false,
    page: 0,
    size: 1,
  });
  const rec = page.results[0];
  if (!rec) {
    // A record that could not be read is not a missing session: say why it cannot be shown.
    if (page.first)
      throw new AppError({
        kind: 'BadResponse',
        message: `Session ${sessionId} could not be read: ${page.first.field ?? 'record'}: ${page.first.reason}.`,
      });
    throw new AppError({ kind: 'NotFound', message: `Session ${sessionId} no longer exists on the service.` });
  }
  return rec;
}

/** Who is on each side of a session, for telling its messages apart (null: not known yet). */
export type PartiesOf = (sessionId: number) => Parties | undefined;

/**
 * Page `page` of the thread, asked newest first on the wire, returned oldest first by time. `unreadable`
 * counts the records that could not be read as messages (the rest of the page is shown).
 */
export async function threadPage(
  client: ServiceClient,
  sessionId: number,
  page: number,
  partiesOrRead?: Parties | Promise<Parties | undefined>,
): Promise<{ messages: ThreadMessage[]; hasMore: boolean; unreadable: Unreadable }> {
  // The parties may still be on their way (the session read runs alongside this one).
  const [got, parties] = await Promise.all([
    client
      .resource('message')
      .list({ conditions: [bySession(sessionId)], sort: true, sortColumn: 'createdAt', direction: 'DESC', page, size: THREAD_PAGE }),
    partiesOrRead,
  ]);
  const skips = new Skips();
  skips.addAll({ count: got.skipped, first: got.first });
  const ordered = threadMessagesOf(got.results, sessionId, parties, skips);
  // A full page means there may be more; so does a page as long as a smaller size the server
  // says it used (a server may cap the page size; 50, the size asked, is the cap reported).
  const answered = got.results.length + got.skipped;
  const capped = got.size > 0 && got.size < THREAD_PAGE && answered >= got.size;
  const hasMore = answered >= THREAD_PAGE || capped;
  // A full first page not listed newest first came from a service that ignores the sort: it
  // holds any of the thread's messages, not its newest, and its later pages are no older ones.
  // The thread is read whole (bounded) and shown by time, so its newest line is never missed.
  if (page === 0 && hasMore && !listedNewestFirst(got.results, (r) => ({ at: r.createdAt, id: r.id ?? 0 })))
    return wholeThread(client, sessionId, parties);
  return { messages: ordered, hasMore, unreadable: skips.summary() };
}

/**
 * Messages of a thread read whole when the service's pages are in no order. Cut at the cap, the
 * thread says it has more (its beginning is not among them): paging on through the service's
 * own order reaches the rest, which join the thread by time.
 */
const WHOLE_THREAD_CAP = 5_000;

async function wholeThread(
  client: ServiceClient,
  sessionId: number,
  parties: Parties | undefined,
): Promise<{ messages: ThreadMessage[]; hasMore: boolean; unreadable: Unreadable }> {
  const got = await client
    .resource('message')
    .collect(
      { conditions: [bySession(sessionId)], sort: true, sortColumn: 'createdAt', direction: 'DESC', size: 500 },
      { cap: WHOLE_THREAD_CAP },
    );
  const skips = new Skips();
  skips.addAll({ count: got.skipped, first: got.first });
  return { messages: threadMessagesOf(got.records, sessionId, parties, skips), hasMore: got.truncated, unreadable: skips.summary() };
}

/** A page's messages as the thread shows them: oldest first by time, whatever order the service listed them in. */
export function threadMessagesOf(
  records: Iterable<Read<Message>>,
  sessionId: number,
  parties: Parties | undefined,
  skips = new Skips(),
): ThreadMessage[] {
  const messages: ThreadMessage[] = [];
  for (const r of records) {
    const m = toThreadMessage(r, sessionId, parties);
    if (m) messages.push(m);
    else skips.add(lacking('message', r, 'id'));
  }
  return oldestFirst(messages, messageTime);
}

/** The sync engine's reads: forward from a high-water mark, paging until a short page. */
export function syncSource(
  client: () => ServiceClient,
  partiesOf: PartiesOf = () => undefined,
): SyncSource<StampedMessage, StampedSession> {
  return {
    async messagesSince(sessionId, since) {
      const conditions: Condition[] = [bySession(sessionId)];
      if (since) conditions.push({ key: 'createdAt', operator: 'AFTER', value: since, logic: 'AND' });
      const rows = await client()
        .resource('message')
        .pageAll({ conditions, sort: true, sortColumn: 'createdAt', direction: 'ASC', size: 500 }, { cap: 50_000 });
      // Oldest first as promised, whatever order the service listed them in.
      return threadMessagesOf(rows, sessionId, partiesOf(sessionId)).map(stampMessage);
    },
    async sessionsSince(since) {
      const rows = await client()
        .resource('userSession')
        .pageAll(
          {
            conditions: [{ key: 'updatedAt', operator: 'AFTER', value: since }],
            sort: true,
            sortColumn: 'updatedAt',
            direction: 'ASC',
            size: 500,
          },
          { cap: 100_000 },
        );
      const out: StampedSession[] = [];
      for (const r of rows) if (r.id != null) out.push({ id: r.id, stamp: r.updatedAt ?? null, record: r });
      return out;
    },
  };
}
