import { test, expect } from '@playwright/test';
import { openDemo, railButton } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';

test('the Tickets tab, opened with a workspace open, says nothing about opening one and shows the shortcut', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    await openDemo(page, host, { as: 'supervisor' });
    await railButton(page, 'Supervisor').click();
    await page.getByRole('tab', { name: 'Tickets' }).click();
    const shortcut = page.getByRole('region', { name: 'Global shortcut for the lookup' });
    await expect(shortcut.getByLabel('Global shortcut for the lookup')).not.toHaveValue('');
    await expect(shortcut.getByText(/^Works from any program/)).toBeVisible();
    await expect(page.getByText('Open a workspace first.')).toHaveCount(0);
    await expect(shortcut.getByRole('alert')).toHaveCount(0);
  } finally {
    await host.close();
  }
});
