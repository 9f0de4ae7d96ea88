/**
 * Live updates on a shared desktop: the event-to-painted-frame path of `events-latency` (a
 * console host, its demo workspace's event log on screen in Chromium, signed events sent to its
 * listener) while another program keeps one of the machine's cores busy for the whole module
 * (stress-ng, as a browser or a video call would on an attendant's desktop). Judged even though
 * the machine is busy: a busy machine is what it measures.
 * - At a realistic peak (100 events/s across the workspace) each event reaches the painted row
 *   with p99 ≤ 250 ms.
 * - At 1,000 events/s the console may fall behind but must catch up: how far behind it falls (the
 *   slowest event) and for how long (from the first event later than 250 ms to the last one's
 *   frame), bounded at 10 s: never minutes behind.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { BenchRow } from './types';
import { percentile } from './support';
import { withEventScreen, type PhaseFigures } from './events-latency';

const PEAK_RATE = 100;
const PEAK_SECONDS = Number(process.env.BENCH_BUSY_PEAK_SECONDS ?? 20);
const FLOOD_RATE = 1000;
const FLOOD_SECONDS = Number(process.env.BENCH_BUSY_FLOOD_SECONDS ?? 5);
const PEAK_P99_MS = 250;
const BEHIND_MS = 10_000;

/** How far behind a phase fell and for how long: the slowest event, and the span of events later than the peak budget. */
export function behind(f: Pick<PhaseFigures, 'sentAt' | 'seenAt'>, lateMs: number): { maxMs: number; lateForMs: number; late: number } {
  let maxMs = 0;
  let firstLateSent = Infinity;
  let lastLateSeen = -Infinity;
  let late = 0;
  for (const [id, seen] of f.seenAt) {
    const sent = f.sentAt.get(id);
    if (sent === undefined) continue;
    const lag = seen - sent;
    maxMs = Math.max(maxMs, lag);
    if (lag > lateMs) {
      late++;
      firstLateSent = Math.min(firstLateSent, sent);
      lastLateSeen = Math.max(lastLateSeen, seen);
    }
  }
  return { maxMs, lateForMs: late ? lastLateSeen - firstLateSent : 0, late };
}

/** One core taken for the module's length by a program that is not the console. */
function takeOneCore(): () => void {
  const found = spawnSync('sh', ['-c', 'command -v stress-ng'], { encoding: 'utf8' });
  if (found.status !== 0)
    throw new Error(
      'stress-ng is not installed (npm run bench installs it through scripts/setup.mjs as root; Debian: apt-get install stress-ng)',
    );
  const hog = spawn('stress-ng', ['--cpu', '1', '--timeout', '900s', '--quiet'], { stdio: 'ignore', detached: true });
  return () => {
    try {
      process.kill(-hog.pid!, 'SIGKILL');
    } catch {
      hog.kill('SIGKILL');
    }
  };
}

export async function run(): Promise<BenchRow[]> {
  const release = takeOneCore();
  try {
    return await withEventScreen(async (measure) => {
      const peak = await measure('peak', PEAK_RATE, PEAK_RATE * PEAK_SECONDS);
      const flood = await measure('flood', FLOOD_RATE, FLOOD_RATE * FLOOD_SECONDS);
      const p99 = percentile(peak.latencies, 99);
      const reachedPeak = peak.seen / peak.count;
      const reachedFlood = flood.seen / flood.count;
      const lag = behind(flood, PEAK_P99_MS);
      return [
        { figure: `one core busy: event to painted frame, p50 at ${PEAK_RATE}/s`, value: percentile(peak.latencies, 50), unit: 'ms' },
        {
          figure: `one core busy: event to painted frame, p99 at ${PEAK_RATE}/s`,
          value: p99,
          unit: 'ms',
          budget: `<= ${PEAK_P99_MS} ms, every event shown`,
          holds: p99 <= PEAK_P99_MS && reachedPeak === 1,
          judgedWhenBusy: true,
        },
        { figure: `one core busy: event to painted frame, p99 at ${FLOOD_RATE}/s`, value: percentile(flood.latencies, 99), unit: 'ms' },
        {
          figure: `one core busy at ${FLOOD_RATE}/s: furthest behind (slowest event)`,
          value: lag.maxMs,
          unit: 'ms',
          budget: `<= ${BEHIND_MS} ms, every event shown`,
          holds: lag.maxMs <= BEHIND_MS && reachedFlood === 1,
          judgedWhenBusy: true,
        },
        { figure: `one core busy at ${FLOOD_RATE}/s: behind by more than ${PEAK_P99_MS} ms for`, value: lag.lateForMs, unit: 'ms' },
        {
          figure: `one core busy at ${FLOOD_RATE}/s: events later than ${PEAK_P99_MS} ms`,
          value: (lag.late / flood.count) * 100,
          unit: '%',
        },
        { figure: `one core busy: send rate achieved at ${FLOOD_RATE}/s`, value: flood.rate, unit: 'events/s' },
      ];
    });
  } finally {
    release();
  }
}
