/**
 * The README's sizing advice for a larger operation, measured: a three-node JetStream cluster on
 * loopback with the operation's stream on three replicas, the stream's leader killed with
 * SIGKILL a third into a burst of signed deliveries and started again, the consoles (connected to
 * that node) moving to the others (test/support/relay-cluster.ts, as the node test runs it).
 * Figures: events lost and applied twice (budget 0 each), and the time from the kill until every
 * console applies again an event sent after it. Bounded: the burst's deliveries give up after
 * their attempts, every wait has its limit.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clusterBurst } from '../test/support/relay-cluster';
import type { BenchRow } from './types';

const EVENTS = Number(process.env.BENCH_CLUSTER_EVENTS ?? 2_000);
const CONSOLES = Number(process.env.BENCH_CLUSTER_CONSOLES ?? 10);

export async function run(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-relay-cluster-'));
  try {
    const r = await clusterBurst({ dir, events: EVENTS, consoles: CONSOLES });
    const zero = (figure: string, value: number): BenchRow => ({ figure, value, unit: 'events', budget: '0', holds: value === 0 });
    return [
      zero(
        `3-node cluster, leader killed mid-burst (${r.events} events, ${r.consoles} consoles): lost (console x event)`,
        r.lost + r.gaveUp,
      ),
      zero('3-node cluster, leader killed mid-burst: applied twice', r.twice),
      { figure: '3-node cluster: kill to every console applying again through the others', value: r.recoverMs, unit: 'ms' },
      { figure: `3-node cluster: the burst end to end, ${r.events} events across the kill`, value: r.elapsedMs, unit: 'ms' },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// Run directly: npx tsx bench/relay-cluster.ts
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await run()) console.log(JSON.stringify(row));
}
