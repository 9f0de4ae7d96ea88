import { test, expect } from '@playwright/test';
import { openDemo, railButton, serviceApi } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';

test("the groups overview follows the service without a click, and drills down to a group's waiting sessions", async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host, { as: 'supervisor' });
    const api = serviceApi(sb.baseUrl, sb.tokens.agent);
    await railButton(page, 'Supervisor').click();
    await page.getByRole('tab', { name: 'Groups' }).click();

    await expect(page.locator('.sup-group').first()).toBeVisible();
    // By its name: groups re-sort as their waits change.
    const name = (await page.locator('.sup-group h3').first().textContent())!;
    const card = page.getByRole('region', { name, exact: true });
    const waiting = card.locator('.sup-facts > div').filter({ hasText: 'Waiting' }).first().locator('dd');
    const before = Number(await waiting.textContent());
    expect(before).toBeGreaterThan(1);

    await card.getByText(/^Show the \d+ waiting sessions$/).click();
    const list = card.getByRole('list', { name: `Waiting in ${name}` });
    const rows = list.getByRole('button');
    await expect(rows.first()).toBeVisible();
    const firstId = Number(/#(\d+)/.exec((await rows.first().textContent())!)![1]);

    // The service closes that session; the overview catches up on its own.
    const [session] = await api.list('/user-session', [{ key: 'id', operator: 'EQNUM', value: String(firstId) }]);
    const { agent: _agent, ...withoutAgent } = session!;
    await api.post('/chatapi/1.0/api/v2/user-session/save', { ...withoutAgent, status: 'CLOSED' });
    await expect(waiting).toHaveText(String(before - 1));
    await expect(list.getByRole('button', { name: new RegExp(`#${firstId} `) })).toHaveCount(0);

    // Drill-down: a waiting session opens in the attendance view.
    const next = rows.first();
    const customer = (await next.locator('.sup-grow').textContent())!;
    await next.click();
    await expect(railButton(page, 'Sessions')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { name: customer }).first()).toBeVisible();
  } finally {
    await host.close();
  }
});
