// The console against a service that misbehaves: bridge calls over the loopback host (the
// renderer's path) and the host process's memory, while the console keeps reading answers that
// never end, that weigh 100 MB, or that nest 300,000 levels deep. Budgets: p99 at most 50 ms, and
// at most 64 MB over the console's idle memory (resident memory of the host process, a fresh one
// for each figure). Baseline: the same calls and the same reads while the service answers as it
// should, in the same run.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { webBridge } from '../test/support/host';
import { percentile, spawnHost, spawnPrinting, stopHost } from './support';
import type { BenchRow } from './types';

const CALLS = 300;
const GAP_MS = 5;
/** Between two reads of the queue the console is asked for: a steady stream of answers to read. */
const LOAD_GAP_MS = 20;
const MB = 1024 * 1024;

/** Resident memory of a process, from /proc. */
function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function run(): Promise<BenchRow[]> {
  const svc = await spawnPrinting(
    ['--import', 'tsx', join(import.meta.dirname, 'hostile-service-process.ts')],
    /hostile service (\S+ \S+)/,
    {
      input: true,
    },
  );
  const [baseUrl, token] = svc.url.split(' ') as [string, string];
  const replies = createInterface({ input: svc.child.stdout! });
  const behave = async (b: string) => {
    const answered = new Promise<void>((resolve) => {
      const on = (line: string) => {
        if (line.startsWith(`ok ${b} `)) {
          replies.off('line', on);
          resolve();
        }
      };
      replies.on('line', on);
    });
    svc.child.stdin?.write(`${b}\n`);
    await answered;
  };

  /**
   * One console, connected to the service while it behaves, then reading it while it answers as
   * `behaviour` says: bridge call times and the console's peak memory over its own idle. A fresh
   * console each time, so no figure carries what an earlier one left.
   */
  const measure = async (behaviour: string) => {
    await behave('good');
    const host = await spawnHost(mkdtempSync(join(tmpdir(), 'bench-profile-')));
    const pid = host.child.pid!;
    try {
      const bridge = await webBridge({ url: host.url, origin: new URL(host.url).origin });
      const connected = await bridge('workspace:connect', { baseUrl, token, allowWeakStorage: true });
      if (connected.status !== 200 || !('result' in (connected.body as object))) {
        throw new Error(`connecting to the hostile service failed: ${JSON.stringify(connected.body)}`);
      }
      const state = () => bridge('workspace:state');
      for (let i = 0; i < 20; i++) await state();
      await bridge('attendance:queue', { fresh: true });
      await pause(2_000); // the first reads of the workspace settle
      const idle = percentile(
        [0, 1, 2, 3, 4].map(() => rssBytes(pid)),
        50,
      );

      await behave(behaviour);
      let busy = true;
      let reads = 0;
      let peak = rssBytes(pid);
      const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 20);
      // Bounded: stops when the calls are done.
      const load = (async () => {
        while (busy) {
          await bridge('attendance:queue', { fresh: true });
          reads++;
          await pause(LOAD_GAP_MS);
        }
      })();
      const times: number[] = [];
      try {
        for (let i = 0; i < CALLS; i++) {
          const r = await state();
          if (r.status !== 200) throw new Error(`bridge call answered ${r.status}`);
          times.push(r.ms);
          await pause(GAP_MS);
        }
      } finally {
        busy = false;
        await load;
        clearInterval(sampler);
      }
      return { p99: percentile(times, 99), growth: (Math.max(peak, rssBytes(pid)) - idle) / MB, reads };
    } finally {
      await stopHost(host.child);
    }
  };

  try {
    const good = await measure('good');
    const rows: BenchRow[] = [
      { figure: 'bridge call p99, the service answering as it should', value: good.p99, unit: 'ms' },
      { figure: 'console memory over idle, the service answering as it should', value: good.growth, unit: 'MB' },
    ];
    const hostile = [
      ['endless', 'an answer that never ends'],
      ['huge', 'a 100 MB answer'],
      ['deep', 'JSON nested 300,000 levels deep'],
    ] as const;
    for (const [behaviour, what] of hostile) {
      const r = await measure(behaviour);
      rows.push(
        {
          figure: `bridge call p99 while the console reads ${what} (${r.reads} reads)`,
          value: r.p99,
          unit: 'ms',
          baseline: good.p99,
          ratio: r.p99 / good.p99,
          budget: '<= 50 ms',
          holds: r.p99 <= 50,
        },
        {
          figure: `console memory over idle while it reads ${what}`,
          value: r.growth,
          unit: 'MB',
          baseline: good.growth,
          budget: '<= 64 MB',
          holds: r.growth <= 64,
        },
      );
    }
    return rows;
  } finally {
    svc.child.stdin?.end();
    await stopHost(svc.child);
  }
}
