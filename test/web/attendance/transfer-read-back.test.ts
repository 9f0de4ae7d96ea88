import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { connectToService, consoleReady, ownOpenSessions, selectSession, serviceApi, type Rec } from '../../support/web';
import { startStandin } from '../../../src-standin/index';
import { READINGS } from '../../../src-standin/reading';

test.use({ viewport: { width: 1366, height: 768 } });

const SAVE = '/chatapi/1.0/api/v2/user-session/save';

for (const reading of READINGS)
  test(`a transfer to a group on a service that keeps the attendant unless told: handed over, or reported as not applied with what the service holds (${reading} reading)`, async ({
    page,
  }) => {
    const sb = await startStandin({ port: 0, sessions: 60, reading });
    const host = await launchHost(freshProfile());
    try {
      await page.goto(host.url);
      await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent });
      await consoleReady(page);
      const api = serviceApi(sb.baseUrl, sb.tokens.agent);
      const sessionNow = async (id: number) =>
        (await api.list('/user-session', [{ key: 'id', operator: 'EQNUM', value: String(id) }], { size: 1 }))[0]!;
      const demoUser = (await api.list('/users', [{ key: 'userName', operator: 'EQ', value: sb.demoAgent.userName }], { size: 1 }))[0]!;
      const agentId = (s: Rec): unknown => (s.agent as Rec | null | undefined)?.id ?? null;
      const groupName = (s: Rec) => (s.groupConf as Rec | null)?.name ?? null;
      const [first, second] = await ownOpenSessions(sb, 2);
      expect(second, 'the demo attendant has two open sessions').toBeDefined();
      expect(agentId(first!), 'the session is the attendant’s before the transfer').toBe(demoUser.id);
      const mine = page.getByRole('list', { name: 'Mine' });
      const dialog = page.getByRole('dialog', { name: 'Transfer the session' });

      async function transferToOtherGroup(s: Rec, note: string): Promise<string> {
        await selectSession(page, s);
        await page.getByRole('button', { name: 'Transfer', exact: true }).click();
        const groupPick = dialog.getByRole('combobox', { name: 'Choose a group' });
        await expect(groupPick.getByRole('option').nth(2)).toBeAttached();
        const labels = (await groupPick.getByRole('option').allTextContents()).map((t) => t.trim()).filter((t) => t !== '—');
        const other = labels.find((l) => l !== groupName(s))!;
        await groupPick.selectOption({ label: other });
        await dialog.getByRole('textbox', { name: /Note for whoever takes it next/ }).fill(note);
        await dialog.getByRole('button', { name: 'Transfer', exact: true }).click();
        return other;
      }

      // A service that keeps the attendant unless the save says otherwise: the console says so.
      await sb.faults.set([{ match: { method: 'POST', path: SAVE }, kind: 'keepsAgent', keepsAgent: 'unlessTold' }]);
      const firstName = String((first!.user as Rec).displayName ?? (first!.user as Rec).name);
      const to = await transferToOtherGroup(first!, 'Customer asked for billing.');
      await expect(dialog).toBeHidden();
      await expect(page.getByText(`Transferred to ${to}, with your note`)).toBeVisible();
      await expect.poll(async () => groupName(await sessionNow(first!.id as number))).toBe(to);
      expect(agentId(await sessionNow(first!.id as number)), 'the service no longer lists the attendant').toBeNull();
      await page.getByRole('tab', { name: /Mine/ }).click();
      await expect(mine.getByRole('button', { name: new RegExp(`^${firstName}`) })).toHaveCount(0);

      // A service that keeps the attendant whatever it is told: the group moved, the attendant did
      // not; the console reports exactly that, never "Transferred", and the session stays in Mine.
      await sb.faults.set([{ match: { method: 'POST', path: SAVE }, kind: 'keepsAgent', keepsAgent: 'always' }]);
      const secondName = String((second!.user as Rec).displayName ?? (second!.user as Rec).name);
      const to2 = await transferToOtherGroup(second!, 'Needs a refund.');
      const alert = dialog.getByRole('alert');
      await expect(alert).toContainText('The transfer was not fully applied');
      await expect(alert).toContainText('still lists you as this session');
      await expect(alert).toContainText(`not in ${to2}'s waiting list`);
      await expect(alert).toContainText('Transfer it again');
      await expect(alert).toContainText('Your note was kept');
      await expect(page.getByText(/^Transferred to/)).toHaveCount(0);
      // What reached the service: the group, the note; the attendant is still the demo attendant.
      const held = await sessionNow(second!.id as number);
      expect(groupName(held)).toBe(to2);
      expect(agentId(held)).toBe(demoUser.id);
      await expect
        .poll(async () =>
          (await api.list('/session-comment', [{ key: 'sessionId', operator: 'EQNUM', value: String(second!.id) }])).some((c) =>
            String(c.comment).startsWith('Needs a refund.'),
          ),
        )
        .toBe(true);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('tab', { name: /Mine/ }).click();
      await expect(mine.getByRole('button', { name: new RegExp(`^${secondName}`) })).toBeVisible();
    } finally {
      await host.close();
      await sb.close();
    }
  });
