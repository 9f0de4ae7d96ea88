import { classificationRecordOf } from '../../../src-shared/concepts';
import { newestOf } from '../../../src-shared/newest';
import type { ServiceClient } from '../../service';
import { eqNum } from '../../../src-shared/query-builder';

// Apart from the close: an open thread shows how a closed session was classified, and the close
// builds on the thread, so the reading lives on its own.

/** A session's classification records read to find its newest (a session is classified once or a few times). */
const CLASSIFICATIONS_READ = 50;

/**
 * How a closed session was classified, as the newest of its classification records reads (either
 * way round: the path in `displayName` as this console writes it, or in `classificationTreeSession`
 * as others did); null when it has none or they cannot be read.
 */
export async function classificationPathOf(client: ServiceClient, sessionId: number): Promise<string | null> {
  try {
    const page = await client.resource('classificationService').list({
      conditions: [eqNum('sessionId', sessionId)],
      sort: true,
      sortColumn: 'id',
      direction: 'DESC',
      page: 0,
      size: CLASSIFICATIONS_READ,
    });
    // The newest by its time (then id), wherever the service listed it.
    const rec = newestOf(page.results, (r) => ({ at: r.createdAt, id: r.id ?? 0 }));
    return rec ? classificationRecordOf(rec).path : null;
  } catch {
    // A help beside the thread: without it the thread still shows.
    return null;
  }
}
