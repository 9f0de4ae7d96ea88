import type { QueueItem } from './bridge/attendance';
import { statusKind } from './concepts';

export type QueueBucket = 'waiting' | 'mine' | 'pending' | 'others' | 'closed';

/**
 * The queue bucket of a session, derived from (status, agent, pending) as DESIGN.md §2 says. A
 * status the console does not know is never "waiting": it is shown among the others as it comes,
 * so it is never offered for accept.
 */
export function bucketOf(item: Pick<QueueItem, 'status' | 'agentUserName' | 'pending'>, me: string | null): QueueBucket {
  const kind = statusKind(item.status);
  if (kind === 'closed') return 'closed';
  const mine = !!item.agentUserName && item.agentUserName === me;
  if (item.pending) return mine ? 'pending' : 'others';
  if (!item.agentUserName) return kind === 'open' ? 'waiting' : 'others';
  return mine ? 'mine' : 'others';
}
