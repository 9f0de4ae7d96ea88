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
  return {
    id,
    status: session.status ?? 'UNKNOWN',
    pending: session.pending === true,
    ...sessionPeople(session, id, userNameOf),
    ...sessionGroup(session),
    protocol: session.protocol ?? null,
    ticketId: session.ticketId ?? null,
    withBot: sessionWithBot(session),
  };
}

/** Who holds a session and who it is with, as the queue names them. */
function sessionPeople(
  session: Read<Session>,
  id: number,
  userNameOf: ((id: number) => string | null) | undefined,
): Pick<QueueItem, 'agentUserName' | 'agentName' | 'customerName'> {
  const agent = sessionAgentOf(session);
  const customer = sessionCustomerOf(session);
  return {
    agentUserName: agentKey(agent, session.agent, userNameOf),
    agentName: agent?.name ?? null,
    customerName: customer?.name ?? text(record(session.user)?.phone) ?? `Customer #${id}`,
  };
}

/** A session's group, channel, start and the SLA its group gives it. */
function sessionGroup(
  session: Read<Session>,
): Pick<QueueItem, 'groupId' | 'groupName' | 'channel' | 'createdAt' | 'slaSeconds' | 'slaWarningRatio'> {
  const group = sessionGroupOf(session);
  const g = group?.record ?? null;
  const slaSeconds = slaSecondsOf(g?.sla, g?.timeUnit);
  return {
    groupId: group?.id ?? null,
    groupName: group?.name ?? null,
    channel: channelOf(session),
    createdAt: session.createdAt ?? null,
    slaSeconds,
    ...(slaSeconds === null ? {} : { slaWarningRatio: warningRatioOf(g?.warningRatio) }),
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
