import type { FiguresRead, ReportRow } from '../../../src-shared/bridge/supervisor';
import { instantOf } from '../../../src-shared/concepts';
import { slaSecondsOf } from '../../../src-shared/sla';
import { isAppError } from '../../../src-shared/errors';
import type { ServiceClient } from '../../service/index';
import { toReportRow } from './views';

/** Rows one figures read takes at most (a month of a busy operation fits; the view says when not). */
const FIGURES_CAP = 50_000;
/** A period read this recently is answered from what was kept, unless a refresh is asked. */
const KEEP_MS = 5 * 60_000;
/** Periods kept per workspace: the overview and a few periods looked at before. */
const KEPT_PERIODS = 6;

type Sla = FiguresRead['slas'][number];

/**
 * The figures' reads: the report rows of a period and its previous one in one paged read, and
 * each group's SLA once per group. What was read is kept per period, so the views (overview,
 * per attendant, per group, trend, exports) and every click among them cost no request; a
 * refresh reads again.
 */
export class FiguresReader {
  readonly #periods = new Map<string, { at: number; rows: ReportRow[]; truncated: boolean; fetchedAt: string }>();
  readonly #slas = new Map<string, Sla>();
  #base = '';

  readonly #client: () => ServiceClient;
  constructor(client: () => ServiceClient) {
    this.#client = client;
  }

  reset(): void {
    this.#periods.clear();
    this.#slas.clear();
  }

  async read(q: { from: string; to: string; refresh: boolean }): Promise<FiguresRead> {
    const client = this.#client();
    // Another service's rows and groups are not this one's.
    if (client.baseUrl !== this.#base) {
      this.reset();
      this.#base = client.baseUrl;
    }
    const key = `${q.from}|${q.to}`;
    let kept = this.#periods.get(key);
    if (!kept || q.refresh || Date.now() - kept.at > KEEP_MS) {
      const all = await client.resource('attendanceTimeReport').collect(
        {
          conditions: [
            { key: 'createdAtProtocol', operator: 'AFTER', value: instantOf(q.from) ?? q.from },
            { key: 'createdAtProtocol', operator: 'BEFORE', value: instantOf(q.to) ?? q.to, logic: 'AND' },
          ],
          sort: false,
        },
        { cap: FIGURES_CAP },
      );
      kept = { at: Date.now(), rows: all.records.map(toReportRow), truncated: all.truncated, fetchedAt: new Date().toISOString() };
      this.#periods.delete(key);
      this.#periods.set(key, kept);
      while (this.#periods.size > KEPT_PERIODS) this.#periods.delete(this.#periods.keys().next().value!);
      if (q.refresh) this.#slas.clear();
    }
    const names = [...new Set(kept.rows.map((r) => r.groupName).filter((n): n is string => !!n))];
    const missing = names.filter((n) => !this.#slas.has(n));
    await Promise.all(missing.map(async (name) => this.#slas.set(name, await this.#slaOf(client, name))));
    return {
      rows: kept.rows,
      slas: names.map((n) => this.#slas.get(n)!),
      truncated: kept.truncated,
      fetchedAt: kept.fetchedAt,
    };
  }

  /** A group's SLA by the name the report gives it; a group the service does not find has none known. */
  async #slaOf(client: ServiceClient, groupName: string): Promise<Sla> {
    try {
      const g = await client.groupUnique({ conditions: [{ key: 'name', operator: 'EQ', value: groupName }] });
      return { groupName, groupId: g.id ?? null, slaSeconds: slaSecondsOf(g.sla, g.timeUnit) };
    } catch (e) {
      if (isAppError(e) && e.kind === 'NotFound') return { groupName, groupId: null, slaSeconds: null };
      throw e;
    }
  }
}
