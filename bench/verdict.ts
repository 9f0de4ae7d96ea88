import type { BenchRow } from './types';

/**
 * The closing lines of `npm run bench` and its exit status: 1 when any budget is missed or any
 * module failed. A row with a budget but no verdict counts as missed (a bench bug is no pass).
 */
export function benchVerdict(
  rows: ReadonlyArray<BenchRow & { module: string }>,
  failures: readonly string[],
  fmt: (v: number) => string = String,
): { missed: string[]; lines: string[]; exitCode: 0 | 1 } {
  const missedRows = rows.filter((r) => r.budget !== undefined && r.holds !== true);
  const lines = [
    ...missedRows.map((r) => `budget missed: [${r.module}] ${r.figure}: ${fmt(r.value)} ${r.unit}, budget ${r.budget}`),
    ...failures.map((f) => `failed: ${f}`),
  ];
  const missed = missedRows.map((r) => `${r.module}: ${r.figure}`);
  if (missedRows.length || failures.length) {
    lines.push(`bench: FAILED (${missedRows.length} budget(s) missed, ${failures.length} module(s) failed)`);
    return { missed, lines, exitCode: 1 };
  }
  lines.push(`bench: every budget holds (${rows.filter((r) => r.budget !== undefined).length} checked)`);
  return { missed, lines, exitCode: 0 };
}
