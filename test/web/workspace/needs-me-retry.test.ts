import { test, expect } from '@playwright/test';
import { startStandin, type Standin } from '../../../src-standin/index';
import { idIn } from '../../support/records';
import { launchHost, usedConsoleProfile } from '../../support/host';
import { customerSays } from '../../support/customer';
import { connectToService, consoleReady, serviceApi, type Rec } from '../../support/web';

/**
 * Needs me lists what waits in every workspace, those in the background too. A workspace whose
 * sessions the service will not give now is named as not read (with when it is asked again),
 * never counted as having nothing; its rows come in by themselves once the service answers.
 */

test.use({ viewport: { width: 1366, height: 768 } });

/** An open session of the demo attendant's, not waiting for the customer, and its customer's name. */
async function ownSession(sb: Standin): Promise<{ id: number; customer: string; protocol: string }> {
  const rows = await serviceApi(sb.baseUrl, sb.tokens.agent).list(
    '/user-session',
    [
      { key: 'status', operator: 'EQ', value: 'OPEN' },
      { key: 'lastAgent', operator: 'EQ', value: sb.demoAgent.userName, logic: 'AND' },
      { key: 'pending', operator: 'IS_FALSE', logic: 'AND' },
    ],
    { direction: 'DESC', size: 5 },
  );
  const s = rows[0] as Rec;
  const user = s.user as Rec;
  return { id: idIn(s.id)!, customer: String(user.displayName ?? user.name), protocol: String(s.protocol) };
}

const host127 = (sb: Standin) => new URL(sb.baseUrl).host;

test('Needs me names a background workspace whose sessions could not be read, says when it tries again, and fills in by itself', async ({
  page,
}) => {
  const [a, b] = await Promise.all([startStandin({ port: 0, sessions: 40, seed: 3 }), startStandin({ port: 0, sessions: 40, seed: 7 })]);
  try {
    // A console with two workspaces, B in front; A's customer has just written.
    const profile = await usedConsoleProfile(page, async (p, first) => {
      await p.goto(first.url);
      await connectToService(p, { baseUrl: a.baseUrl, token: a.tokens.agent });
      await consoleReady(p);
      await p.getByRole('button', { name: 'Add a workspace' }).click();
      await connectToService(p, { baseUrl: b.baseUrl, token: b.tokens.agent });
      await consoleReady(p);
    });
    const sa = await ownSession(a);
    await customerSays(a.baseUrl, a.tokens.admin, sa.id, 'Oi, alguém pode me ajudar com o boleto?');
    // A's sessions cannot be read now (the service answers 503 to their list).
    await a.faults.set([{ match: { method: 'POST', path: '/chatapi/1.0/api/v2/user-session' }, kind: 'status', status: 503 }]);

    const host = await launchHost(profile);
    try {
      await page.goto(host.url);
      await consoleReady(page);
      await page.locator('nav.rail').getByRole('button', { name: 'Needs me', exact: true }).click();
      const view = page.locator('section.needs-me');
      const wsA = `${host127(a)} · ${a.demoAgent.userName}`;
      const alert = view.getByRole('alert');
      await expect(alert).toContainText('Could not load.', { timeout: 20_000 });
      await expect(alert).toContainText(wsA);
      await expect(alert).toContainText(/Trying again at \d\d:\d\d:\d\d/);
      await expect(view.getByText('Nothing needs you right now.')).toHaveCount(0);
      const rowA = page
        .getByRole('list', { name: 'Needs me' })
        .getByRole('button', { name: new RegExp(`^${wsA.replace(/\./g, '\\.')}\\s*${sa.customer}\\b`) })
        .filter({ hasText: sa.protocol });
      await expect(rowA).toHaveCount(0);

      // The service answers again: A's session shows without the attendant doing anything.
      await a.faults.clear();
      await expect(rowA).toBeVisible({ timeout: 30_000 });
      await expect(alert).toHaveCount(0);
    } finally {
      await host.close();
    }
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
