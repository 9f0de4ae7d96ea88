// The console's thread while the demo stand-in works: bridge calls over the loopback host (the
// renderer's path) while the stand-in, in its worker, runs about the slowest query it accepts,
// back to back. Baseline: the same calls with the stand-in idle. Budget: p99 at most 3 times the
// baseline's; were the query on the console's thread, each call would wait it out (tens of ms).
import { freshProfile, launchHost, webBridge } from '../test/support/host';
import { openDemoSession } from '../test/support/console';
import { seedLongNotes, slowestQuery, timedQuery } from '../test/support/standin-load';
import { percentile } from './support';
import type { BenchRow } from './types';

const CALLS = 300;
const GAP_MS = 5;
const LONG_NOTES = 20;
const RATIO_BUDGET = 3;

async function bridgeTimes(call: () => Promise<{ status: number; ms: number }>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const r = await call();
    if (r.status !== 200) throw new Error(`bridge call answered ${r.status}`);
    out.push(r.ms);
    await new Promise<void>((resolve) => setTimeout(resolve, GAP_MS));
  }
  return out;
}

export async function run(): Promise<BenchRow[]> {
  const host = await launchHost(freshProfile());
  try {
    const { sb, sessionId } = await openDemoSession(host.app);
    await seedLongNotes(sb, sessionId, LONG_NOTES);
    const bridge = await webBridge(host);
    const state = () => bridge('workspace:state');
    for (let i = 0; i < 20; i++) await state(); // warm
    const idle = percentile(await bridgeTimes(state), 99);

    const { path, body } = slowestQuery();
    let busy = true;
    const queryMs: number[] = [];
    // Bounded: stops when the calls are done.
    const load = (async () => {
      while (busy) {
        const q = await timedQuery(sb, path, body);
        if (q.status !== 200) throw new Error(`slowest query answered ${q.status}`);
        queryMs.push(q.ms);
      }
    })();
    let loaded: number[];
    try {
      loaded = await bridgeTimes(state);
    } finally {
      busy = false;
      await load;
    }
    const p99 = percentile(loaded, 99);
    return [
      {
        figure: `stand-in's slowest query (${LONG_NOTES} notes of 10,000 characters, ${queryMs.length} runs), p50`,
        value: percentile(queryMs, 50),
        unit: 'ms',
      },
      {
        figure: 'bridge call p99 while the stand-in runs its slowest query',
        value: p99,
        unit: 'ms',
        baseline: idle,
        ratio: p99 / idle,
        budget: `<= ${RATIO_BUDGET} x idle`,
        holds: p99 / idle <= RATIO_BUDGET,
      },
    ];
  } finally {
    await host.close();
  }
}
