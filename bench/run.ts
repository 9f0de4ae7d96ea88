// npm run bench: runs every benchmark module, prints one table and writes it as JSON to
// bench/results/latest.json (and, with --record NAME, to bench/results/<date>-NAME.json to be
// committed). Each module measures its own baseline in the same run. The exit status is 1 when
// a budget is missed or a module fails, and the last lines say which.
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, totalmem, loadavg, platform, release } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { BenchRow } from './types';
import { benchVerdict } from './verdict';

const MODULES = [
  'standin-query',
  'standin-isolation',
  'hostile-service',
  'client',
  'webhooks-ingest',
  'events-latency',
  'outbox',
  'startup',
  'renderer',
  'idle',
  'request-cost',
  'search',
  'relay',
] as const;

const { values: opts, positionals: only } = parseArgs({
  allowPositionals: true,
  options: { record: { type: 'string' }, note: { type: 'string' } },
});
if (opts.record !== undefined && !/^[a-z0-9][a-z0-9-]*$/i.test(opts.record)) {
  console.error('--record takes a short name for this machine: letters, digits and dashes');
  process.exit(2);
}
const unknown = only.filter((n) => !(MODULES as readonly string[]).includes(n));
if (unknown.length) {
  console.error(`unknown benchmark: ${unknown.join(', ')} (known: ${MODULES.join(', ')})`);
  process.exit(2);
}

/** What the figures were measured on; load average says how busy the machine was. */
function machine() {
  const cpu = cpus();
  return {
    cpuModel: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memoryGiB: Number((totalmem() / 1024 ** 3).toFixed(1)),
    os: `${platform()} ${release()}`,
    node: process.version,
    loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
  };
}

const before = machine();
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

const fmt = (v: number | undefined) =>
  v === undefined ? '' : Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toFixed(3);
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

const verdict = benchVerdict(rows, failures, fmt);
const at = new Date();
const out = {
  at: at.toISOString(),
  machine: { ...before, loadAverageAfter: machine().loadAverage },
  ...(opts.note ? { note: opts.note } : {}),
  modules: only.length ? only : [...MODULES],
  rows,
  missed: verdict.missed,
  failures,
};
const dir = join(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'latest.json'), `${JSON.stringify(out, null, 2)}\n`);
console.log(`\nwritten: bench/results/latest.json`);
if (opts.record) {
  const name = `${at.toISOString().slice(0, 10)}-${opts.record}.json`;
  writeFileSync(join(dir, name), `${JSON.stringify(out, null, 2)}\n`);
  console.log(`recorded: bench/results/${name}`);
}

console.log('');
for (const l of verdict.lines) console.log(l);
process.exit(verdict.exitCode);
