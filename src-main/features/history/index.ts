import type { CustomerHistory, CustomerTicket, PastSession } from '../../../src-shared/bridge/history';
import { classificationRecordOf, msOf, sessionAgentOf, sessionCustomerOf, type Parties } from '../../../src-shared/concepts';
import type { Read } from '../../../src-shared/envelopes';
import { isUnreachable } from '../../../src-shared/error-kinds';
import { oneOf, eqNum } from '../../../src-shared/query-builder';
import type { Session } from '../../../src-shared/schemas/index';
import type { ResourceRecord } from '../../../src-shared/schemas/resources';
import { NONE_UNREADABLE } from '../../../src-shared/unreadable';
import { toQueueItem } from '../../queue';
import type { ServiceClient } from '../../service';
import { readSession, threadPage } from '../attendance/reads';
import type { Feature, FeatureContext } from '../context';
import type { OfflineFeature } from '../offline';
import { toTicketView } from '../supervisor/views';
import { oldestFirst } from '../../../src-shared/newest';
import { searchKept, searchService } from './search';
import type { Clock } from '../../clock';

/** Earlier sessions the panel reads at once (newest first); "more" says when there are others. */
export const HISTORY_ROWS = 30;
/** Tickets looked up one by one (the ticket family has no list): the newest sessions' first. */
const TICKETS = 8;

/**
 * The attendant's context: the customer panel (their earlier sessions, tickets and survey
 * answers, read when the panel opens), an earlier session read without opening it, and the
 * search over sessions and messages (a newer search cancels the one still running).
 */
export function createHistoryFeature(ctx: FeatureContext, offline: OfflineFeature): Feature<'history'> {
  /** Who is on each side of the sessions listed, so their messages' authors read right. */
  const parties = new Map<number, Parties>();
  const remember = (s: Read<Session>) => {
    if (s.id == null) return;
    parties.set(s.id, { customer: sessionCustomerOf(s), agent: sessionAgentOf(s) });
    if (parties.size > 2_000) parties.delete(parties.keys().next().value as number);
  };
  let running: AbortController | null = null;

  return {
    handlers: {
      'history:customer': async ({ sessionId }) => customerHistory(ctx.client(), sessionId, remember, ctx.clock),

      'history:session': async ({ sessionId }) => {
        const page = await threadPage(ctx.client(), sessionId, 0, parties.get(sessionId));
        return { messages: page.messages, hasMore: page.hasMore, unreadable: page.unreadable };
      },

      'history:search': async ({ query }) => {
        running?.abort();
        const ac = new AbortController();
        running = ac;
        const q = query.trim();
        const answer = { query, superseded: false, offline: false, keptAt: null };
        if (q.length < 2) return { ...answer, hits: [] };
        const kept = async () => ({ ...answer, ...(await searchKept(offline.cache, q)), offline: true });
        if (offline.monitor.offline) return kept();
        try {
          const hits = await offline.monitor.watch(searchService(ctx.client(), q, ac.signal, remember));
          return { ...answer, hits };
        } catch (e) {
          if (ac.signal.aborted) return { ...answer, hits: [], superseded: true };
          if (isUnreachable(e)) return kept();
          throw e;
        } finally {
          if (running === ac) running = null;
        }
      },
    },
    async stop() {
      // The search still running was the person's who signed out.
      running?.abort();
    },
  };
}

/** Each session's classification path, from the classification records read. */
function classesBySession(classes: readonly Read<ResourceRecord<'classificationService'>>[]): Map<number, string> {
  const classOf = new Map<number, string>();
  for (const c of classes) {
    const path = classificationRecordOf(c).path;
    if (c.sessionId != null && path) classOf.set(c.sessionId, path);
  }
  return classOf;
}

/** Each session's survey answers, from the answers read. */
function surveysBySession(answers: readonly Read<ResourceRecord<'chatAnswer'>>[]): Map<number, string[]> {
  const surveyOf = new Map<number, string[]>();
  for (const a of answers) {
    if (a.sessionId == null || !a.value) continue;
    surveyOf.set(a.sessionId, [...(surveyOf.get(a.sessionId) ?? []), a.value]);
  }
  return surveyOf;
}

async function customerHistory(
  client: ServiceClient,
  sessionId: number,
  remember: (s: Read<Session>) => void,
  clock: Clock,
): Promise<CustomerHistory> {
  const fetchedAt = new Date(clock.now()).toISOString();
  const current = await readSession(client, sessionId);
  const customer = sessionCustomerOf(current);
  const empty = {
    customerName: customer?.name ?? null,
    sessions: [],
    tickets: [],
    more: false,
    failed: [],
    unreadable: NONE_UNREADABLE,
    fetchedAt,
  };
  if (customer?.id == null) return empty;
  // Interface §4.4: the user-session list by the customer's user reference, numeric ids by EQNUM.
  const page = await client.resource('userSession').list({
    conditions: [eqNum('user.id', customer.id)],
    sort: true,
    sortColumn: 'createdAt',
    direction: 'DESC',
    page: 0,
    size: HISTORY_ROWS,
  });
  // Newest first by their time, wherever the service listed them (some ignore the sort).
  const earlier = oldestFirst(
    page.results.filter((s) => s.id != null && s.id !== sessionId),
    (s) => ({ at: s.createdAt, id: s.id ?? 0 }),
  ).reverse();
  earlier.forEach(remember);
  const unreadable = page.skipped ? { count: page.skipped, first: page.first } : NONE_UNREADABLE;
  const more = page.results.length + page.skipped >= HISTORY_ROWS;
  if (!earlier.length) return { ...empty, more, unreadable };
  const ids = earlier.map((s) => s.id as number);
  const failed: CustomerHistory['failed'] = [];
  // Each part is a help beside the list: one that fails is named, the others shown.
  const part = <T>(name: CustomerHistory['failed'][number], p: Promise<T>, none: T): Promise<T> =>
    p.catch(() => {
      failed.push(name);
      return none;
    });
  const bySessions = { conditions: [oneOf('sessionId', ids)], sort: true, sortColumn: 'id', direction: 'ASC' as const, size: 500 };
  const ticketIds = [...new Set(earlier.map((s) => s.ticketId).filter((t): t is number => t != null))].slice(0, TICKETS);
  const [classes, answers, tickets] = await Promise.all([
    part('classifications', client.resource('classificationService').pageAll(bySessions, { cap: 1_000 }), []),
    part('survey', client.resource('chatAnswer').pageAll(bySessions, { cap: 1_000 }), []),
    part('tickets', Promise.all(ticketIds.map((t) => client.ticket(String(t)).then((r) => toTicketView(r, fetchedAt)))), []),
  ]);
  const classOf = classesBySession(classes);
  const surveyOf = surveysBySession(answers);
  const sessions: PastSession[] = [];
  for (const s of earlier) {
    const item = toQueueItem(s);
    if (!item) continue;
    const closedAt = s.closedAt ?? null;
    const span = (msOf(closedAt) - msOf(item.createdAt)) / 1000;
    sessions.push({
      id: item.id,
      createdAt: item.createdAt,
      closedAt,
      status: item.status,
      groupName: item.groupName,
      channel: item.channel,
      agentName: item.agentName ?? (s.lastAgent || null),
      protocol: item.protocol,
      classification: classOf.get(item.id) ?? null,
      durationSeconds: Number.isFinite(span) && span >= 0 ? Math.round(span) : null,
      ticketId: item.ticketId,
      survey: surveyOf.get(item.id) ?? [],
    });
  }
  const ticketRows: CustomerTicket[] = tickets
    .filter((t) => t.id !== null)
    .map((t) => ({ id: t.id as number, title: t.title, status: t.status, sessionId: t.sessionId }));
  return { customerName: customer.name, sessions, tickets: ticketRows, more, failed, unreadable, fetchedAt };
}
