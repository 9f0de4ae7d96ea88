import { test, expect } from '@playwright/test';
import { idIn, nameOf, sessionIdIn, userNameOf } from '../../support/records';
import { freshProfile, launchHost } from '../../support/host';
import { openDemo, serviceApi, type Rec } from '../../support/web';

test.use({ viewport: { width: 1366, height: 768 } });

test('an earlier session the service cannot give now says it could not load and when it tries again, then shows by itself', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const api = serviceApi(sb.baseUrl, sb.tokens.agent);
    // One of the attendant's open sessions whose customer's newest other session (the panel's first row) has messages.
    const sessions = await api.listAll('/user-session');
    const messages = await api.listAll('/messages');
    const withMessages = new Set(messages.map((m) => sessionIdIn(m)));
    const byCustomer = new Map<number, Rec[]>();
    for (const s of sessions) byCustomer.set(idIn(s.user)!, [...(byCustomer.get(idIn(s.user)!) ?? []), s]);
    const newestFirst = (a: Rec, b: Rec) => Date.parse(String(b.createdAt)) - Date.parse(String(a.createdAt)) || idIn(b.id)! - idIn(a.id)!;
    const othersOf = (s: Rec) =>
      byCustomer
        .get(idIn(s.user)!)!
        .filter((o) => o !== s)
        .sort(newestFirst);
    const current = sessions.find((s) => {
      const newest = othersOf(s)[0];
      return s.status === 'OPEN' && userNameOf(s.agent) === sb.demoAgent.userName && !!newest && withMessages.has(idIn(newest.id));
    });
    expect(current, 'a session of the attendant whose customer came before').toBeTruthy();
    const customer = nameOf(current!.user)!;
    const earlier = othersOf(current!);
    const past = earlier[0]!;
    const first = messages
      .filter((m) => sessionIdIn(m) === idIn(past.id))
      .map((m) => String(m.message))
      .find((t) => t.length > 0)!;

    await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(String(current!.protocol));
    await page.getByRole('tab', { name: /^Mine/ }).click();
    await page
      .getByRole('list', { name: 'Mine' })
      .getByRole('button', { name: new RegExp(`^${customer}`) })
      .first()
      .click();
    await expect(page.getByRole('log', { name: `Messages with ${customer}` })).toBeVisible();
    await page.getByRole('tab', { name: 'Customer' }).click();
    const list = page.getByRole('list', { name: `Earlier sessions of ${customer}` });
    await expect(list.getByRole('button')).toHaveCount(earlier.length);

    // The earlier session's messages cannot be read now (the service answers 503 to their list).
    await sb.faults.set([{ match: { method: 'POST', path: '/chatapi/1.0/api/v2/messages' }, kind: 'status', status: 503 }]);
    await list.getByRole('button').first().click();
    await expect(page.getByRole('heading', { name: /read-only$/ })).toBeVisible();
    const alert = page.locator('.customer-panel').getByRole('alert');
    await expect(alert).toContainText('Could not load.', { timeout: 20_000 });
    await expect(alert).toContainText(/Trying again at \d\d:\d\d:\d\d/);
    await expect(page.locator('.customer-panel').getByText('No notes.', { exact: true })).toHaveCount(0);

    // The service answers again: the session's messages show without the attendant doing anything.
    await sb.faults.clear();
    const shown = page.getByRole('list', { name: /^Messages of the session of/ });
    await expect(shown.getByText(first.slice(0, 30)).first()).toBeVisible({ timeout: 30_000 });
    await expect(alert).toHaveCount(0);
  } finally {
    await host.close();
  }
});
