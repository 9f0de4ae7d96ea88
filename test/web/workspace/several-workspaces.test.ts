import { test, expect, type Page } from '@playwright/test';
import { existsSync } from 'node:fs';
import { startStandin, type Standin } from '../../../src-standin/index';
import { idIn, typedNote } from '../../support/records';
import { freshProfile, launchHost } from '../../support/host';
import { connectToService, repliesOn, serviceApi, shot, type Rec, consoleReady } from '../../support/web';
import { bridgeCalls } from '../../support/console';
import { axeViolations } from '../../support/axe';
import { POLL_PACE } from '../../../src-main/features/live/poll-pace';

/**
 * One attendant, two service accounts (two stand-ins, one in each reading of the interface): a
 * customer writes in each; "Needs me" shows both, marked with their workspace; a reply and a note
 * from each land at that service only; signing out of one keeps the other and removes its files.
 */

test.use({ viewport: { width: 1366, height: 768 } });

/** A loopback service cannot push to the console here: its safety-net poll, 10× faster, brings the news. */
const FAST_POLL = { ...POLL_PACE, pollingMs: 3_000, pollingIdleMaxMs: 3_000 };

const admin = (sb: Standin) => serviceApi(sb.baseUrl, sb.tokens.admin);
const customerSays = (sb: Standin, sessionId: number, text: string) =>
  admin(sb).post('/chatapi/1.0/api/v2/messages/save', { session: { id: sessionId }, message: text, fromUser: true });

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

/** Every session note the service holds, as stored (either reading's field names). */
const everyNote = async (sb: Standin): Promise<string[]> => (await admin(sb).listAll('/session-comment')).map((r) => JSON.stringify(r));
/** The notes the service holds on one session, as the console wrote them (its reference tag taken off). */
async function notesOn(sb: Standin, sessionId: number): Promise<string[]> {
  const rows = await admin(sb).listAll('/session-comment');
  return rows
    .filter((r) => JSON.stringify(r).includes(`${sessionId}`))
    .map((r) => typedNote(((r.comment ?? r.text) as string | undefined) ?? ''));
}

const host127 = (sb: Standin) => new URL(sb.baseUrl).host;
const needsMeList = (page: Page) => page.getByRole('list', { name: 'Needs me' });

async function replyAndNote(page: Page, reply: string, note: string): Promise<void> {
  const box = page.getByRole('textbox', { name: /Reply to/ });
  await box.fill(reply);
  await box.press('Enter');
  await expect(page.getByRole('log', { name: /Messages with/ }).getByText(reply)).toBeVisible();
  await page.getByRole('tab', { name: 'Notes' }).click();
  await page.getByRole('textbox', { name: /New note/ }).fill(note);
  await page.getByRole('button', { name: 'Add note' }).click();
}

test('two service accounts in one console: Needs me, replies and notes at the right service, signing out of one', async ({ page }) => {
  const [a, b] = await Promise.all([
    startStandin({ port: 0, sessions: 40, seed: 3 }),
    startStandin({ port: 0, sessions: 40, seed: 5, reading: 'variant' }),
  ]);
  const host = await launchHost(freshProfile(), 'en-US', { pollPace: FAST_POLL });
  const bridge = bridgeCalls(host.app);
  try {
    await page.goto(host.url);
    await connectToService(page, { baseUrl: a.baseUrl, token: a.tokens.agent });
    await consoleReady(page);
    // One workspace: no workspace list, a way to add one.
    await expect(page.getByRole('group', { name: 'Workspaces' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Add a workspace' }).click();
    await expect(page.getByRole('heading', { name: 'Add a workspace' })).toBeVisible();
    await shot(page, 'workspaces-add');
    await connectToService(page, { baseUrl: b.baseUrl, token: b.tokens.agent });
    await consoleReady(page);

    // Two workspaces, listed in the sidebar; the second is in front.
    const list = page.getByRole('group', { name: 'Workspaces' });
    await expect(list.getByRole('button')).toHaveCount(3);
    const state = await bridge.call('workspace:state', {});
    const [wa, wb] = state.workspaces;
    expect([wa?.baseUrl, wb?.baseUrl, state.active]).toEqual([a.baseUrl, b.baseUrl, wb?.id]);

    // A customer writes in each service.
    const sa = await ownSession(a);
    const sbs = await ownSession(b);
    await customerSays(a, sa.id, 'Oi, preciso do boleto (A).');
    await customerSays(b, sbs.id, 'Olá, e o meu pedido? (B)');

    // Needs me: both, each marked with its own workspace, unread first.
    await page.locator('nav.rail').getByRole('button', { name: 'Needs me', exact: true }).click();
    const rows = needsMeList(page);
    // A row is named by what it shows: the workspace, the customer, the reason.
    const named = (host: string, customer: string) => new RegExp(`^${host.replace(/\./g, '\\.')} · \\S+\\s*${customer}\\b.*1 unread`);
    const rowA = rows.getByRole('button', { name: named(host127(a), sa.customer) });
    const rowB = rows.getByRole('button', { name: named(host127(b), sbs.customer) });
    await expect(rowA).toBeVisible();
    await expect(rowB).toBeVisible();
    // Each workspace named by its service and account.
    await expect(rowA.locator('.ws-chip')).toHaveText(`${host127(a)} · ${a.demoAgent.userName}`);
    await expect(rowB.locator('.ws-chip')).toHaveText(`${host127(b)} · ${b.demoAgent.userName}`);
    // The sidebar counts each workspace's unread sessions.
    await expect(
      list.getByRole('button', { name: `${host127(a)} · ${a.demoAgent.userName}: 1 session with unread messages` }),
    ).toBeVisible();
    await expect(
      list.getByRole('button', { name: `${host127(b)} · ${b.demoAgent.userName}: 1 session with unread messages` }),
    ).toBeVisible();
    await shot(page, 'workspaces-needs-me');
    // The sidebar and the view are usable by everyone, in both appearances.
    expect(await axeViolations(page, 'needs me, light')).toEqual([]);
    await page.locator('.shell-theme').click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    expect(await axeViolations(page, 'needs me, dark')).toEqual([]);
    await shot(page, 'workspaces-needs-me-dark');

    // Opening A's row brings A to the front with that session open; reply and note go to A only.
    await rowA.click();
    await expect(page.getByRole('log', { name: /Messages with/ }).getByText('Oi, preciso do boleto (A).')).toBeVisible();
    await expect(page.locator('.workspace-badge')).toContainText(a.baseUrl);
    await replyAndNote(page, 'Segue o boleto, cliente A.', 'Nota do espaço A');
    await expect.poll(() => repliesOn(a, sa.id)).toContain('Segue o boleto, cliente A.');
    await expect.poll(() => notesOn(a, sa.id)).toContain('Nota do espaço A');

    // Then B's, from Needs me again.
    await page.locator('nav.rail').getByRole('button', { name: 'Needs me', exact: true }).click();
    await rowB.click();
    await expect(page.getByRole('log', { name: /Messages with/ }).getByText('Olá, e o meu pedido? (B)')).toBeVisible();
    await expect(page.locator('.workspace-badge')).toContainText(b.baseUrl);
    await replyAndNote(page, 'Seu pedido saiu, cliente B.', 'Nota do espaço B');
    await expect.poll(() => repliesOn(b, sbs.id)).toContain('Seu pedido saiu, cliente B.');
    await expect.poll(() => notesOn(b, sbs.id)).toContain('Nota do espaço B');

    // Each service holds only its own: nothing of A's at B, nothing of B's at A.
    const everyMessage = async (sb: Standin) => (await admin(sb).listAll('/messages')).map((m) => String(m.message));
    expect((await everyMessage(a)).some((m) => m.includes('cliente B'))).toBe(false);
    expect((await everyMessage(b)).some((m) => m.includes('cliente A'))).toBe(false);
    expect((await everyNote(a)).some((n) => n.includes('espaço B'))).toBe(false);
    expect((await everyNote(b)).some((n) => n.includes('espaço A'))).toBe(false);

    // Signing out of B (in front) keeps A working and removes B's files only.
    const dirA = host.app.workspaceDir(wa!.id);
    const dirB = host.app.workspaceDir(wb!.id);
    expect([existsSync(dirA), existsSync(dirB)]).toEqual([true, true]);
    await page.getByRole('button', { name: `Sign out of ${host127(b)}` }).click();
    await consoleReady(page);
    await expect(page.locator('.workspace-badge')).toContainText(a.baseUrl);
    await expect(page.getByRole('group', { name: 'Workspaces' })).toHaveCount(0);
    expect([existsSync(dirA), existsSync(dirB)]).toEqual([true, false]);
    // A still answers its customer.
    await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(sa.protocol);
    await page.getByRole('tab', { name: /Mine/ }).click();
    await page
      .getByRole('list', { name: 'Mine' })
      .getByRole('button', { name: new RegExp(`^${sa.customer}`) })
      .click();
    const box = page.getByRole('textbox', { name: /Reply to/ });
    await box.fill('Mais alguma coisa, cliente A?');
    await box.press('Enter');
    await expect.poll(() => repliesOn(a, sa.id)).toContain('Mais alguma coisa, cliente A?');
    expect((await everyMessage(b)).some((m) => m.includes('Mais alguma coisa'))).toBe(false);
  } finally {
    await host.close();
    await Promise.all([a.close(), b.close()]);
  }
});
