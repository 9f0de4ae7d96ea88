import { test, expect } from '@playwright/test';
import { launchHost, runningStandin, usedConsoleProfile } from '../../support/host';

/**
 * Recent tickets belong to the workspace, not to its service's address: the demo's stand-in
 * comes up on another port at each start, and the tickets looked up before are still listed.
 */
test('recent tickets are still listed after a restart although the demo service came back at another address', async ({ page }) => {
  test.setTimeout(120_000);
  let firstAddress = '';
  let title = '';
  const profile = await usedConsoleProfile(page, async (p, host) => {
    await p.goto(host.url);
    await p.getByRole('button', { name: 'Open it as the supervisor' }).click();
    await p.getByRole('button', { name: 'Supervisor' }).click();
    const sb = await runningStandin(host);
    firstAddress = sb.baseUrl;
    const res = await fetch(`${sb.baseUrl}/ticketapi/1.0/api/v1/tickets/4711`, { headers: { Authorization: `Bearer ${sb.tokens.agent}` } });
    title = ((await res.json()) as { data: { title: string } }).data.title;
    await p.getByRole('button', { name: 'Look up a ticket' }).click();
    const dialog = p.getByRole('dialog', { name: 'Ticket lookup' });
    await dialog.getByLabel('Ticket number or key').fill('4711');
    await dialog.getByLabel('Ticket number or key').press('Enter');
    await expect(dialog.getByRole('heading', { name: title })).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(p.getByRole('list', { name: 'Recent tickets' }).getByRole('button')).toHaveCount(1);
  });
  const host = await launchHost(profile);
  try {
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Supervisor' }).click();
    const recent = page.getByRole('list', { name: 'Recent tickets' }).getByRole('button');
    await expect(recent).toHaveCount(1);
    await expect(recent.first()).toContainText('SUP-4711');
    // The premise: the service is at another address than when the ticket was looked up.
    expect((await runningStandin(host)).baseUrl).not.toBe(firstAddress);
  } finally {
    await page.goto('about:blank');
    await host.close();
  }
});
