// npm run bench: runs every benchmark module, prints one table and writes it as JSON to
// bench/results/latest.json (and, with --record NAME, to bench/results/<date>-NAME.json to be
// committed). Each module measures its own baseline in the same run, in a process of its own
// (bench/module-process.ts, with --expose-gc for bench/heap.ts): what one module leaves behind
// never weighs on the next, and a module measures the same alone as in the full run. Before each
// module the bench waits for the machine to be quiet (bench/machine.ts); a module measured while
// other work took the machine has its missed budgets marked "not judged". The exit status is 1
// when a budget is missed on a quiet machine or a module fails, and the last lines say which
// (bench/verdict.ts).
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, totalmem, loadavg, platform, release } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ModuleAnswer } from './module-process';
import type { BenchRow } from './types';
import { benchVerdict, holdsCell } from './verdict';
import { BUSY_SHARE_DURING, cpuWatch, describeBusy, isBusy, waitForQuiet, type BusyReading } from './machine';
import { errorText } from '../src-shared/error-text';

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
  'relay-cluster',
  'shift',
  'busy-desktop',
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

/** Runs one module in a fresh process and returns its rows; rejects with why it gave none. */
function runModule(name: string): Promise<BenchRow[]> {
  return new Promise((resolve, reject) => {
    const child = fork(join(import.meta.dirname, 'module-process.ts'), [name], {
      execArgv: ['--import', 'tsx', '--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let answer: ModuleAnswer | undefined;
    child.on('message', (m) => (answer = m as ModuleAnswer));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (answer && 'rows' in answer) resolve(answer.rows);
      else reject(new Error(answer?.error ?? `its process ended (${signal ?? `exit code ${code}`}) without figures`));
    });
  });
}

const before = machine();
const rows: Array<BenchRow & { module: string }> = [];
const failures: string[] = [];
/** Modules measured on a busy machine, with what it was doing. */
const busy = new Map<string, string>();
/** Each module's readings of the machine, before and while it ran, for the results file. */
const readings: Record<string, { before: BusyReading; during: BusyReading }> = {};

for (const name of MODULES) {
  if (only.length && !only.includes(name)) continue;
  const file = join(import.meta.dirname, `${name}.ts`);
  if (!existsSync(file)) {
    failures.push(`${name}: not written yet`);
    continue;
  }
  const quiet = await waitForQuiet(undefined, (r) =>
    process.stderr.write(`bench: ${name} waits for a quiet machine (${describeBusy(r)})\n`),
  );
  const started = Date.now();
  process.stderr.write(`bench: ${name}…\n`);
  const watch = cpuWatch();
  try {
    for (const row of await runModule(name)) {
      // A figure that is not a number (NaN crosses from the module's process as null) was not
      // measured: the module failed at it, whatever its row says.
      const unmeasured = [row.value, row.baseline, row.ratio].some((v) => v !== undefined && !Number.isFinite(v));
      if (unmeasured)
        failures.push(`${name}: "${row.figure}" was not measured (value ${String(row.value)}, baseline ${String(row.baseline)})`);
      else rows.push({ module: name, ...row });
    }
    process.stderr.write(`bench: ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  } catch (e) {
    failures.push(`${name}: ${errorText(e)}`);
  }
  // While it ran, the load average counts the module's own work: only others' CPU time tells.
  const during = watch.stop();
  readings[name] = { before: quiet, during };
  if (isBusy(quiet)) busy.set(name, `busy before it started: ${describeBusy(quiet)}`);
  else if (during.source === 'cpu' && isBusy(during, BUSY_SHARE_DURING)) busy.set(name, `busy while it ran: ${describeBusy(during)}`);
}

const fmt = (v: number | undefined) =>
  v === undefined ? '' : Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toFixed(3);
const table = rows.map((r) => ({
  figure: r.figure,
  value: `${fmt(r.value)} ${r.unit}`,
  baseline: r.baseline === undefined ? '' : `${fmt(r.baseline)} ${r.unit}`,
  ratio: fmt(r.ratio),
  budget: r.budget ?? '',
  holds: holdsCell(r, busy),
}));
const headers = ['figure', 'value', 'baseline', 'ratio', 'budget', 'holds'] as const;
const widths = headers.map((h) => Math.max(h.length, ...table.map((r) => r[h].length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
console.log(line([...headers]));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of table) console.log(line(headers.map((h) => r[h])));

const verdict = benchVerdict(rows, failures, fmt, busy);
const at = new Date();
const out = {
  at: at.toISOString(),
  machine: { ...before, loadAverageAfter: machine().loadAverage },
  ...(opts.note ? { note: opts.note } : {}),
  modules: only.length ? only : [...MODULES],
  rows,
  missed: verdict.missed,
  notJudged: verdict.notJudged,
  busy: Object.fromEntries(busy),
  readings,
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
