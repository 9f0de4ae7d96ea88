import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { openDemo, consoleReady } from '../../support/web';

test('the ticket lookup shortcut rebound from the command palette works at once, the old one no longer does, and it survives a reload', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    await openDemo(page, host);
    const palette = page.getByRole('dialog', { name: 'Commands' });
    const lookup = page.getByRole('dialog', { name: 'Ticket lookup' });
    const command = palette.getByRole('option', { name: /Look up a ticket/ });

    // The default keys open the lookup (so their silence later means something).
    await page.keyboard.press('Control+Shift+T');
    await expect(lookup).toBeVisible();
    await lookup.getByRole('button', { name: 'Close' }).click();
    await expect(lookup).toHaveCount(0);

    await page.keyboard.press('Control+K');
    await palette.getByRole('combobox', { name: 'Type a command' }).fill('ticket');
    await expect(command).toContainText('Ctrl+Shift+T');
    await command.hover();
    await palette.getByRole('button', { name: 'Change the shortcut of Look up a ticket' }).click();
    await expect(palette.getByRole('status')).toHaveText('Press the new shortcut, or Escape to keep the old one.');
    await page.keyboard.press('Control+Shift+Y');
    await expect(command).toContainText('Ctrl+Shift+Y');
    await page.keyboard.press('Escape');
    await expect(palette).toBeHidden();

    // The old keys do nothing now; the new ones open the lookup.
    await page.keyboard.press('Control+Shift+T');
    await expect(lookup).toHaveCount(0);
    await page.keyboard.press('Control+Shift+Y');
    await expect(lookup).toBeVisible();
    await lookup.getByRole('button', { name: 'Close' }).click();
    await expect(lookup).toHaveCount(0);

    // Kept by the console: a reload reads the binding back.
    await page.reload();
    await consoleReady(page);
    await page.keyboard.press('Control+K');
    await palette.getByRole('combobox', { name: 'Type a command' }).fill('ticket');
    await expect(command).toContainText('Ctrl+Shift+Y');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Shift+Y');
    await expect(lookup).toBeVisible();
  } finally {
    await host.close();
  }
});
