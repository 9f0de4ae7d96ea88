import { test, expect, type Page } from '@playwright/test';
import { startStandin } from '../../../src-standin/index';
import { freshProfile, launchHost } from '../../support/host';
import { axeViolations } from '../../support/axe';
import {
  connectToService,
  consoleReady,
  ownOpenSessions,
  railButton,
  repliesOn,
  selectSession,
  serviceApi,
  shot,
  type Rec,
} from '../../support/web';

/**
 * Notes from the composer: a Reply / Note switch (the box looks like a note before anything is
 * sent, and keeps the reply's draft apart), "@" offering colleagues from the service's agents,
 * the note reaching the service as a session comment (never a message to the customer), and the
 * colleague mentioned seeing "mentioned you" in Needs me, in their own account of the console.
 */

test.use({ viewport: { width: 1280, height: 800 } });

/** The safety-net poll sped up: a mention is looked for within seconds, not a minute. */
const FAST = { pollingMs: 500, pollingIdleMaxMs: 1_000, liveMs: 1_000, liveIdleMaxMs: 2_000, errorMaxMs: 5_000 };

const composerBox = (page: Page) => page.locator('#composer-input');

test('a note written in the composer reaches the service as a note, mentions a colleague, and shows in their Needs me', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const sb = await startStandin({ port: 0, sessions: 30, seed: 11 });
  const host = await launchHost(freshProfile(), 'en-US', { pollPace: FAST });
  try {
    const admin = serviceApi(sb.baseUrl, sb.tokens.admin);
    // The colleague: an attendant of the service other than the one writing, with their own token.
    const users = await admin.listAll('/users');
    const colleague = users.find(
      (u) => u.typeUser === 'AGENT' && u.userName !== sb.demoAgent.userName && String(u.displayName ?? u.name).startsWith('Br'),
    )!;
    expect(colleague, 'an attendant named Br… on the service').toBeTruthy();
    // The console lists staff by the name the service gives them to show (displayName), else their name.
    const colleagueName = String(colleague.displayName ?? colleague.name);
    const others = users.filter((u) => u.typeUser === 'AGENT' && u !== colleague && u.userName !== sb.demoAgent.userName);
    // A mention names one person: by that name, or by login when another attendant shares it.
    const shared = users.some(
      (u) => u !== colleague && !!u.agent && String(u.displayName ?? u.name).toLowerCase() === colleagueName.toLowerCase(),
    );
    const mention = `@${shared ? String(colleague.userName) : colleagueName}`;

    await page.goto(host.url);
    // The colleague's account first, then the writer's: the writer's workspace is in front.
    await connectToService(page, { baseUrl: sb.baseUrl, token: String(colleague.accessKey), userName: String(colleague.userName) });
    await consoleReady(page);
    await page.getByRole('button', { name: 'Add a workspace' }).click();
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent });
    await consoleReady(page);

    const [session] = await ownOpenSessions(sb, 1);
    const sessionId = Number(session!.id);
    const customer = await selectSession(page, session!);
    const box = composerBox(page);
    await expect(page.getByRole('group', { name: `Reply to ${customer}` })).toBeVisible();

    // A reply started, then the switch to Note: the box is the note's, marked as one.
    await box.fill('Vou verificar o seu pedido');
    const note = page.getByRole('radio', { name: 'Note' });
    await note.focus();
    await page.keyboard.press('Space');
    await expect(note).toBeChecked();
    const noteGroup = page.getByRole('group', { name: `Note on the session with ${customer} (only your team sees it)` });
    await expect(noteGroup).toBeVisible();
    await expect(noteGroup.getByText('Note — only your team sees this')).toBeVisible();
    await expect(box).toHaveValue('');
    await expect(box).toHaveAttribute('placeholder', /mention a colleague/);
    const look = async () =>
      box.evaluate((el) => {
        const s = getComputedStyle(el);
        return { border: s.borderTopStyle, background: s.backgroundColor };
      });
    const noteLook = await look();
    expect(noteLook.border).toBe('dashed');
    await expect(noteGroup.getByRole('button', { name: 'Add note' })).toBeVisible();
    await expect(noteGroup.getByRole('button', { name: 'Send', exact: true })).toHaveCount(0);

    // "@Br" offers the colleague (and no one whose name does not start so); arrows and Enter put the mention in.
    await box.pressSequentially('Cliente quer estorno, @Br');
    const menu = page.getByRole('listbox', { name: 'Colleagues to mention' });
    await expect(menu.getByRole('option', { name: new RegExp(colleagueName) })).toBeVisible();
    for (const o of others.filter((u) => !/(^|\s)br/i.test(String(u.displayName ?? u.name)) && !/^br/i.test(String(u.userName))))
      await expect(menu.getByRole('option', { name: new RegExp(String(o.userName)) })).toHaveCount(0);
    for (
      let i = 0;
      i < 8 && (await menu.getByRole('option', { selected: true }).textContent())?.includes(`@${String(colleague.userName)}`) !== true;
      i++
    )
      await box.press('ArrowDown');
    await box.press('Enter');
    await expect(menu).toHaveCount(0);
    await expect(box).toHaveValue(`Cliente quer estorno, ${mention} `);
    await box.pressSequentially('pode aprovar?');
    await shot(page, 'composer-note-mode');
    // Note mode and its mention menu read well in both themes (axe: contrast, names, roles).
    await box.pressSequentially(' @');
    await expect(menu).toBeVisible();
    const found: string[] = [];
    for (const theme of ['dark', 'light'] as const) {
      if ((await page.locator('html').getAttribute('data-theme')) !== theme) await page.locator('.shell-theme').click();
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      if (theme === 'dark') await shot(page, 'composer-note-mode-dark');
      found.push(...(await axeViolations(page, `note mode ${theme}`)));
    }
    expect(found).toEqual([]);
    await box.press('Backspace');
    await box.press('Backspace');
    await expect(box).toHaveValue(`Cliente quer estorno, ${mention} pode aprovar?`);
    await box.press('Enter');
    await expect(box).toHaveValue('');

    // At the service: a comment on the session, written by the attendant; no message to the customer.
    const text = `Cliente quer estorno, ${mention} pode aprovar?`;
    await expect
      .poll(async () =>
        (await admin.list('/session-comment', [{ key: 'sessionId', operator: 'EQNUM', value: String(sessionId) }])).map((c: Rec) =>
          String(c.comment),
        ),
      )
      .toContainEqual(expect.stringContaining(text));
    expect((await repliesOn(sb, sessionId)).some((m) => m.includes('estorno'))).toBe(false);
    // The note in the thread, marked internal.
    await expect(page.getByRole('note').filter({ hasText: text })).toBeVisible();

    // Back to Reply: the reply's draft is still there, apart from the note's.
    await page.getByRole('radio', { name: 'Reply' }).check();
    await expect(page.getByRole('group', { name: `Reply to ${customer}` })).toBeVisible();
    await expect(box).toHaveValue('Vou verificar o seu pedido');
    expect((await look()).border).not.toBe('dashed');

    // The shortcut switches too (rebindable, like every command).
    await box.press('Control+Shift+U');
    await expect(page.getByRole('radio', { name: 'Note' })).toBeChecked();
    await box.press('Control+Shift+U');
    await expect(page.getByRole('radio', { name: 'Reply' })).toBeChecked();

    // The colleague's account: "mentioned you" in Needs me, with who, the session and the note.
    await railButton(page, 'Needs me').click();
    const mentions = page.getByRole('list', { name: 'Mentions of you' });
    const row = mentions.getByRole('button').filter({ hasText: 'mentioned you' });
    await expect(row).toHaveCount(1, { timeout: 30_000 });
    const writer = users.find((u) => u.userName === sb.demoAgent.userName)!;
    await expect(row).toContainText(`${String(writer.displayName ?? writer.name)} mentioned you`);
    await expect(row).toContainText(customer);
    await expect(row).toContainText(`${mention} pode aprovar?`);
    await shot(page, 'needs-me-mentioned-you');

    // A click opens the session in the colleague's workspace; the mention is then seen, not shown again.
    await row.click();
    await expect(page.getByRole('group', { name: new RegExp(`(Reply to|Note on the session with) ${customer}`) })).toBeVisible();
    await railButton(page, 'Needs me').click();
    await expect(page.getByRole('heading', { name: 'Needs me, in every workspace' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Mentions of you' })).toHaveCount(0);
  } finally {
    await page.goto('about:blank');
    await host.close();
    await sb.close();
  }
});

test('with one workspace, a colleague mentioning the attendant brings Needs me; opened, the mention is not shown again, after a restart too', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const sb = await startStandin({ port: 0, sessions: 30, seed: 5 });
  const profile = freshProfile();
  let host = await launchHost(profile, 'en-US', { pollPace: FAST });
  try {
    const admin = serviceApi(sb.baseUrl, sb.tokens.admin);
    const users = await admin.listAll('/users');
    const shown = (u: Rec) => String(u.displayName ?? u.name);
    const me = users.find((u) => u.userName === sb.demoAgent.userName)!;
    const colleague = users.find((u) => u.typeUser === 'AGENT' && u.userName !== sb.demoAgent.userName)!;
    const [first, second] = await ownOpenSessions(sb, 2);
    // The colleague writes a note on the attendant's session, as their own console would.
    const asColleague = serviceApi(sb.baseUrl, String(colleague.accessKey));
    const mentionOn = (s: Rec, text: string) =>
      asColleague.post('/chatapi/1.0/api/v2/session-comment/save', { sessionId: Number(s.id), comment: text });

    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent });
    await consoleReady(page);
    // One workspace, nothing mentioning the attendant: no Needs me.
    await expect(railButton(page, 'Sessions')).toBeVisible();
    await expect(railButton(page, 'Needs me')).toHaveCount(0);

    await mentionOn(first!, `@${shown(me)} pode olhar este cliente? Ele ligou duas vezes.`);
    await expect(railButton(page, 'Needs me')).toBeVisible({ timeout: 30_000 });
    await railButton(page, 'Needs me').click();
    const row = page.getByRole('list', { name: 'Mentions of you' }).getByRole('button');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(`${shown(colleague)} mentioned you`);
    const customer = shown(first!.user as Rec);
    await expect(row).toContainText(customer);
    await expect(row).toContainText('pode olhar este cliente?');
    await row.click();
    await expect(page.getByRole('group', { name: `Reply to ${customer}` })).toBeVisible();
    // Seen: gone from Needs me.
    await expect(railButton(page, 'Needs me')).toHaveCount(0);

    // After a restart the opened mention stays seen; a new one still arrives.
    await page.goto('about:blank');
    await host.close();
    host = await launchHost(profile, 'en-US', { pollPace: FAST });
    await page.goto(host.url);
    await consoleReady(page);
    await mentionOn(second!, `Falei com o financeiro, @${shown(me)}.`);
    await expect(railButton(page, 'Needs me')).toBeVisible({ timeout: 30_000 });
    await railButton(page, 'Needs me').click();
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Falei com o financeiro');
    await expect(row).toContainText(shown(second!.user as Rec));
  } finally {
    await page.goto('about:blank');
    await host.close();
    await sb.close();
  }
});

test('a note from the composer while the service cannot take it waits in the outbox, marked so, and reaches the service once', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const sb = await startStandin({ port: 0, sessions: 30, seed: 3 });
  const host = await launchHost(freshProfile(), 'en-US', { pollPace: FAST });
  try {
    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent });
    await consoleReady(page);
    const [session] = await ownOpenSessions(sb, 1);
    const sessionId = Number(session!.id);
    await selectSession(page, session!);
    await page.getByRole('radio', { name: 'Note' }).check();

    // Connections for comments are refused: the note is kept on this computer and says it waits.
    await sb.faults.set([{ match: { path: '/chatapi/1.0/api/v2/session-comment' }, kind: 'reset' }]);
    const text = 'Cliente vai mandar o comprovante amanhã.';
    await composerBox(page).fill(text);
    await page.getByRole('button', { name: 'Add note' }).click();
    await expect(composerBox(page)).toHaveValue('');
    const kept = page.getByRole('note').filter({ hasText: text });
    await expect(kept).toBeVisible();
    await expect(kept).toContainText(/Waiting to send|Sending…|Checking whether it arrived…/);
    const onService = async () =>
      (
        await serviceApi(sb.baseUrl, sb.tokens.admin).list('/session-comment', [
          { key: 'sessionId', operator: 'EQNUM', value: String(sessionId) },
        ])
      ).filter((c: Rec) => String(c.comment).startsWith(text)).length;

    await sb.faults.clear();
    await expect.poll(onService, { timeout: 60_000 }).toBe(1);
    await expect(kept).not.toContainText(/Waiting to send|Sending…|Checking whether it arrived…/, { timeout: 30_000 });
    // Once, never twice; and never as a message to the customer.
    expect(await onService()).toBe(1);
    expect((await repliesOn(sb, sessionId)).some((m) => m.includes('comprovante amanhã'))).toBe(false);
  } finally {
    await page.goto('about:blank');
    await host.close();
    await sb.close();
  }
});
