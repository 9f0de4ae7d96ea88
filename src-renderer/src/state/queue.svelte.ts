import type { QueueItem } from '../../../src-shared/bridge';
import { bucketOf, type QueueBucket } from '../../../src-shared/queue';
import { errorMessage, invoke, on } from '../lib/bridge';

export const VISIBLE_BUCKETS = ['waiting', 'mine', 'pending', 'others'] as const satisfies readonly QueueBucket[];
export type VisibleBucket = (typeof VISIBLE_BUCKETS)[number];

/** The session queue: one snapshot from the main process, bucketed and filtered here. */
export class QueueStore {
  /** Raw (not deeply reactive): 100,000 items must not become 100,000 proxies. */
  items = $state.raw<QueueItem[]>([]);
  me = $state<string | null>(null);
  fetchedAt = $state<string | null>(null);
  loading = $state(false);
  error = $state<string | null>(null);
  bucket = $state<VisibleBucket>('waiting');
  filter = $state('');

  private byBucket = $derived.by(() => {
    const groups: Record<VisibleBucket, QueueItem[]> = { waiting: [], mine: [], pending: [], others: [] };
    for (const item of this.items) {
      const b = bucketOf(item, this.me);
      if (b !== 'closed') groups[b].push(item);
    }
    return groups;
  });

  get counts(): Record<VisibleBucket, number> {
    const g = this.byBucket;
    return { waiting: g.waiting.length, mine: g.mine.length, pending: g.pending.length, others: g.others.length };
  }

  visible = $derived.by(() => {
    const list = this.byBucket[this.bucket];
    const needle = this.filter.trim().toLowerCase();
    if (!needle) return list;
    return list.filter(
      (s) =>
        s.customerName.toLowerCase().includes(needle) ||
        (s.groupName ?? '').toLowerCase().includes(needle) ||
        (s.channel ?? '').toLowerCase().includes(needle) ||
        (s.protocol ?? '').toLowerCase().includes(needle) ||
        String(s.id) === needle,
    );
  });

  private unsubscribe: (() => void) | null = null;

  async start(): Promise<void> {
    this.unsubscribe ??= on('queue:snapshot', (snap) => {
      this.items = snap.items;
      this.me = snap.me;
      this.fetchedAt = snap.fetchedAt;
    });
    await this.refresh();
  }

  async refresh(): Promise<void> {
    this.loading = true;
    this.error = null;
    try {
      const snap = await invoke('queue:snapshot', {});
      this.items = snap.items;
      this.me = snap.me;
      this.fetchedAt = snap.fetchedAt;
    } catch (e) {
      this.error = errorMessage(e);
    } finally {
      this.loading = false;
    }
  }

  reset(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.items = [];
    this.me = null;
    this.fetchedAt = null;
    this.filter = '';
    this.bucket = 'waiting';
  }
}

export const queue = new QueueStore();
