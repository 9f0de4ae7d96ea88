import { test } from '@playwright/test';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Fresh directories for this test file, removed after its last test. A server the file stops in
 * a later hook (hooks run in the order they are declared) may still be writing there: what cannot
 * be removed then is removed when the worker exits. A scratch folder left a while never fails a test.
 */
export function tempDirs(prefix: string): () => Promise<string> {
  const dirs: string[] = [];
  test.afterAll(async () => {
    for (const d of dirs) {
      try {
        await rm(d, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
      } catch {
        process.once('exit', () => {
          try {
            rmSync(d, { recursive: true, force: true, maxRetries: 3 });
          } catch {
            // Still held: the system's temporary folder keeps it.
          }
        });
      }
    }
  });
  return async () => {
    const d = await mkdtemp(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
}
