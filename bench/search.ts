/**
 * The attendant's search by message text over 100,000 seeded sessions: the console's whole search
 * (through its real handler table: the sessions' fields and the messages' text asked at once, then
 * the sessions of the messages found) against its baseline, the same message condition (LIKE on
 * the text, newest first, the same page size) sent straight to the stand-in by a bare client in
 * the same run. Rounds alternate between the two so drift on a shared machine hits both alike;
 * p95s are compared. Budget: at most 3× the baseline (the search makes up to three requests, two
 * of them at once, and reads every answer through the concept layer).
 */
import { startStandinWorker } from '../src-standin/worker-host';
import { standinClient } from '../src-standin/test-client';
import { messageConditions, SEARCH_ROWS } from '../src-main/features/history/search';
import { openConsole } from '../test/support/console';
import { percentile } from './support';
import type { BenchRow } from './types';

const SESSIONS = 100_000;
const WARMUP = 4;
const ROUNDS = Number(process.env.BENCH_SEARCH_ROUNDS ?? 40);
/** Words attendants look for in what customers wrote: found in some threads, not in most. */
const QUERIES = ['boleto', 'ainda não', 'senha', 'entrega', 'cobrado duas', 'roteador', 'cancelar', 'reembolso'];
const BUDGET = 3;

export async function run(): Promise<BenchRow[]> {
  const sb = await startStandinWorker({ port: 0, sessions: SESSIONS });
  const c = await openConsole();
  try {
    await c.call('workspace:connect', { baseUrl: sb.baseUrl, token: sb.tokens.agent, allowWeakStorage: true });
    const bare = standinClient(sb.baseUrl, sb.tokens.agent);
    const direct = async (q: string): Promise<void> => {
      const r = await bare.v2('/messages', {
        conditions: messageConditions(q),
        sort: true,
        sortColumn: 'createdAt',
        direction: 'DESC',
        page: 0,
        size: SEARCH_ROWS,
      });
      if (r.status !== 200) throw new Error(`messages answered ${r.status}: ${r.text.slice(0, 200)}`);
    };
    let found = 0;
    const console = async (q: string): Promise<void> => {
      const got = await c.call('history:search', { query: q });
      if (got.offline || got.superseded) throw new Error(`the search of "${q}" was not answered by the service`);
      found += got.hits.filter((h) => h.field === 'message').length;
    };
    const timed = async (fn: (q: string) => Promise<void>, q: string, into: number[]) => {
      const t0 = performance.now();
      await fn(q);
      into.push(performance.now() - t0);
    };
    for (let i = 0; i < WARMUP; i++) {
      await direct(QUERIES[i % QUERIES.length]!);
      await console(QUERIES[i % QUERIES.length]!);
    }
    found = 0;
    const base: number[] = [];
    const fig: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const q = QUERIES[i % QUERIES.length]!;
      if (i % 2) {
        await timed(direct, q, base);
        await timed(console, q, fig);
      } else {
        await timed(console, q, fig);
        await timed(direct, q, base);
      }
    }
    if (found === 0) throw new Error('no search found a message: the figure would measure nothing');
    const p95 = percentile(fig, 95);
    const b95 = percentile(base, 95);
    const ratio = p95 / b95;
    return [
      {
        figure: `search by message text, p95 over ${SESSIONS.toLocaleString('en')} sessions (${ROUNDS} searches)`,
        value: p95,
        unit: 'ms',
        baseline: b95,
        ratio,
        budget: `≤ ${BUDGET}× baseline`,
        holds: ratio <= BUDGET,
      },
    ];
  } finally {
    await c.app.close();
    await sb.close();
  }
}
