import { test, expect, _electron as electron } from '@playwright/test';
import { freshProfile } from '../support/host';
import { electronBinary, ROOT } from '../support/electron';

/** The checklist items only a real Electron binary can show; skipped where none exists. */

const root = ROOT;

const binary = electronBinary();

test('in the window: no Node, one bridge object, navigation and new windows denied, permissions refused', async () => {
  test.skip(
    !binary,
    'No Electron binary on this machine (its download is not reachable here); the same policies are tested as functions in test/node/security/electron.test.ts.',
  );
  const app = await electron.launch({ executablePath: binary!, args: [root, `--user-data-dir=${freshProfile()}`] });
  try {
    const win = await app.firstWindow();
    await expect(win.getByRole('button', { name: 'Open the demo workspace' })).toBeVisible();
    const globals = await win.evaluate(() => ({
      require: typeof (globalThis as { require?: unknown }).require,
      process: typeof (globalThis as { process?: unknown }).process,
      bridge: Object.keys((globalThis as unknown as { consoleBridge: object }).consoleBridge).sort(),
    }));
    expect(globals).toEqual({ require: 'undefined', process: 'undefined', bridge: ['invoke', 'subscribe'] });
    const before = win.url();
    await win.evaluate(() => (location.href = 'https://example.com/'));
    await expect.poll(() => win.url()).toBe(before);
    // (A file: link: a safe link would open the system browser.)
    expect(await win.evaluate(() => globalThis.open('file:///etc/passwd') === null)).toBe(true);
    expect(app.windows()).toHaveLength(1);
    const mic = await win.evaluate(async () => (await navigator.permissions.query({ name: 'microphone' })).state);
    expect(mic).not.toBe('granted');
  } finally {
    await app.close();
  }
});
