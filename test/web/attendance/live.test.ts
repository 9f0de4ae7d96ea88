import { test, expect, type Page } from '@playwright/test';
import { consoleReady, openDemo, ownOpenSessions, railButton, selectSession, serviceApi, type Rec, shot } from '../../support/web';
import { freshProfile, launchHost, runningStandin, usedConsoleProfile, webBridge } from '../../support/host';
import { takePort } from '../../support/port-taker';

/** A v2 call straight to the stand-in, to set a scene or check what the console did. */
const api = (baseUrl: string, token: string, path: string, body: unknown) =>
  serviceApi(baseUrl, token).post(`/chatapi/1.0/api/v2${path}`, body);

/** Opens the demo workspace and one of the attendant's own sessions; returns it. */
async function openMine(page: Page, host: Awaited<ReturnType<typeof launchHost>>) {
  const sb = await openDemo(page, host);
  const mine = (await ownOpenSessions(sb))[0]!;
  await selectSession(page, mine);
  await expect(page.getByRole('log', { name: /Messages with/ })).toBeVisible();
  return { sb, sessionId: mine.id as number };
}

/** A console used before: its first run opened the demo workspace and followed it live. */
const usedLive = (page: Page) =>
  usedConsoleProfile(page, async (p, first) => {
    await openMine(p, first);
    await expect(p.getByRole('status', { name: 'Live' })).toBeVisible();
  });

const customerSays = (sb: { baseUrl: string; tokens: { admin: string } }, sessionId: number, text: string) =>
  api(sb.baseUrl, sb.tokens.admin, '/messages/save', { session: { id: sessionId }, message: text, fromUser: true });

test('after live updates were off for a while, resuming shows every message the customer sent meanwhile', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    const { sb, sessionId } = await openMine(page, host);
    const log = page.getByRole('log', { name: /Messages with/ });
    await expect(page.getByRole('status', { name: 'Live' })).toBeVisible();

    // Live: a customer line shows up on its own.
    await customerSays(sb, sessionId, 'Alô? Ainda está aí?');
    await expect(log).toContainText('Alô? Ainda está aí?');

    // Pausing live updates is a setting; the status bar then says so and offers to resume.
    await railButton(page, 'Settings').click();
    const live = page.getByRole('checkbox', { name: /Receive the service's events as they happen/ });
    await expect(live).toBeChecked();
    await live.uncheck();
    await expect(live).not.toBeChecked();
    await railButton(page, 'Sessions').click();
    await expect(log).toContainText('Alô? Ainda está aí?');
    await expect(page.getByRole('status', { name: 'Live updates paused' })).toBeVisible();
    const meanwhile = ['Primeira mensagem sem escuta.', 'Segunda, com meu CPF 123.456.789-09.', 'Terceira e última.'];
    for (const text of meanwhile) await customerSays(sb, sessionId, text);
    await expect(log).not.toContainText('Primeira mensagem sem escuta.');

    await page.getByRole('button', { name: 'Resume live updates' }).click();
    await expect(page.getByRole('status', { name: 'Live' })).toBeVisible();
    await expect(log).toContainText('Primeira mensagem sem escuta.');
    await expect(log).toContainText('Terceira e última.');
    // The CPF arrives masked and is shown only when the attendant asks for it.
    const cpf = log.getByRole('button', { name: 'Show CPF' }).filter({ hasText: '789-09' });
    await expect(cpf).toHaveText('***.***.789-09');
    await expect(log).not.toContainText('123.456.789-09');
    await cpf.click();
    await expect(log.getByRole('button', { name: 'Hide CPF' })).toHaveText('123.456.789-09');
  } finally {
    await host.close();
  }
});

test('a restarted console shows its queue, then follows the service live: one registration at the service, a customer line arrives by itself', async ({
  page,
}) => {
  const profile = await usedLive(page);

  // The opening no longer waits for the listener and its registration: they follow it, once the
  // page says its first view is shown (launched as npm start does; the wait without a word from
  // the page is far longer than this test).
  const second = await launchHost(profile, 'en-US', { firstViewWithinMs: 60_000 });
  try {
    await page.goto(second.url);
    await consoleReady(page);
    const sb = await runningStandin(second);
    await sb.simulator.stop();
    const mine = (await ownOpenSessions(sb))[0]!;
    await selectSession(page, mine);
    await expect(page.getByRole('status', { name: 'Live' })).toBeVisible();
    // One registration at the service, this run's (the first run's went when it closed): each event comes once.
    const hooks = (await serviceApi(sb.baseUrl, sb.tokens.admin).get('/chatapi/1.0/api/v2/hook')).results as Rec[];
    expect(hooks).toHaveLength(1);
    await customerSays(sb, mine.id as number, 'Voltei, ainda preciso de ajuda.');
    await expect(page.getByRole('log', { name: /Messages with/ })).toContainText('Voltei, ainda preciso de ajuda.');
  } finally {
    await second.close();
  }
});

test('a restarted console whose demo service had to move (the port kept for it taken meanwhile, on a system that cannot share it) shows its queue live there, and sends nothing to the program on that port', async ({
  page,
}) => {
  const profile = await usedLive(page);
  const second = await launchHost(profile, 'en-US', { firstViewWithinMs: 60_000, demoSharePort: false });
  let taker: Awaited<ReturnType<typeof takePort>> | null = null;
  try {
    const call = await webBridge(second);
    const kept = ((await call('workspace:state')).body as { result: { workspaces: Array<{ baseUrl: string }> } }).result.workspaces[0]!
      .baseUrl;
    // Another program takes the port the demo workspace was opened at, before the page loads.
    taker = await takePort(Number(new URL(kept).port));
    await page.goto(second.url);
    await consoleReady(page);
    const sb = await runningStandin(second);
    expect(sb.baseUrl).not.toBe(kept);
    await sb.simulator.stop();
    const mine = (await ownOpenSessions(sb))[0]!;
    await selectSession(page, mine);
    await expect(page.getByRole('status', { name: 'Live' })).toBeVisible();
    await customerSays(sb, mine.id as number, 'Mudou de porta? Continuo aqui.');
    await expect(page.getByRole('log', { name: /Messages with/ })).toContainText('Mudou de porta? Continuo aqui.');
    const hooks = (await serviceApi(sb.baseUrl, sb.tokens.admin).get('/chatapi/1.0/api/v2/hook')).results as Rec[];
    expect(hooks).toHaveLength(1);
    // Not a call, so not the workspace's token, went to the program that took the port.
    expect(taker.reached).toEqual([]);
  } finally {
    await page.goto('about:blank');
    await second.close();
    await taker?.close();
  }
});

test('the command palette lists every action with its shortcut, runs them, and notes show the outbox state while offline', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    const { sb, sessionId } = await openMine(page, host);
    await page.keyboard.press('Control+K');
    const palette = page.getByRole('dialog', { name: 'Commands' });
    await expect(palette).toBeVisible();
    await expect(palette.getByRole('option', { name: /Next session/ })).toContainText('Alt+↓');
    await expect(palette.getByRole('option', { name: /Classify and close the session/ })).toContainText('Ctrl+Shift+X');
    await shot(page, 'attendance-palette');

    // Rebinding refuses an AltGr combination, accepts a safe one.
    // The shortcut buttons act on the highlighted command.
    await palette.getByRole('option', { name: /Add a note/ }).hover();
    await palette.getByRole('button', { name: 'Change the shortcut of Add a note' }).click();
    await page.keyboard.press('Control+Alt+Q');
    await expect(palette.getByRole('alert')).toContainText('AltGr');
    await page.keyboard.press('Control+Shift+Y');
    await expect(palette.getByRole('option', { name: /Add a note/ })).toContainText('Ctrl+Shift+Y');
    await page.keyboard.press('Escape');
    await expect(palette).toBeHidden();

    // The rebound shortcut opens the notes with the field focused.
    await page.keyboard.press('Control+Shift+Y');
    const field = page.getByRole('textbox', { name: 'New note' });
    await expect(field).toBeFocused();

    // The service refuses connections for comments: the note is kept and the banner says so.
    await sb.faults.set([{ match: { path: '/chatapi/1.0/api/v2/session-comment' }, kind: 'reset' }]);
    await field.fill('Cliente vai enviar o comprovante por e-mail.');
    await page.getByRole('button', { name: 'Add note' }).click();
    const notes = page.getByRole('region', { name: 'Notes' });
    await expect(notes.getByRole('status').filter({ hasText: 'Offline' })).toBeVisible();
    await expect(notes.getByRole('listitem').filter({ hasText: 'Cliente vai enviar o comprovante' })).toBeVisible();
    await sb.faults.clear();
    await expect
      .poll(
        async () =>
          (
            (
              await api(sb.baseUrl, sb.tokens.agent, '/session-comment', {
                conditions: [{ key: 'sessionId', operator: 'EQNUM', value: String(sessionId) }],
                sort: false,
                page: 0,
                size: 50,
              })
            ).results as Rec[]
          ).filter((c) => String(c.comment).startsWith('Cliente vai enviar o comprovante')).length,
        { timeout: 40_000 },
      )
      .toBe(1);
    await expect(notes.getByRole('status').filter({ hasText: 'Offline' })).toHaveCount(0, { timeout: 40_000 });

    // Next and previous session from the keyboard.
    await page.getByRole('searchbox', { name: 'Filter sessions' }).fill('');
    const current = await page.getByRole('heading', { level: 2 }).nth(1).innerText();
    await page.locator('body').click({ position: { x: 700, y: 400 } });
    await page.keyboard.press('Alt+ArrowDown');
    await expect(page.getByRole('heading', { level: 2 }).nth(1)).not.toHaveText(current);
  } finally {
    await host.close();
  }
});
