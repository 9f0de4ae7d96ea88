import { test, expect } from '@playwright/test';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger } from '../../../src-main/log';
import { tempDirs } from '../../support/temp-dirs';

const tempDir = tempDirs('log-rotation-');

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { n: number }).n);

test("the console's log is bounded however long it runs: past its size it starts afresh, the file before kept as .1, nothing older", async () => {
  const dir = await tempDir();
  const file = join(dir, 'logs', 'console.log');
  const max = 4_000;
  const log = createLogger({ file, maxFileBytes: max });
  for (let n = 1; n <= 300; n++) log.info('a line of the shift', { n });
  await log.close();

  expect(statSync(file).size).toBeLessThanOrEqual(max);
  expect(statSync(`${file}.1`).size).toBeLessThanOrEqual(max);
  expect(existsSync(`${file}.2`)).toBe(false);
  // The newest lines are in the log, the ones just before them in .1, in order and without a gap.
  const now = lines(file);
  const before = lines(`${file}.1`);
  expect(now[now.length - 1]).toBe(300);
  expect([...before, ...now]).toEqual(
    Array.from({ length: before.length + now.length }, (_, i) => 300 - before.length - now.length + 1 + i),
  );

  // A console started again goes on in the same file, still within its size.
  const again = createLogger({ file, maxFileBytes: max });
  for (let n = 301; n <= 320; n++) again.info('a line of the next day', { n });
  await again.close();
  expect(statSync(file).size).toBeLessThanOrEqual(max);
  expect(lines(file).at(-1)).toBe(320);
});
