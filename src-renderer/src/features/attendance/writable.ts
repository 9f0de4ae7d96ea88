import type { QueueStore } from '../../lib/queue.svelte';
import type { ThreadStore } from './thread.svelte';

/**
 * Whether the attendant may write in the open session: theirs (Mine, or waiting for the
 * customer). One answer for the reply box and for every control that fills it (help's Use and
 * Insert, the AI draft), so none of them looks usable where the reply box is not.
 */
export function canWriteIn(queue: QueueStore, thread: ThreadStore): boolean {
  const item = thread.sessionId === null ? null : (queue.item(thread.sessionId) ?? thread.detail?.item ?? null);
  if (!item) return false;
  const bucket = queue.bucketOf(item);
  return bucket === 'mine' || bucket === 'pending';
}
