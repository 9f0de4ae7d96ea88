import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../support/root';

// The bridge's schemas (zod) check what crosses into the main process; the renderer imports
// their types only. A value imported from a schema file pulls zod and every schema into the
// page: 60 kB more to download and parse at each start. Checked on the built page, which the
// test command builds first.
test('the built renderer carries no schema library', () => {
  const dir = join(ROOT, 'out', 'renderer', 'assets');
  const scripts = readdirSync(dir).filter((f) => f.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(0);
  for (const f of scripts) {
    const text = readFileSync(join(dir, f), 'utf8');
    expect(text.includes('ZodError') || text.includes('_zod'), `${f} includes zod`).toBe(false);
  }
});
