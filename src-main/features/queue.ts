import type { QueueSnapshot } from '../../src-shared/bridge';
import { toQueueItem } from '../queue';
import type { Feature, FeatureContext } from './context';

const QUEUE_CAP = 100_000;

/** The session queue: every session not closed, projected for the list. */
export function createQueueFeature(ctx: FeatureContext): Feature<'queue:snapshot'> {
  async function snapshot(): Promise<QueueSnapshot> {
    const records = await ctx.client().resource('userSession').pageAll(
      { conditions: [{ key: 'status', operator: 'NEQ', value: 'CLOSED' }], sort: true, sortColumn: 'createdAt', direction: 'ASC', size: 500 },
      { cap: QUEUE_CAP },
    );
    const items = [];
    for (const r of records) {
      const item = toQueueItem(r as Record<string, unknown>);
      if (item) items.push(item);
    }
    return { items, fetchedAt: new Date().toISOString(), me: ctx.me()?.userName ?? null };
  }
  return { handlers: { 'queue:snapshot': snapshot } };
}
