import type { QueueItem } from '../src-shared/bridge/attendance';
import {
  idOf,
  record,
  sessionAgentOf,
  sessionCustomerOf,
  sessionGroupOf,
  instantOf,
  text as str,
  type PersonRef,
} from '../src-shared/concepts';
import { slaSecondsOf, warningRatioOf } from '../src-shared/sla';

type Rec = Record<string, unknown>;

/**
 * Projects a session as the service sent it (parsed leniently) onto what the queue shows.
 * Unknown statuses are kept as they are, never dropped (DESIGN.md §2, session status).
 */
export function toQueueItem(session: Rec, userNameOf?: (id: number) => string | null): QueueItem | null {
  const id = idOf(session.id);
  if (id === null) return null;
  const agent = sessionAgentOf(session);
  const group = sessionGroupOf(session);
  const g = group?.record ?? null;
  const customer = sessionCustomerOf(session);
  const slaSeconds = slaSecondsOf(g?.sla, g?.timeUnit);
  return {
    id,
    status: str(session.status) ?? 'UNKNOWN',
    pending: session.pending === true,
    agentUserName: agentKey(agent, session.agent, userNameOf),
    agentName: agent?.name ?? null,
    customerName: customer?.name ?? str(record(session.user)?.phone) ?? `Customer #${id}`,
    groupId: group?.id ?? null,
    groupName: group?.name ?? null,
    channel: str(session.userConnectedResource),
    createdAt: instantOf(session.createdAt),
    slaSeconds,
    ...(slaSeconds === null ? {} : { slaWarningRatio: warningRatioOf(g?.warningRatio) }),
    protocol: str(session.protocol) ?? (typeof session.protocol === 'number' ? String(session.protocol) : null),
    ticketId: idOf(session.ticketId),
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
