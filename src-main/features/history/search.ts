import type { SessionDetail, ThreadMessage } from '../../../src-shared/bridge/attendance';
import type { MatchField, SearchHit } from '../../../src-shared/bridge/history';
import { sessionCustomerOf } from '../../../src-shared/concepts';
import type { Read } from '../../../src-shared/envelopes';
import type { Condition } from '../../../src-shared/query';
import { oneOf, eqNum } from '../../../src-shared/query-builder';
import type { Session } from '../../../src-shared/schemas/index';
import type { OfflineCache } from '../../cache';
import type { ServiceClient } from '../../service';
import { toSessionDetail, toThreadMessage } from '../attendance/project';
import { holds, snippetOf } from './snippet';
import { systemClock } from '../../clock';

/** Rows asked for each kind of match: a search box shows the first ones, not an archive. */
export const SEARCH_ROWS = 20;

/**
 * The service's conditions for "a session whose customer, protocol or references hold `q`":
 * one OR group of LIKEs (case-insensitive, DESIGN.md §2), and numeric references compared with
 * EQNUM (ids are never compared as strings, §2 decisions). Keys follow the session's references
 * (`user.name`, `user.email`), as the interface's dotted keys do.
 */
export function sessionConditions(q: string): Condition[] {
  const like = `%${q}%`;
  const keys = ['user.name', 'protocol', 'customProtocol', 'externalProtocol', 'user.email', 'user.phone'];
  const or: Condition[] = keys.map((key, i) => ({ key, operator: 'LIKE', value: like, ...(i > 0 ? { logic: 'OR' } : {}) }));
  // A ticket key (SUP-4711) or an order reference (PED-184471) names its number.
  const digits = /^[A-Za-z]{0,6}-?#?(\d{1,15})$/.exec(q)?.[1];
  if (digits) for (const key of ['ticketId', 'externalOrderId']) or.push(eqNum(key, digits, 'OR'));
  return [{ or }];
}

export const messageConditions = (q: string): Condition[] => [{ key: 'message', operator: 'LIKE', value: `%${q}%` }];

/** What a session hit says of where the match is: the first field of the session holding it. */
function sessionHit(detail: SessionDetail, q: string, login: string | null = null): SearchHit {
  const { item, customer } = detail;
  const digits = /(\d+)$/.exec(q)?.[1];
  // A server that embeds the customer as a summary gives no e-mail or phone: the address the
  // session came from and the customer's login (an e-mail for customers, on the stand-in) say it.
  const address = customer.instance;
  const fields: Array<[MatchField, string | null]> = [
    ['name', customer.name],
    ['protocol', item.protocol],
    ['email', customer.email],
    ['phone', customer.phone],
    [address?.includes('@') ? 'email' : 'phone', address],
    [login?.includes('@') ? 'email' : 'name', login],
  ];
  let field: MatchField = 'name';
  let snippet = snippetOf(customer.name, '');
  const found = fields.find(([, v]) => holds(v, q));
  if (found) {
    field = found[0];
    snippet = snippetOf(found[1] ?? '', q);
  } else if (digits && item.ticketId !== null && String(item.ticketId) === digits) {
    field = 'ticket';
    snippet = snippetOf(String(item.ticketId), digits);
  } else if (digits) {
    field = 'order';
    snippet = snippetOf(digits, digits);
  }
  return { ...base(detail), field, snippet, messageId: null };
}

function base(detail: SessionDetail): Omit<SearchHit, 'field' | 'snippet' | 'messageId'> {
  const { item } = detail;
  return {
    sessionId: item.id,
    customerName: detail.customer.name,
    status: item.status,
    channel: item.channel,
    groupName: item.groupName,
    protocol: item.protocol,
    at: item.createdAt,
  };
}

const messageHit = (detail: SessionDetail, m: ThreadMessage, q: string): SearchHit => ({
  ...base(detail),
  at: m.createdAt,
  field: 'message',
  snippet: snippetOf(m.text || (m.caption ?? ''), q),
  messageId: m.id,
});

/**
 * Sessions and messages holding `q`, from the service: the sessions' fields and the messages'
 * text read at once, then the sessions of the messages found (one OR group of ids). `signal`
 * cancels every request of the search.
 */
export async function searchService(
  client: ServiceClient,
  q: string,
  signal: AbortSignal,
  remember: (s: Read<Session>) => void,
): Promise<SearchHit[]> {
  const sessions = client.resource('userSession');
  const [byField, byText] = await Promise.all([
    sessions.list(
      { conditions: sessionConditions(q), sort: true, sortColumn: 'createdAt', direction: 'DESC', page: 0, size: SEARCH_ROWS },
      { signal },
    ),
    client
      .resource('message')
      .list(
        { conditions: messageConditions(q), sort: true, sortColumn: 'createdAt', direction: 'DESC', page: 0, size: SEARCH_ROWS },
        { signal },
      ),
  ]);
  const now = systemClock.now();
  const details = new Map<number, SessionDetail>();
  const logins = new Map<number, string | null>();
  const keep = (s: Read<Session>) => {
    const d = toSessionDetail(s, [], now);
    if (d) {
      details.set(d.item.id, d);
      logins.set(d.item.id, sessionCustomerOf(s)?.userName ?? null);
      remember(s);
    }
  };
  byField.results.forEach(keep);
  const messages = byText.results.map((r) => toThreadMessage(r)).filter((m): m is ThreadMessage => m !== null);
  const missing = [...new Set(messages.map((m) => m.sessionId))].filter((id) => !details.has(id));
  if (missing.length) {
    const more = await sessions.list({ conditions: [oneOf('id', missing)], sort: false, page: 0, size: missing.length }, { signal });
    more.results.forEach(keep);
  }
  const hits: SearchHit[] = [];
  for (const s of byField.results) {
    const d = s.id == null ? undefined : details.get(s.id);
    if (d) hits.push(sessionHit(d, q, logins.get(d.item.id)));
  }
  for (const m of messages) {
    const d = details.get(m.sessionId);
    if (d) hits.push(messageHit(d, m, q));
  }
  return hits;
}

/**
 * The same search over the copies kept on this computer (the queue and the threads opened),
 * for when the service is away. `keptAt`: when the oldest copy a hit comes from was read.
 */
export async function searchKept(cache: OfflineCache, q: string): Promise<{ hits: SearchHit[]; keptAt: string | null }> {
  const hits: SearchHit[] = [];
  let keptAt: string | null = null;
  const seen = new Set<number>();
  const note = (at: string) => {
    if (keptAt === null || at < keptAt) keptAt = at;
  };
  const threads = (await cache.threads()).sort((a, b) => (b.fetchedAt < a.fetchedAt ? -1 : 1));
  for (const t of threads) {
    const fieldHit = sessionHit(t.detail, q);
    if (fieldHit.snippet.match) {
      hits.push(fieldHit);
      seen.add(t.detail.item.id);
      note(t.fetchedAt);
    }
    for (const m of [...t.messages].reverse()) {
      if (!holds(m.text, q) && !holds(m.caption, q)) continue;
      hits.push(messageHit(t.detail, m, q));
      note(t.fetchedAt);
    }
  }
  const queue = cache.queue();
  for (const item of queue?.items ?? []) {
    if (seen.has(item.id) || !(holds(item.customerName, q) || holds(item.protocol, q))) continue;
    const detail: SessionDetail = {
      item,
      customer: { name: item.customerName, phone: null, email: null, instance: null },
      attendedAt: null,
      lastAgent: null,
      topic: null,
      needsTemplate: false,
      classification: null,
    };
    hits.push(sessionHit(detail, q));
    if (queue) note(queue.fetchedAt);
  }
  return { hits: hits.slice(0, SEARCH_ROWS * 2), keptAt };
}
