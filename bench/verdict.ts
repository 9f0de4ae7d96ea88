import type { BenchRow } from './types';

/** What a budget row shows in the table's "holds" column, and what a missed one on a busy machine says. */
export const NOT_JUDGED = 'machine busy: not judged';

/** Exit status of a run that judged no budget at all (every one was not judged): not a pass. */
export const NOTHING_JUDGED_EXIT = 3;

type Row = BenchRow & { module: string };

/** The "holds" cell of a row: yes, NO, "machine busy: not judged", or empty for a row without a budget. */
export function holdsCell(row: Row, busy: ReadonlyMap<string, string>): string {
  if (row.budget === undefined) return '';
  if (row.holds === true) return 'yes';
  return busy.has(row.module) && !row.judgedWhenBusy ? NOT_JUDGED : 'NO';
}

/**
 * The closing lines of `npm run bench` and its exit status. `busy` names the modules measured
 * while other work took the machine (with what it was doing): a budget they miss is not judged,
 * since the figure then judges the machine; one they hold still holds. Exit 1 when any budget
 * is missed on a quiet machine or any module failed; a row with a budget but no verdict counts
 * as missed (a bench bug is no pass). Exit 0 when nothing judged was missed; NOTHING_JUDGED_EXIT
 * when budgets were checked but none could be judged.
 */
export function benchVerdict(
  rows: readonly Row[],
  failures: readonly string[],
  fmt: (v: number) => string = String,
  busy: ReadonlyMap<string, string> = new Map(),
): { missed: string[]; notJudged: string[]; lines: string[]; exitCode: 0 | 1 | typeof NOTHING_JUDGED_EXIT } {
  const budgeted = rows.filter((r) => r.budget !== undefined);
  const missedRows = budgeted.filter((r) => holdsCell(r, busy) === 'NO');
  const unjudgedRows = budgeted.filter((r) => holdsCell(r, busy) === NOT_JUDGED);
  const held = budgeted.length - missedRows.length - unjudgedRows.length;
  const describe = (r: Row) => `[${r.module}] ${r.figure}: ${fmt(r.value)} ${r.unit}, budget ${r.budget}`;
  const lines = [
    ...missedRows.map((r) => `budget missed: ${describe(r)}`),
    ...unjudgedRows.map((r) => `${NOT_JUDGED}: ${describe(r)} (${busy.get(r.module)})`),
    ...failures.map((f) => `failed: ${f}`),
  ];
  const missed = missedRows.map((r) => `${r.module}: ${r.figure}`);
  const notJudged = unjudgedRows.map((r) => `${r.module}: ${r.figure}`);
  const unjudgedNote = unjudgedRows.length ? `, ${unjudgedRows.length} not judged (machine busy)` : '';
  if (missedRows.length || failures.length) {
    lines.push(`bench: FAILED (${missedRows.length} budget(s) missed, ${failures.length} module(s) failed${unjudgedNote})`);
    return { missed, notJudged, lines, exitCode: 1 };
  }
  if (unjudgedRows.length && held === 0) {
    lines.push(
      `bench: NOT JUDGED (the machine was busy: ${unjudgedRows.length} budget(s) not judged, none held); run it again on a quiet machine`,
    );
    return { missed, notJudged, lines, exitCode: NOTHING_JUDGED_EXIT };
  }
  // Held on a busy machine still holds (with less margin than a quiet one would show): said, not hidden.
  const busyHeld = [...new Set(budgeted.filter((r) => busy.has(r.module)).map((r) => r.module))];
  const busyNote = busyHeld.length ? `; measured on a busy machine: ${busyHeld.join(', ')}` : '';
  lines.push(
    unjudgedRows.length
      ? `bench: every judged budget holds (${held} held${unjudgedNote}${busyNote})`
      : `bench: every budget holds (${held} checked${busyNote})`,
  );
  return { missed, notJudged, lines, exitCode: 0 };
}
