import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { consoleReady } from '../../support/web';

test('two consoles on two ports keep working side by side in one browser', async ({ page, context }) => {
  const first = await launchHost(freshProfile());
  const second = await launchHost(freshProfile());
  try {
    const welcome = { name: 'Welcome to the agent console' };
    await page.goto(first.url);
    await expect(page.getByRole('heading', welcome)).toBeVisible();
    // The second console opens in another tab of the same browser, after the first.
    const other = await context.newPage();
    await other.goto(second.url);
    await expect(other.getByRole('heading', welcome)).toBeVisible();

    // Each tab still holds its own console's secret: a reload (the cookie only, no secret in the
    // address any more) and a bridge call both work in the first tab, then in the second.
    for (const [tab, host] of [
      [page, first],
      [other, second],
    ] as const) {
      await tab.reload();
      expect(new URL(tab.url()).search).toBe('');
      await expect(tab.getByRole('heading', welcome)).toBeVisible();
      expect(new URL(tab.url()).origin).toBe(host.origin);
    }
    await page.getByRole('button', { name: 'Open the demo workspace' }).click();
    await consoleReady(page);
    await expect(other.getByRole('heading', welcome)).toBeVisible();
    await other.reload();
    await expect(other.getByRole('heading', welcome)).toBeVisible();
  } finally {
    await first.close();
    await second.close();
  }
});
