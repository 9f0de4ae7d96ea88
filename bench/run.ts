// npm run bench: runs every benchmark module, prints one table and writes it as JSON under
// bench/results/. Each module measures its own baseline in the same run.
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchRow } from './types';

const MODULES = [
  'standin-query',
  'standin-isolation',
  'client',
  'webhooks-ingest',
  'events-latency',
  'outbox',
  'startup',
  'renderer',
  'idle',
] as const;

const only = process.argv.slice(2);
const rows: Array<BenchRow & { module: string }> = [];
const failures: string[] = [];

for (const name of MODULES) {
  if (only.length && !only.includes(name)) continue;
  const file = join(import.meta.dirname, `${name}.ts`);
  if (!existsSync(file)) {
    failures.push(`${name}: not written yet`);
    continue;
  }
  const started = Date.now();
  process.stderr.write(`bench: ${name}…\n`);
  try {
    const mod = (await import(file)) as { run(): Promise<BenchRow[]> };
    for (const row of await mod.run()) rows.push({ module: name, ...row });
    process.stderr.write(`bench: ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  } catch (e) {
    failures.push(`${name}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

const fmt = (v: number | undefined) => (v === undefined ? '' : Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toFixed(3));
const table = rows.map((r) => ({
  figure: r.figure,
  value: `${fmt(r.value)} ${r.unit}`,
  baseline: r.baseline === undefined ? '' : `${fmt(r.baseline)} ${r.unit}`,
  ratio: fmt(r.ratio),
  budget: r.budget ?? '',
  holds: r.holds === undefined ? '' : r.holds ? 'yes' : 'NO',
}));
const headers = ['figure', 'value', 'baseline', 'ratio', 'budget', 'holds'] as const;
const widths = headers.map((h) => Math.max(h.length, ...table.map((r) => r[h].length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
console.log(line([...headers]));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of table) console.log(line(headers.map((h) => r[h])));
for (const f of failures) console.log(`not measured: ${f}`);

const dir = join(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const out = { at: new Date().toISOString(), node: process.version, rows, failures };
writeFileSync(join(dir, `bench-${stamp}.json`), JSON.stringify(out, null, 2));
writeFileSync(join(dir, 'latest.json'), JSON.stringify(out, null, 2));
console.log(`\nwritten: bench/results/latest.json`);
process.exit(0);
