import { test, expect, _electron as electron } from '@playwright/test';
import { freshProfile } from '../support/host';
import { electronBinary, ROOT } from '../support/electron';

const root = ROOT;

const binary = electronBinary();

test('the Electron window opens hardened and shows the console', async () => {
  test.skip(
    !binary,
    'No Electron binary on this machine (its download is not reachable here); the same console is tested through the loopback host in the web project.',
  );
  const app = await electron.launch({ executablePath: binary!, args: [root, `--user-data-dir=${freshProfile()}`] });
  try {
    const window = await app.firstWindow();
    await expect(window.getByRole('button', { name: 'Open the demo workspace' })).toBeVisible();
    const prefs = await app.evaluate(({ BrowserWindow }) => {
      const w = BrowserWindow.getAllWindows()[0]!;
      // Not in the type definitions, but present at run time.
      const p = (w.webContents as unknown as { getLastWebPreferences(): Record<string, unknown> | null }).getLastWebPreferences();
      return { contextIsolation: p?.contextIsolation, sandbox: p?.sandbox, nodeIntegration: p?.nodeIntegration };
    });
    expect(prefs).toEqual({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(await window.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
  } finally {
    await app.close();
  }
});
