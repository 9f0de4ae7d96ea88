import { test, expect, type Locator, type Page } from '@playwright/test';
import { openDemo } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';

/** Presses Tab (bounded) until `target` has focus. */
async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  for (let i = 0; i < 60; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  await expect(target, 'reachable with the keyboard').toBeFocused();
}

test('the supervisor tools work from the keyboard alone: palette, tabs by arrows, forms by Enter, the lookup returns focus', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    await openDemo(page, host, { as: 'supervisor' });
    // Nothing below clicks: keys only.
    await page.keyboard.press('Control+K');
    await page.keyboard.type('NPS');
    await page.keyboard.press('Enter');
    const tabs = page.getByRole('tablist', { name: 'Supervisor tools' });
    await expect(tabs.getByRole('tab', { name: 'NPS' })).toHaveAttribute('aria-selected', 'true');

    const survey = page.getByLabel('Survey name');
    await tabTo(page, survey);
    await page.keyboard.type('nps-atendimento');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('nps-total')).toHaveText(/^\d+$/);
    // A survey the service answered for is offered next time; one it does not know is not.
    await page.keyboard.press('Control+A');
    await page.keyboard.type('no-such-survey');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert')).toContainText('no-such-survey');
    await expect(page.locator('#sup-nps-surveys option')).toHaveCount(1);
    await expect(page.locator('#sup-nps-surveys option')).toHaveAttribute('value', 'nps-atendimento');

    // Arrow keys move between the tools.
    const npsTab = tabs.getByRole('tab', { name: 'NPS' });
    await tabTo(page, npsTab, 'Shift+Tab');
    await page.keyboard.press('ArrowRight');
    const report = tabs.getByRole('tab', { name: 'Attendance report' });
    await expect(report).toBeFocused();
    await expect(report).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowRight');
    await expect(tabs.getByRole('tab', { name: 'Overview' })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(tabs.getByRole('tab', { name: 'Groups' })).toBeFocused();
    await expect(page.locator('.sup-group').first()).toBeVisible();

    // The lookup: shortcut, key, Enter; Escape closes it and focus is back on the tab.
    await page.keyboard.press('Control+Shift+T');
    await page.keyboard.type('4711');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Ticket lookup' });
    await expect(dialog.locator('.sup-ticket-key')).toHaveText('SUP-4711');
    // The linked session's button is reachable by Tab from the field.
    await tabTo(page, dialog.getByRole('button', { name: /^Open session \d+$/ }));
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(tabs.getByRole('tab', { name: 'Groups' })).toBeFocused();
  } finally {
    await host.close();
  }
});
