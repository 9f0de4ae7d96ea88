import { test, expect } from '@playwright/test';
import { startStandin } from '../../../src-standin/index';
import { freshProfile, launchHost } from '../../support/host';
import { connectToService, consoleReady } from '../../support/web';

test('the no-keyring notice is dismissed for the workspace and stays dismissed after a reload', async ({ page }) => {
  const sb = await startStandin({ port: 0, sessions: 20 });
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent });
    await consoleReady(page);
    const notice = page.getByRole('status').filter({ hasText: 'No OS keyring is reachable' });
    await expect(notice).toBeVisible();
    await page.getByRole('button', { name: 'Understood, hide this' }).click();
    await expect(notice).toHaveCount(0);
    await page.reload();
    await consoleReady(page);
    await expect(page.getByRole('status').filter({ hasText: 'No OS keyring is reachable' })).toHaveCount(0);
  } finally {
    await host.close();
    await sb.close();
  }
});
