import type { QueueItem } from '../src-shared/bridge';

type Rec = Record<string, unknown>;
const obj = (v: unknown): Rec | null => (v && typeof v === 'object' ? (v as Rec) : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);

/** Seconds in one unit of the group's `timeUnit` (the unit of its `sla`). */
const UNIT_SECONDS: Record<string, number> = {
  NANOSECONDS: 1e-9, MICROSECONDS: 1e-6, MILLISECONDS: 1e-3, SECONDS: 1, MINUTES: 60, HOURS: 3600, DAYS: 86400,
};

/**
 * Projects a session as the service sent it (parsed leniently) onto what the queue shows.
 * Unknown statuses are kept as they are, never dropped (DESIGN.md §2, session status).
 */
export function toQueueItem(session: Rec): QueueItem | null {
  const id = int(session.id);
  if (id === null) return null;
  const agent = obj(session.agent);
  const group = obj(session.groupConf);
  const customer = obj(session.user);
  const sla = typeof group?.sla === 'number' ? group.sla : null;
  const unit = str(group?.timeUnit) ?? 'MINUTES';
  return {
    id,
    status: str(session.status) ?? 'UNKNOWN',
    pending: session.pending === true,
    agentUserName: str(agent?.userName),
    agentName: str(agent?.displayName) ?? str(agent?.name),
    customerName: str(customer?.displayName) ?? str(customer?.name) ?? str(customer?.phone) ?? `Customer #${id}`,
    groupId: int(group?.id),
    groupName: str(group?.name),
    channel: str(session.userConnectedResource),
    createdAt: str(session.createdAt),
    slaSeconds: sla === null ? null : sla * (UNIT_SECONDS[unit] ?? 60),
    protocol: str(session.protocol),
    ticketId: int(session.ticketId),
  };
}
