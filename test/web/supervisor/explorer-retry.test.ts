import { test, expect } from '@playwright/test';
import { connectToService, serviceApi } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import { startStandin } from '../../../src-standin/index';

test('a rate-limited explorer search says it could not load and retries by itself, then shows the rows', async ({ page }) => {
  const sb = await startStandin({ port: 0 });
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.supervisor });
    await page.getByRole('button', { name: 'Supervisor' }).click();
    await page.getByRole('tab', { name: 'Explorer' }).click();
    const expected = await serviceApi(sb.baseUrl, sb.tokens.agent).list('/user-session', [
      { key: 'status', operator: 'EQ', value: 'CLOSED' },
    ]);
    expect(expected.length).toBeGreaterThan(0);
    // More 429s than one read's own retries: the view has to come back to it by itself.
    await sb.faults.set([
      { match: { method: 'POST', path: '/chatapi/1.0/api/v2/user-session' }, kind: 'rateLimit', retryAfterSeconds: 1, count: 6 },
    ]);
    const query = page.getByRole('region', { name: 'Conditions' });
    await query.getByLabel('Field').fill('status');
    await query.getByLabel('Value').fill('CLOSED');
    await query.getByRole('button', { name: 'Search' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load.' });
    await expect(alert).toContainText(/Trying again at \d\d:\d\d:\d\d/);
    const results = page.getByRole('table', { name: 'Results' });
    await expect(results.locator('tbody tr td:first-child').first()).toHaveText(String(expected[0]!.id), { timeout: 30_000 });
    await expect(alert).toHaveCount(0);
  } finally {
    await host.close();
    await sb.close();
  }
});
