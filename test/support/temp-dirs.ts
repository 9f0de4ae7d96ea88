import { test } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Fresh directories for this test file, removed after its last test. */
export function tempDirs(prefix: string): () => Promise<string> {
  const dirs: string[] = [];
  test.afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });
  return async () => {
    const d = await mkdtemp(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
}
