import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { openDemo, ownOpenSessions, selectSession, serviceApi } from '../../support/web';

test.use({ viewport: { width: 1366, height: 768 } });

test('rate-limited canned replies say they could not load and retry by themselves, then fill in', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const [session] = await ownOpenSessions(sb, 1);
    const bundles = await serviceApi(sb.baseUrl, sb.tokens.agent).list('/message-bundle-group');
    expect(bundles.length, 'the seed offers canned replies').toBeGreaterThan(0);
    await sb.faults.set([
      { match: { method: 'POST', path: '/chatapi/1.0/api/v2/message-bundle-group' }, kind: 'rateLimit', retryAfterSeconds: 1, count: 6 },
    ]);
    await selectSession(page, session!);
    const help = page.getByRole('region', { name: 'Composer help' });
    await help.getByRole('tab', { name: 'Canned replies' }).click();
    await expect(help.getByRole('status').filter({ hasText: 'Could not load: canned replies' })).toContainText('Retrying by itself at');
    // The service answers again: the canned replies show without the attendant doing anything.
    await expect(help.getByRole('list', { name: 'Canned replies' }).getByRole('listitem').first()).toBeVisible({ timeout: 30_000 });
    await expect(help.getByText('Could not load: canned replies')).toHaveCount(0);
  } finally {
    await host.close();
  }
});
