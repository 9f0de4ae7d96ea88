import type { QueueItem } from './bridge';

export type QueueBucket = 'waiting' | 'mine' | 'pending' | 'others' | 'closed';

/** The queue bucket of a session, derived from (status, agent, pending) as DESIGN.md §2 says. */
export function bucketOf(item: Pick<QueueItem, 'status' | 'agentUserName' | 'pending'>, me: string | null): QueueBucket {
  if (item.status === 'CLOSED') return 'closed';
  if (item.pending) return item.agentUserName && item.agentUserName === me ? 'pending' : 'others';
  if (!item.agentUserName) return 'waiting';
  return item.agentUserName === me ? 'mine' : 'others';
}
