import type { QueueItem } from '../src-shared/bridge/attendance';
import {
  channelOf,
  record,
  sessionAgentOf,
  sessionCustomerOf,
  sessionGroupOf,
  sessionWithBot,
  text,
  type PersonRef,
} from '../src-shared/concepts';
import { slaSecondsOf, warningRatioOf } from '../src-shared/sla';
import type { Read } from '../src-shared/envelopes';
import type { Session } from '../src-shared/schemas/index';

/**
 * Projects a session as the schema read it onto what the queue shows. Unknown statuses are kept
 * as they are, never dropped (DESIGN.md §2, session status). Null without an id.
 */
export function toQueueItem(session: Read<Session>, userNameOf?: (id: number) => string | null): QueueItem | null {
  const id = session.id ?? null;
  if (id === null) return null;
  const agent = sessionAgentOf(session);
  const group = sessionGroupOf(session);
  const customer = sessionCustomerOf(session);
  const g = group?.record ?? null;
  const slaSeconds = slaSecondsOf(g?.sla, g?.timeUnit);
  return {
    id,
    status: session.status ?? 'UNKNOWN',
    pending: session.pending === true,
    agentUserName: agentKey(agent, session.agent, userNameOf),
    agentName: agent?.name ?? null,
    customerName: customer?.name ?? text(record(session.user)?.phone) ?? `Customer #${id}`,
    groupId: group?.id ?? null,
    groupName: group?.name ?? null,
    channel: channelOf(session),
    createdAt: session.createdAt ?? null,
    slaSeconds,
    ...(slaSeconds === null ? {} : { slaWarningRatio: warningRatioOf(g?.warningRatio) }),
    protocol: session.protocol ?? null,
    ticketId: session.ticketId ?? null,
    withBot: sessionWithBot(session),
  };
}

/**
 * The key the queue tells attendants apart by: the user name, else the one known for the id,
 * else `#id`; a session held by someone the record does not identify still counts as held.
 */
function agentKey(agent: PersonRef | null, raw: unknown, userNameOf?: (id: number) => string | null): string | null {
  if (agent?.userName) return agent.userName;
  if (agent?.id != null) return userNameOf?.(agent.id) ?? `#${agent.id}`;
  if (agent?.name) return agent.name;
  return raw === null || raw === undefined || raw === false || raw === '' ? null : '?';
}
