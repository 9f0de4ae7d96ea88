import type { z } from 'zod';
import type { FiguresRead, NpsBreakdown, NpsBreakdownQuerySchema, ReportRow, SurveyAnswer } from '../../../src-shared/bridge/supervisor';
import type { Condition } from '../../../src-shared/query';
import { idOf, instantOf, intOf, msOf, stringOf } from '../../../src-shared/concepts';
import { slaSecondsOf } from '../../../src-shared/sla';
import { isAppError } from '../../../src-shared/errors';
import type { ServiceClient } from '../../service/index';
import { npsConditions, toNpsResult, toReportRow } from './views';
import { systemClock } from '../../clock';
import { eqNum } from '../../../src-shared/query-builder';

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
    if (!kept || q.refresh || systemClock.now() - kept.at > KEEP_MS) {
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
      kept = {
        at: systemClock.now(),
        rows: all.records.map(toReportRow),
        truncated: all.truncated,
        fetchedAt: new Date(systemClock.now()).toISOString(),
      };
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

/** Chat answers one period's list reads at most. */
const ANSWERS_CAP = 5_000;
/** Summaries asked of the service at once. */
const NPS_AT_ONCE = 4;

/** A chat answer's value as a 0–10 score, or null when it is something else (the open question's words). */
export function scoreOf(value: string | null | undefined): number | null {
  const t = value?.trim() ?? '';
  const n = /^\d{1,2}$/.test(t) ? intOf(t) : null;
  return n !== null && n <= 10 ? n : null;
}

/** A period's chat answers, one entry per session (its score and its words, at its first answer), newest first. */
export function surveyAnswers(
  records: ReadonlyArray<{ sessionId?: number | null; value?: string | null; createdAt?: string | null }>,
): SurveyAnswer[] {
  const bySession = new Map<number, SurveyAnswer>();
  for (const a of records) {
    const sessionId = a.sessionId ?? null;
    if (sessionId === null || !a.createdAt) continue;
    let e = bySession.get(sessionId);
    if (!e) bySession.set(sessionId, (e = { sessionId, at: a.createdAt, score: null, comment: null }));
    // When the customer began answering: a score and its words a moment apart stay on one day.
    if (msOf(a.createdAt) < msOf(e.at)) e.at = a.createdAt;
    const score = scoreOf(a.value);
    if (score !== null) e.score = score;
    else if (a.value?.trim()) e.comment = e.comment ? `${e.comment}\n${a.value.trim()}` : a.value.trim();
  }
  return [...bySession.values()].sort((x, y) => msOf(y.at) - msOf(x.at) || y.sessionId - x.sessionId);
}

/** Runs `work` over `items`, `n` at a time, answers in the items' order. */
async function inTurns<T, R>(items: readonly T[], n: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]!);
      }
    }),
  );
  return out;
}

/**
 * NPS per attendant and per group: one summary each, with the shared query body's conditions
 * (the answer's agent or group, the period). Attendants are found among the service's users by
 * the name the report gives them.
 */
export async function npsBreakdown(client: ServiceClient, q: z.infer<typeof NpsBreakdownQuerySchema>): Promise<NpsBreakdown> {
  const users = q.agents.length ? await client.resource('user').collect({ sort: false }, { cap: 5_000 }) : { records: [] };
  const idByName = new Map<string, number>();
  for (const u of users.records) {
    const name = stringOf(u.name);
    const id = idOf(u.id);
    if (name !== null && id !== null) idByName.set(name, id);
  }
  const ask = async (condition: Condition) => {
    const conditions = [...npsConditions({ from: q.from, to: q.to }), { ...condition, logic: 'AND' as const }];
    return toNpsResult(
      q.surveyName,
      await client.npsSummary(q.surveyName, { conditions, sort: false }),
      new Date(systemClock.now()).toISOString(),
    );
  };
  const agents = await inTurns(q.agents, NPS_AT_ONCE, async (name) => {
    const id = idByName.get(name);
    return { name, result: id === undefined ? null : await ask(eqNum('agent.id', id)) };
  });
  const groups = await inTurns(q.groups, NPS_AT_ONCE, async (g) => ({
    name: g.name,
    result: await ask(eqNum('groupConf.id', g.id)),
  }));
  return { agents, groups };
}

/** The survey answers of a period, read once per period and kept like the report rows. */
export class SurveyAnswersReader {
  readonly #client: () => ServiceClient;
  readonly #kept = new Map<string, { at: number; answers: SurveyAnswer[]; truncated: boolean }>();
  #base = '';
  constructor(client: () => ServiceClient) {
    this.#client = client;
  }
  reset(): void {
    this.#kept.clear();
  }
  async read(q: { from: string; to: string; refresh: boolean }): Promise<{ answers: SurveyAnswer[]; truncated: boolean }> {
    const client = this.#client();
    if (client.baseUrl !== this.#base) {
      this.reset();
      this.#base = client.baseUrl;
    }
    const key = `${q.from}|${q.to}`;
    const kept = this.#kept.get(key);
    if (kept && !q.refresh && systemClock.now() - kept.at <= KEEP_MS) return { answers: kept.answers, truncated: kept.truncated };
    const all = await client.resource('chatAnswer').collect(
      {
        conditions: [
          { key: 'createdAt', operator: 'AFTER', value: instantOf(q.from) ?? q.from },
          { key: 'createdAt', operator: 'BEFORE', value: instantOf(q.to) ?? q.to, logic: 'AND' },
        ],
        sort: true,
        sortColumn: 'createdAt',
        direction: 'DESC',
      },
      { cap: ANSWERS_CAP },
    );
    const got = { at: systemClock.now(), answers: surveyAnswers(all.records), truncated: all.truncated };
    this.#kept.set(key, got);
    while (this.#kept.size > KEPT_PERIODS) this.#kept.delete(this.#kept.keys().next().value!);
    return { answers: got.answers, truncated: got.truncated };
  }
}
