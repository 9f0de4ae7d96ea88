import type { QueueItem } from './bridge/attendance';
import { statusKind } from './concepts';

export type QueueBucket = 'waiting' | 'mine' | 'pending' | 'others' | 'bot' | 'closed';

/**
 * The queue bucket of a session, derived from (status, agent, pending) as DESIGN.md §2 says,
 * whatever the status word: a session not closed, not with a bot and held by no agent waits for
 * one in its group (OPEN, TRANSFERRED, TRANSFERIDO or a word the console has never seen). A
 * session with a bot (`withBot`: its status, or `onlyBot`) is shown as such and is nobody's to
 * accept.
 */
export function bucketOf(item: Pick<QueueItem, 'status' | 'agentUserName' | 'pending' | 'withBot'>, me: string | null): QueueBucket {
  const kind = statusKind(item.status);
  if (kind === 'closed') return 'closed';
  if (item.withBot || kind === 'bot') return 'bot';
  // No attendant holds it: it waits in its group's queue, also when it still waits for the
  // customer's answer (a session answered, then moved to a group).
  if (!item.agentUserName) return 'waiting';
  const mine = item.agentUserName === me;
  if (item.pending) return mine ? 'pending' : 'others';
  return mine ? 'mine' : 'others';
}
