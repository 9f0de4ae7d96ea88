import { spawn } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { benchVerdict, holdsCell, NOT_JUDGED, NOTHING_JUDGED_EXIT } from '../../../bench/verdict';
import { cpuWatch, isBusy, type BusyReading } from '../../../bench/machine';

const row = (figure: string, value: number, holds?: boolean, budget = '<= 100 ms', module = 'm') => ({
  module,
  figure,
  value,
  unit: 'ms',
  budget,
  ...(holds === undefined ? {} : { holds }),
});

test('npm run bench fails, naming each missed budget and failed module, and passes only when every budget holds', () => {
  const failed = benchVerdict(
    [row('p99', 250, false), row('p50', 20, true), { module: 'm', figure: 'heap', value: 3, unit: 'MB' }],
    ['startup: Chromium did not start'],
  );
  expect(failed.exitCode).toBe(1);
  expect(failed.lines).toEqual([
    'budget missed: [m] p99: 250 ms, budget <= 100 ms',
    'failed: startup: Chromium did not start',
    'bench: FAILED (1 budget(s) missed, 1 module(s) failed)',
  ]);
  expect(failed.missed).toEqual(['m: p99']);

  // A module that throws fails the run even when every measured budget holds.
  expect(benchVerdict([row('p50', 20, true)], ['outbox: ENOSPC']).exitCode).toBe(1);
  // A budget without a verdict is not a pass.
  expect(benchVerdict([row('p99', 20)], []).exitCode).toBe(1);

  const passed = benchVerdict([row('p50', 20, true), row('p99', 90, true)], []);
  expect(passed).toEqual({ missed: [], notJudged: [], lines: ['bench: every budget holds (2 checked)'], exitCode: 0 });
});

test('a budget missed while the machine was busy is not judged: the run does not fail for it, and says so', () => {
  const busy = new Map([['events', 'busy before it started: others used 2.0 of 2 cores, load average 2.10']]);
  const rows = [
    row('p99', 402, false, '<= 100 ms', 'events'),
    row('rate', 990, true, '>= 950', 'events'),
    row('p50', 20, true, '<= 50 ms', 'client'),
  ];
  expect(rows.map((r) => holdsCell(r, busy))).toEqual([NOT_JUDGED, 'yes', 'yes']);
  const v = benchVerdict(rows, [], String, busy);
  expect(v.exitCode).toBe(0);
  expect(v.missed).toEqual([]);
  expect(v.notJudged).toEqual(['events: p99']);
  expect(v.lines).toEqual([
    'machine busy: not judged: [events] p99: 402 ms, budget <= 100 ms (busy before it started: others used 2.0 of 2 cores, load average 2.10)',
    'bench: every judged budget holds (2 held, 1 not judged (machine busy); measured on a busy machine: events)',
  ]);

  // Every budget held, some of them on a busy machine: the run passes and names those modules.
  const heldWhileBusy = benchVerdict(
    [row('rate', 990, true, '>= 950', 'events'), row('p50', 20, true, '<= 50 ms', 'client')],
    [],
    String,
    busy,
  );
  expect(heldWhileBusy.exitCode).toBe(0);
  expect(heldWhileBusy.lines).toEqual(['bench: every budget holds (2 checked; measured on a busy machine: events)']);

  // The same miss on a quiet machine fails the run.
  const quiet = benchVerdict(rows, [], String, new Map());
  expect(quiet.exitCode).toBe(1);
  expect(quiet.lines.at(-1)).toBe('bench: FAILED (1 budget(s) missed, 0 module(s) failed)');

  // A quiet module's miss still fails a run where another module was busy.
  const mixed = benchVerdict([...rows, row('cold start', 2.1, false, '<= 1.3 x static', 'client')], [], String, busy);
  expect(mixed.exitCode).toBe(1);
  expect(mixed.missed).toEqual(['client: cold start']);

  // A module that failed on a busy machine still fails the run: a crash is no measurement.
  expect(benchVerdict(rows, ['events: the sender exited (1)'], String, busy).exitCode).toBe(1);

  // Nothing held and every budget not judged: the run proved nothing, and its status says so.
  const none = benchVerdict([row('p99', 402, false, '<= 100 ms', 'events')], [], String, busy);
  expect(none.exitCode).toBe(NOTHING_JUDGED_EXIT);
  expect(none.lines.at(-1)).toMatch(/^bench: NOT JUDGED \(the machine was busy/);
});

test('the machine is busy when others take more than half its cores before a module, by their CPU time or else the load average', () => {
  const reading = (r: Partial<BusyReading>): BusyReading => ({ others: 0, load1: 0, cores: 2, source: 'cpu', ...r });
  // A CPU hog on both cores; the bench's own earlier work in the load average does not count.
  expect(isBusy(reading({ others: 1.97, load1: 2.4 }))).toBe(true);
  expect(isBusy(reading({ others: 0.1, load1: 2.4 }))).toBe(false);
  expect(isBusy(reading({ others: 1.0 }))).toBe(false);
  // While a module runs it competes for the cores: a quarter of them taken by others is busy.
  expect(isBusy(reading({ others: 0.6 }), 0.25)).toBe(true);
  // Without /proc, the 1-minute load average is all there is.
  expect(isBusy(reading({ source: 'load', others: 0, load1: 1.4 }))).toBe(true);
  expect(isBusy(reading({ source: 'load', others: 0, load1: 0.3 }))).toBe(false);
});

test("on Linux the machine is read from /proc: the bench's own work is not counted as others'", async () => {
  test.skip(process.platform !== 'linux', 'reads /proc');
  const w = cpuWatch();
  // 300 ms of CPU in a child process (as the bench's Chromium and hosts are), however busy the machine.
  const spin = 'const end = 300_000; while (process.cpuUsage().user < end);';
  const child = spawn(process.execPath, ['-e', spin]);
  await new Promise((r) => child.once('exit', r));
  const r = w.stop();
  expect(r.source).toBe('cpu');
  // The exited child's time is the bench's (its parent's reaped children), not others'.
  expect(r.ours! * r.seconds!).toBeGreaterThanOrEqual(0.28);
  expect(r.others + r.ours!).toBeLessThanOrEqual(r.cores * 1.05);
});

test("a process the bench started stays the bench's after its parent exits (a closed browser's renderers are re-parented)", async () => {
  test.skip(process.platform !== 'linux', 'reads /proc');
  const w = cpuWatch(100);
  // A child starts a grandchild that works for 1.2 s of CPU, and exits when told: the grandchild is
  // then re-parented to init, out of the bench's process tree, while it works.
  const grandchild = 'const end = 1_200_000; while (process.cpuUsage().user < end);';
  const starter = `const c = process.getBuiltinModule('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { detached: true, stdio: 'ignore' }); process.stdout.write(String(c.pid) + '\\n'); c.unref(); process.stdin.on('end', () => process.exit(0)).resume();`;
  const child = spawn(process.execPath, ['-e', starter]);
  const pid = await new Promise<number>((resolve) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(Number(out.trim()));
    });
  });
  expect(pid).toBeGreaterThan(0);
  // The parent lives past a sample (as a browser outlives its renderers' first moments: the watch
  // follows every 100 ms, and this timer, set later and longer, fires after that sample), then exits.
  await new Promise((r) => setTimeout(r, 300));
  const closed = new Promise((r) => child.once('close', r));
  child.stdin.end();
  await closed;
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 400 && alive(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(alive()).toBe(false);
  const r = w.stop();
  // What it used after the last sample before it exited is not seen: a few samples' lag on a busy machine.
  expect(r.ours! * r.seconds!).toBeGreaterThanOrEqual(0.9);
  expect(r.others + r.ours!).toBeLessThanOrEqual(r.cores * 1.05);
});

test('a budget that measures a busy machine on purpose is judged even when the machine was busy', () => {
  const busy = new Map([['busy-desktop', 'busy while it ran: others used 1.0 of 2 cores']]);
  const onPurpose = { ...row('p99 at 100/s, one core busy', 410, false, '<= 250 ms', 'busy-desktop'), judgedWhenBusy: true };
  expect(holdsCell(onPurpose, busy)).toBe('NO');
  const verdict = benchVerdict([onPurpose], [], String, busy);
  expect(verdict.exitCode).toBe(1);
  expect(verdict.missed).toEqual(['busy-desktop: p99 at 100/s, one core busy']);
  expect(benchVerdict([{ ...onPurpose, value: 120, holds: true }], [], String, busy).exitCode).toBe(0);
});

test('how far behind a flood falls: the slowest event, and the span from the first late event sent to the last one shown', async () => {
  const { behind } = await import('../../../bench/busy-desktop');
  const sentAt = new Map([
    ['a', 0],
    ['b', 10],
    ['c', 20],
    ['d', 30],
  ]);
  const seenAt = new Map([
    ['a', 50],
    ['b', 400],
    ['c', 1_020],
    ['d', 80],
  ]);
  expect(behind({ sentAt, seenAt }, 250)).toEqual({ maxMs: 1_000, lateForMs: 1_010, late: 2 });
  expect(behind({ sentAt, seenAt: new Map([['a', 40]]) }, 250)).toEqual({ maxMs: 40, lateForMs: 0, late: 0 });
});
