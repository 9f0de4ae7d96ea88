import { test, expect, type Page } from '@playwright/test';
import { startStandin, type Standin } from '../../../src-standin/index';
import { idIn } from '../../support/records';
import { freshProfile, launchHost } from '../../support/host';
import { connectToService, consoleReady, railButton, serviceApi, shot, type Rec } from '../../support/web';
import { bridgeCalls } from '../../support/console';

/**
 * Two accounts of one service in one console (an attendant and a supervisor of the same
 * stand-in): each workspace is named by service and account; the customers waiting for an
 * attendant are the service's, listed and counted once in "Needs me" and its badge, while each
 * account's own sessions count per account; a name the user gives a workspace stays after a restart.
 */

test.use({ viewport: { width: 1366, height: 768 } });

/** The sessions the service has waiting for an attendant: open, nobody on them (DESIGN.md §2). */
async function waitingAt(sb: Standin): Promise<number[]> {
  const open = await serviceApi(sb.baseUrl, sb.tokens.admin).listAll('/user-session', [{ key: 'status', operator: 'EQ', value: 'OPEN' }]);
  return open
    .filter((s: Rec) => !s.agent)
    .map((s: Rec) => idIn(s.id)!)
    .sort((x, y) => x - y);
}

const needsMeRows = (page: Page) => page.getByRole('list', { name: 'Needs me' }).getByRole('button');

test('two accounts of one service: named apart, the waiting queue counted once in Needs me and its badge; a workspace name kept across a restart', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const sb = await startStandin({ port: 0, sessions: 40, seed: 7 });
  const profile = freshProfile();
  let host = await launchHost(profile);
  const service = new URL(sb.baseUrl).host;
  const agentName = `${service} · ${sb.demoAgent.userName}`;
  const supervisorName = `${service} · ${sb.demoSupervisor.userName}`;
  try {
    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent });
    await consoleReady(page);
    await page.getByRole('button', { name: 'Add a workspace' }).click();
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.supervisor });
    await consoleReady(page);

    // Named by service and account: two accounts of one service look different.
    const rail = page.getByRole('group', { name: 'Workspaces' });
    await expect(rail.getByRole('button', { name: agentName })).toBeVisible();
    await expect(rail.getByRole('button', { name: supervisorName })).toBeVisible();
    // Their marks are letters, never digits that could pass for a count.
    for (const mark of await rail.locator('.ws-item .ws-mark').allTextContents()) expect(mark).toMatch(/^\p{L}{1,2}$/u);

    // Needs me: each waiting customer once, though both accounts see the service's queue.
    await railButton(page, 'Needs me').click();
    const waiting = await waitingAt(sb);
    expect(waiting.length).toBeGreaterThan(1);
    const bridge = bridgeCalls(host.app);
    await expect
      .poll(async () => {
        const n = await bridge.call('workspace:needsMe', {});
        return n.rows
          .filter((r) => r.reason === 'waiting')
          .map((r) => r.item.id)
          .sort((x, y) => x - y);
      })
      .toEqual(waiting);
    const shown = needsMeRows(page).filter({ hasText: 'Waiting for an attendant' });
    await expect(shown).toHaveCount(waiting.length);
    // Each account's own sessions still count per account: the badge is every row the list shows, no more.
    const now = await bridge.call('workspace:needsMe', {});
    const own = now.rows.filter((r) => r.reason !== 'waiting').length;
    const total = waiting.length + own;
    await expect(needsMeRows(page)).toHaveCount(total);
    const badge = page.locator('nav.rail > button.rail-item', { hasText: 'Needs me' }).locator('.badge');
    await expect(badge).toHaveText(String(total));
    await expect(page.locator('nav.rail').getByRole('button', { name: 'Needs me', exact: true })).toHaveAttribute(
      'title',
      `Needs me (${total})`,
    );
    await shot(page, 'workspaces-one-service-two-accounts');

    // The supervisor's workspace, renamed in the settings.
    await railButton(page, 'Settings').click();
    await expect(page.getByLabel('Workspace name')).toHaveAttribute('placeholder', supervisorName);
    await page.getByLabel('Workspace name').fill('Vila Serena · supervisão');
    await page.getByRole('button', { name: 'Save the name' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Name saved.' })).toBeVisible();
    await expect(rail.getByRole('button', { name: 'Vila Serena · supervisão' })).toBeVisible();
    await expect(rail.getByRole('button', { name: supervisorName })).toHaveCount(0);
    await expect(rail.locator('.ws-item .ws-mark')).toContainText(['VS']);
    await shot(page, 'workspaces-renamed');

    // In Portuguese the settings say the same.
    await page.locator('header.topbar').getByRole('combobox', { name: 'Language' }).selectOption('pt-BR');
    await expect(page.getByLabel('Nome do espaço')).toHaveValue('Vila Serena · supervisão');
    await page.locator('header.topbar').getByRole('combobox', { name: 'Idioma' }).selectOption('en');

    // After a restart the name is still the user's.
    await page.goto('about:blank');
    await host.close();
    host = await launchHost(profile);
    await page.goto(host.url);
    await consoleReady(page);
    const railAgain = page.getByRole('group', { name: 'Workspaces' });
    await expect(railAgain.getByRole('button', { name: 'Vila Serena · supervisão' })).toBeVisible();
    await expect(railAgain.getByRole('button', { name: agentName })).toBeVisible();

    // Emptied, the name is the service's and the account's again.
    await railAgain.getByRole('button', { name: 'Vila Serena · supervisão' }).click();
    await railButton(page, 'Settings').click();
    await page.getByLabel('Workspace name').fill('');
    await page.getByRole('button', { name: 'Save the name' }).click();
    await expect(railAgain.getByRole('button', { name: supervisorName })).toBeVisible();
  } finally {
    await page.goto('about:blank');
    await host.close();
    await sb.close();
  }
});
