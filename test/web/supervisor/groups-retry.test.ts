import { test, expect } from '@playwright/test';
import { openDemo, railButton, serviceApi, type Rec } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';

test.use({ viewport: { width: 1366, height: 768 } });

test('the groups overview the service cannot give now says it could not load and when it tries again, then shows by itself', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host, { as: 'supervisor' });
    // A group with sessions not closed is a card of the overview (its name as the service holds it).
    const open = await serviceApi(sb.baseUrl, sb.tokens.supervisor).list('/user-session', [
      { key: 'status', operator: 'NEQ', value: 'CLOSED' },
    ]);
    const group = open.map((s) => (s.groupConf as Rec | undefined)?.name).find((n): n is string => typeof n === 'string');
    expect(group, 'the seed has open sessions in a named group').toBeTruthy();
    // The attendants' list is part of the overview: the service answers 503 to it for now.
    await sb.faults.set([{ match: { method: 'POST', path: '/chatapi/1.0/api/v2/agent' }, kind: 'status', status: 503 }]);
    await railButton(page, 'Supervisor').click();
    await page.getByRole('tab', { name: 'Groups' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load.' });
    await expect(alert).toContainText(/Trying again at \d\d:\d\d:\d\d/, { timeout: 20_000 });
    await expect(page.getByRole('region', { name: group!, exact: true })).toHaveCount(0);

    // The service answers again: the overview fills in without the supervisor doing anything.
    await sb.faults.clear();
    await expect(page.getByRole('region', { name: group!, exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(alert).toHaveCount(0);
  } finally {
    await host.close();
  }
});
