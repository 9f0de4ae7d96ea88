import { expect, test } from '@playwright/test';
import { launchHost, freshProfile } from '../../support/host';
import { openDemo, ownOpenSessions, selectSession } from '../../support/web';

test('the session buttons show their shortcuts, and transfer opens from the keyboard with its own', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    await selectSession(page, (await ownOpenSessions(sb, 1))[0]!);
    const transfer = page.getByRole('button', { name: 'Transfer', exact: true });
    const close = page.getByRole('button', { name: 'Classify and close', exact: true });
    await expect(transfer).toHaveAttribute('title', 'Transfer (Ctrl+Shift+H)');
    await expect(transfer).toHaveAttribute('aria-keyshortcuts', 'Control+Shift+H');
    await expect(close).toHaveAttribute('title', 'Classify and close (Ctrl+Shift+X)');
    await expect(page.getByRole('button', { name: 'Send' })).toHaveAttribute('title', /Enter/);
    await page.getByRole('textbox', { name: /Reply to/ }).focus();
    await page.keyboard.press('Control+Shift+H');
    await expect(page.getByRole('dialog', { name: /Transfer/ })).toBeVisible();
  } finally {
    await host.close();
  }
});
