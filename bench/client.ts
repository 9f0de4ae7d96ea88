import { Agent, request } from 'undici';
import { pageEnvelope } from '../src-shared/envelopes';
import { V2, RESOURCES } from '../src-shared/paths';
import { SessionSchema } from '../src-shared/schemas/index';
import { createServiceClient } from '../src-main/service/index';
import { startStandin } from '../src-standin/index';
import { settleHeap } from './heap';
import type { BenchRow } from './types';

/**
 * Listing 1,000 sessions (two pages of 500) through the service client, answers checked against
 * their zod schemas, against a bare undici request to the same URL in the same run. Rounds
 * alternate between the two so drift on a shared machine hits both alike; medians are compared.
 * The heap is collected before each timed read: each pays for its own garbage (bench/heap.ts).
 */

const TARGET = 1000;
const PAGE = 500;
const WARMUP = 5;
const ROUNDS = 40;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const round = (n: number, digits = 2): number => Number(n.toFixed(digits));

export async function run(): Promise<BenchRow[]> {
  const sb = await startStandin({ port: 0 });
  const token = sb.tokens.admin;
  const client = createServiceClient({ baseUrl: sb.baseUrl, getToken: async () => token, maxConcurrent: 6 });
  const bareAgent = new Agent({ connections: 6, keepAliveTimeout: 10_000 });
  try {
    const sessions = client.resource('userSession');
    // The seed may hold fewer sessions than the figure needs: top it up through the client.
    const have = (await sessions.pageAll({ size: PAGE }, { cap: TARGET })).length;
    for (let i = have; i < TARGET; i++) {
      await sessions.save({ status: 'CLOSED', userConnectedResource: 'email', protocol: `BENCH-${i}` });
    }

    const body = (page: number) => ({ conditions: [], sort: true, sortColumn: 'id', direction: 'ASC' as const, page, size: PAGE });
    const url = `${sb.baseUrl}${V2}${RESOURCES.userSession.list}`;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const bare = async (): Promise<number> => {
      let n = 0;
      for (const page of [0, 1]) {
        const res = await request(url, { method: 'POST', headers, body: JSON.stringify(body(page)), dispatcher: bareAgent });
        const json = (await res.body.json()) as { results: unknown[] };
        n += json.results.length;
      }
      return n;
    };
    const viaClient = async (): Promise<number> => {
      let n = 0;
      for (const page of [0, 1]) n += (await sessions.list(body(page))).results.length;
      return n;
    };
    const viaPageAll = async (): Promise<number> =>
      (await sessions.pageAll({ sort: true, sortColumn: 'id', size: PAGE }, { cap: TARGET })).length;

    for (let i = 0; i < WARMUP; i++) {
      await bare();
      await viaClient();
    }
    if ((await bare()) !== TARGET || (await viaClient()) !== TARGET) throw new Error('the bench did not see 1,000 sessions');

    const tBare: number[] = [];
    const tClient: number[] = [];
    const tPageAll: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      settleHeap();
      let t = performance.now();
      await bare();
      tBare.push(performance.now() - t);
      settleHeap();
      t = performance.now();
      await viaClient();
      tClient.push(performance.now() - t);
      settleHeap();
      t = performance.now();
      await viaPageAll();
      tPageAll.push(performance.now() - t);
    }

    // Validation alone, on the very bytes the service sent.
    const raw = await request(url, { method: 'POST', headers, body: JSON.stringify(body(0)), dispatcher: bareAgent });
    const text = await raw.body.text();
    const pageSchema = pageEnvelope(SessionSchema, 'userSession');
    const tParse: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const t = performance.now();
      pageSchema.parse(JSON.parse(text));
      tParse.push(performance.now() - t);
    }

    const bareMs = median(tBare);
    const clientMs = median(tClient);
    const pageAllMs = median(tPageAll);
    const ratio = clientMs / bareMs;
    return [
      { figure: 'list 1,000 sessions (2 pages of 500): bare undici request + JSON.parse', value: round(bareMs), unit: 'ms' },
      {
        figure: 'list 1,000 sessions (2 pages of 500): service client, zod-validated',
        value: round(clientMs),
        unit: 'ms',
        baseline: round(bareMs),
        ratio: round(ratio),
        budget: 'ratio <= 1.3',
        holds: ratio <= 1.3,
      },
      {
        figure: 'pageAll 1,000 sessions (adds the page that proves the list ended)',
        value: round(pageAllMs),
        unit: 'ms',
        baseline: round(bareMs),
        ratio: round(pageAllMs / bareMs),
      },
      {
        figure: 'one page of 500 sessions: JSON.parse + zod, record by record (what the client runs)',
        value: round(median(tParse)),
        unit: 'ms',
      },
    ];
  } finally {
    await client.close();
    await bareAgent.close();
    await sb.close();
  }
}
