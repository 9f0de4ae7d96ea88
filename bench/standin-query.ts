// The stand-in's query engine at benchmark scale: 100,000 seeded sessions, filtered, sorted
// pages over real HTTP. Budget: p50 under 50 ms. Baseline: a trivial authenticated
// request to the same server in the same run (the HTTP floor).
import { startStandin } from '../src-standin/index';
import { standinClient } from '../src-standin/test-client';
import { percentile } from './support';
import type { BenchRow } from './types';

const SESSIONS = 100_000;
const WARMUP = 5;
const RUNS = 40;

async function timeIt(fn: () => Promise<void>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

export async function run(): Promise<BenchRow[]> {
  const t0 = performance.now();
  const sb = await startStandin({ port: 0, sessions: SESSIONS });
  const startMs = performance.now() - t0;
  try {
    const c = standinClient(sb.baseUrl, sb.tokens.agent);
    const ok = async (path: string, body: unknown): Promise<void> => {
      const r = await c.v2(path, body);
      if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${r.text.slice(0, 200)}`);
    };
    const baseline = percentile(await timeIt(() => ok('/users/rules', {})), 50);
    const queries: Array<[string, string, unknown]> = [
      [
        'waiting queue of a group, oldest first (EQ + IS_NULL + EQNUM on groupConf.id)',
        '/user-session',
        {
          conditions: [
            { key: 'status', operator: 'EQ', value: 'OPEN' },
            { key: 'agent', operator: 'IS_NULL' },
            { key: 'groupConf.id', operator: 'EQNUM', value: '2' },
          ],
          sort: true,
          sortColumn: 'createdAt',
          direction: 'ASC',
          page: 0,
          size: 50,
        },
      ],
      [
        "one attendant's sessions, newest first (agent.userName through the user reference)",
        '/user-session',
        {
          conditions: [
            { key: 'agent.userName', operator: 'EQ', value: sb.demoAgent.userName },
            { key: 'status', operator: 'EQ', value: 'OPEN' },
          ],
          sort: true,
          sortColumn: 'updatedAt',
          direction: 'DESC',
          page: 0,
          size: 50,
        },
      ],
      [
        'closed last week by channel, OR group, page 3 (BEFORE/AFTER + IN + nested or)',
        '/user-session',
        {
          conditions: [
            { key: 'closedAt', operator: 'AFTER', value: new Date(Date.now() - 7 * 86_400_000).toISOString() },
            { key: 'userConnectedResource', operator: 'IN', value: 'chatApp,email' },
            {
              or: [
                { key: 'groupConf.name', operator: 'LIKE', value: 'finan%' },
                { key: 'tme', operator: 'EQNUM', value: '60' },
              ],
            },
          ],
          sort: true,
          sortColumn: 'closedAt',
          direction: 'DESC',
          page: 3,
          size: 20,
        },
      ],
      [
        'thread of one session (EQNUM session.id, sorted by createdAt)',
        '/messages',
        {
          conditions: [{ key: 'session.id', operator: 'EQNUM', value: '77777' }],
          sort: true,
          sortColumn: 'createdAt',
          size: 100,
        },
      ],
    ];
    const rows: BenchRow[] = [
      {
        figure: `seed ${SESSIONS.toLocaleString('en')} sessions and start`,
        value: startMs,
        unit: 'ms',
        budget: '< 10000 ms',
        holds: startMs < 10_000,
      },
    ];
    for (const [figure, path, body] of queries) {
      const p50 = percentile(await timeIt(() => ok(path, body)), 50);
      rows.push({ figure: `p50 ${figure}`, value: p50, unit: 'ms', baseline, ratio: p50 / baseline, budget: '< 50 ms', holds: p50 < 50 });
    }
    return rows;
  } finally {
    await sb.close();
  }
}
