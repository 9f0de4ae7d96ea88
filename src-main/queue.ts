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
import type { Read } from '../src-shared/envelopes';
import type { GroupConfiguration, Session } from '../src-shared/schemas/index';

/** Seconds in one unit of the group's `timeUnit` (the unit of its `sla`, interface §2.6). */
const UNIT_SECONDS: Record<string, number> = {
  NANOSECONDS: 1e-9,
  MICROSECONDS: 1e-6,
  MILLISECONDS: 1e-3,
  SECONDS: 1,
  MINUTES: 60,
  HOURS: 3600,
  DAYS: 86400,
};

/** A group's SLA in seconds (its `sla` in its `timeUnit`, minutes when it names none); null without one. */
export function slaSecondsOf(g: Pick<GroupConfiguration, 'sla' | 'timeUnit'> | null | undefined): number | null {
  const sla = g?.sla ?? null;
  if (sla === null) return null;
  return sla * (UNIT_SECONDS[text(g?.timeUnit)?.toUpperCase() ?? 'MINUTES'] ?? 60);
}

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
    slaSeconds: slaSecondsOf(group?.record),
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
