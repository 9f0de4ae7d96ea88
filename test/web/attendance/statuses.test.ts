import { test, expect } from '@playwright/test';
import { nameOf } from '../../support/records';
import { freshProfile, launchHost } from '../../support/host';
import { openDemo, serviceApi, type Rec } from '../../support/web';

/**
 * The status words a server uses are open (interface §3): a session not closed and held by no
 * agent waits for one in its group whatever its word, TRANSFERRED or TRANSFERIDO included; a
 * session with a bot (its status says so, or it is `onlyBot`) is shown as such, among the others,
 * and nobody is offered to accept it.
 */
test.use({ viewport: { width: 1366, height: 768 } });

test('a transferred session waits and is accepted; a session with a bot is shown as such and never offered', async ({ page }) => {
  test.setTimeout(120_000);
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const admin = serviceApi(sb.baseUrl, sb.tokens.admin);
    const waiting = await admin.list('/user-session', [
      { key: 'status', operator: 'EQ', value: 'OPEN' },
      { key: 'agent', operator: 'IS_NULL', logic: 'AND' },
    ]);
    expect(waiting.length).toBeGreaterThanOrEqual(4);
    const [transferred, transferido, botWord, onlyBot] = waiting as [Rec, Rec, Rec, Rec];
    const save = (s: Rec, change: Rec) => admin.post('/chatapi/1.0/api/v2/user-session/save', { id: s.id, ...change });
    await save(transferred, { status: 'TRANSFERRED' });
    await save(transferido, { status: 'TRANSFERIDO' });
    await save(botWord, { status: 'EM_BOT' });
    await save(onlyBot, { onlyBot: true });
    const name = (s: Rec) => nameOf(s.user)!;

    await page.getByRole('button', { name: 'Refresh' }).click();
    const list = page.getByRole('list', { name: 'Waiting' });
    for (const s of [transferred, transferido]) {
      await expect(list.getByRole('button', { name: `Accept session of ${name(s)}` })).toBeVisible();
    }
    for (const s of [botWord, onlyBot]) await expect(list.getByRole('button', { name: `Accept session of ${name(s)}` })).toHaveCount(0);

    // With a bot: among the others, marked, and its thread says so instead of offering to accept it.
    await page.getByRole('tab', { name: /Others/ }).click();
    const others = page.getByRole('list', { name: 'Others' });
    for (const s of [botWord, onlyBot]) {
      await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(String(s.protocol));
      const row = others.getByRole('button', { name: new RegExp(`^${name(s)}\\b.*With a bot`) });
      await expect(row).toBeVisible();
      await row.click();
      await expect(page.getByRole('status').filter({ hasText: 'A bot is handling this session' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Accept', exact: true })).toHaveCount(0);
    }

    // Transferred, and waiting in its group: the attendant takes it.
    await page.getByRole('searchbox', { name: 'Filter sessions' }).fill('');
    await page.getByRole('tab', { name: /Waiting/ }).click();
    await list.getByRole('button', { name: `Accept session of ${name(transferred)}` }).click();
    await expect(page.getByRole('tab', { name: /Mine/ })).toHaveAttribute('aria-selected', 'true');
    await expect
      .poll(
        async () => (await admin.list('/user-session', [{ key: 'id', operator: 'EQNUM', value: String(transferred.id) }]))[0]!.lastAgent,
      )
      .toBe(sb.demoAgent.userName);
  } finally {
    await host.close();
  }
});
