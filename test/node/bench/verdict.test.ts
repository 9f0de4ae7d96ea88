import { test, expect } from '@playwright/test';
import { benchVerdict } from '../../../bench/verdict';

const row = (figure: string, value: number, holds?: boolean, budget = '<= 100 ms') => ({
  module: 'm',
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
  expect(passed).toEqual({ missed: [], lines: ['bench: every budget holds (2 checked)'], exitCode: 0 });
});
