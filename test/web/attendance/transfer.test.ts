import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { openDemo, ownOpenSessions, selectSession, serviceApi, type Rec } from '../../support/web';

test.use({ viewport: { width: 1366, height: 768 } });

test('an attendant transfers one session to another group and another to a fellow attendant; the service holds both moves', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const api = serviceApi(sb.baseUrl, sb.tokens.agent);
    const sessionNow = async (id: number) =>
      (await api.list('/user-session', [{ key: 'id', operator: 'EQNUM', value: String(id) }], { size: 1 }))[0]!;
    const [first, second] = await ownOpenSessions(sb, 2);
    expect(second, 'the demo attendant has two open sessions').toBeDefined();
    const groupName = (s: Rec) => (s.groupConf as Rec | null)?.name ?? null;

    // To a group: one the session is not in yet, picked by its name as the user sees it. The
    // attendant answers first, so the service marks the session as waiting for the customer.
    const firstName = await selectSession(page, first!);
    await page.getByRole('textbox', { name: /^Reply to / }).fill('Vou passar para a equipe certa.');
    await page.getByRole('textbox', { name: /^Reply to / }).press('Enter');
    await expect(page.getByRole('log', { name: /^Messages with / }).getByText('Vou passar para a equipe certa.')).toBeVisible();
    await expect.poll(async () => (await sessionNow(first!.id as number)).pending).toBe(true);
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Transfer the session' });
    await expect(dialog.getByRole('radio', { name: 'To a group' })).toBeChecked();
    const groupPick = dialog.getByRole('combobox', { name: 'Choose a group' });
    await expect(groupPick.getByRole('option').nth(2)).toBeAttached();
    const labels = (await groupPick.getByRole('option').allTextContents()).map((t) => t.trim()).filter((t) => t !== '—');
    const other = labels.find((l) => l !== groupName(first!));
    expect(other, "a group other than the session's").toBeDefined();
    await groupPick.selectOption({ label: other! });
    await dialog.getByRole('button', { name: 'Transfer', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(async () => groupName(await sessionNow(first!.id as number))).toBe(other);
    // No attendant holds it now (still waiting for the customer): it waits in that group's queue,
    // and nothing says it is handled by someone.
    const moved = await sessionNow(first!.id as number);
    expect(moved.lastAgent ?? null, 'the service holds no attendant on it').toBeNull();
    expect(moved.pending).toBe(true);
    await expect(page.getByText('This session is waiting in the queue. Accept it to answer.')).toBeVisible();
    await expect(page.getByText(/is being handled by/)).toHaveCount(0);
    await page.getByRole('searchbox', { name: 'Filter sessions' }).fill('');
    await page.getByRole('tab', { name: /^Waiting/ }).click();
    await expect(
      page
        .getByRole('list', { name: 'Waiting' })
        .getByRole('button', { name: new RegExp(`^${firstName}`) })
        .first(),
    ).toBeVisible();

    // To an attendant: the session becomes theirs and leaves the attendant's own list.
    const agents = await api.list('/agent');
    const fellow = agents.map((a) => a.user as Rec).find((u) => u.userName !== sb.demoAgent.userName && u.typeUser === 'AGENT')!;
    const name = await selectSession(page, second!);
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    await dialog.getByRole('radio', { name: 'To an attendant' }).check();
    const pick = dialog.getByRole('combobox', { name: 'Choose an attendant' });
    // The directory names attendants as the service's users show them (display name first).
    const option = pick.getByRole('option', { name: new RegExp(`^${String(fellow.displayName ?? fellow.name)} `) });
    await pick.selectOption({ label: (await option.textContent())!.trim() });
    await dialog.getByRole('button', { name: 'Transfer', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(async () => (await sessionNow(second!.id as number)).lastAgent).toBe(fellow.userName);
    await page.getByRole('tab', { name: /Mine/ }).click();
    await expect(page.getByRole('list', { name: 'Mine' }).getByRole('button', { name: new RegExp(`^${name}`) })).toHaveCount(0);
  } finally {
    await host.close();
  }
});
