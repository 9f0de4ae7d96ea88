import { test, expect, type Locator, type Page } from '@playwright/test';
import { openDemo, ownOpenSessions, serviceApi, shot, type Rec } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import type { Standin } from '../../../src-standin/index';

test.use({ viewport: { width: 1440, height: 900 } });

const v2 = (sb: Standin) => {
  const api = serviceApi(sb.baseUrl, sb.tokens.admin);
  return {
    api,
    customerSays: (sessionId: number, text: string) =>
      api.post('/chatapi/1.0/api/v2/messages/save', { session: { id: sessionId }, message: text, fromUser: true }),
  };
};

/** Assigns open sessions to the demo attendant until 24 are theirs; returns them. */
async function twentyFourMine(sb: Standin): Promise<Rec[]> {
  const { api } = v2(sb);
  const mine = await ownOpenSessions(sb, 100);
  if (mine.length < 24) {
    const open = await api.list('/user-session', [{ key: 'status', operator: 'EQ', value: 'OPEN' }], { size: 200 });
    const others = open.filter((s) => !mine.some((m) => m.id === s.id));
    for (const s of others.slice(0, 24 - mine.length)) {
      await api.post('/chatapi/1.0/api/v2/user-session/save', { id: s.id, lastAgent: sb.demoAgent.userName });
    }
  }
  return ownOpenSessions(sb, 100);
}

/** The rows of the "Mine" list as a user reads them (accessible names, top to bottom). */
const mineList = (page: Page) => page.getByRole('list', { name: 'Mine' });
const rowOf = (list: Locator, protocol: string) =>
  list.getByRole('button', { name: new RegExp(`\\b${protocol.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`) });

/** How many rows are wholly inside the list's visible box. */
async function rowsInView(list: Locator): Promise<number> {
  return list.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return [...el.querySelectorAll('[role=listitem]')].filter((r) => {
      const b = r.getBoundingClientRect();
      return b.top >= box.top - 0.5 && b.bottom <= box.bottom + 0.5;
    }).length;
  });
}

test('a customer message to one of 24 sessions marks it unread, moves it up and shows a toast; replying keeps it in view', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const { customerSays } = v2(sb);
    const mine = await twentyFourMine(sb);
    expect(mine.length).toBeGreaterThanOrEqual(24);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('tab', { name: /Mine/ }).click();
    const list = mineList(page);
    await expect(list.getByRole('listitem')).not.toHaveCount(0);
    await expect(page.getByRole('tab', { name: /Mine/ })).toContainText(String(mine.length));

    // Dense rows: at least 12 customers in view at 1440×900.
    expect(await rowsInView(list)).toBeGreaterThanOrEqual(12);

    // The row now at the bottom of the list: the customer writes, with a CPF.
    await list.evaluate((el) => (el.scrollTop = el.scrollHeight));
    // The rows re-render as the list scrolls: the last row's protocol and name are read together.
    const { lastProtocol, name } = await list.evaluate((el) => {
      const rows = el.querySelectorAll('[role=listitem]');
      const row = rows[rows.length - 1];
      const text = (sel: string) => (row?.querySelector(sel)?.textContent ?? '').trim();
      return { lastProtocol: text('.protocol'), name: text('.name') };
    });
    const target = mine.find((s) => String(s.protocol) === lastProtocol);
    expect(target, lastProtocol).toBeTruthy();
    const protocol = String(target!.protocol);
    await customerSays(target!.id as number, 'Preciso da segunda via do boleto, meu CPF é 123.456.789-09');
    // The toast first: it stays a few seconds only.
    await expect(page.getByRole('status').filter({ hasText: `Message from ${name}` })).toContainText('Preciso da segunda via');

    const first = list.getByRole('listitem').first().getByRole('button').first();
    await list.evaluate((el) => (el.scrollTop = 0));
    await expect(first).toHaveAccessibleName(new RegExp(`, 1 unread ${protocol}\\b`));
    await expect(first).toContainText('***.***.789-09');
    await expect(first).not.toContainText('123.456.789-09');

    // A second customer writes: they go to the top, the first comes second, both unread.
    const other = mine.find((s) => s.id !== target!.id)!;
    await customerSays(other.id as number, 'Alguém aí? O valor é R$ 2.082,30.');
    await expect(first).toHaveAccessibleName(new RegExp(`, 1 unread ${String(other.protocol)}\\b`));
    await expect(list.getByRole('listitem').nth(1).getByRole('button').first()).toHaveAccessibleName(new RegExp(`\\b${protocol}\\b`));
    await shot(page, 'attendance-unread-1440x900');
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(await rowsInView(list)).toBeGreaterThanOrEqual(8);
    await shot(page, 'attendance-unread-1280x720');

    // Opening the session clears its unread mark; it stays selected and in view.
    await rowOf(list, protocol).click();
    const row = rowOf(list, protocol);
    await expect(row).not.toHaveAccessibleName(/unread/);
    await expect(row).toHaveAttribute('aria-current', 'true');

    // Replying: the session waits for the customer now and is still in Mine, marked so.
    await page.getByRole('textbox', { name: /Reply to/ }).fill('Claro, já envio a segunda via.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByRole('log', { name: /Messages with/ })).toContainText('Claro, já envio a segunda via.');
    await expect
      .poll(
        async () =>
          (
            await serviceApi(sb.baseUrl, sb.tokens.admin).list('/user-session', [
              { key: 'id', operator: 'EQNUM', value: String(target!.id) },
            ])
          )[0]?.pending,
      )
      .toBe(true);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(rowOf(list, protocol)).toHaveAccessibleName(/Waiting for the customer/);
    await expect(rowOf(list, protocol)).toHaveAttribute('aria-current', 'true');
    await expect(rowOf(list, protocol)).toBeInViewport();
  } finally {
    await host.close();
  }
});

test('unread counts survive a restart of the console on the same profile', async ({ page }) => {
  const profile = freshProfile();
  let host = await launchHost(profile);
  let protocol: string;
  try {
    const sb = await openDemo(page, host);
    const target = (await ownOpenSessions(sb, 5)).at(-1)!;
    protocol = String(target.protocol);
    await page.getByRole('tab', { name: /Mine/ }).click();
    await v2(sb).customerSays(target.id as number, 'Oi, ainda estou esperando.');
    await v2(sb).customerSays(target.id as number, 'Pode me ajudar?');
    await expect(rowOf(mineList(page), protocol)).toHaveAccessibleName(/, 2 unread /);
  } finally {
    // The page leaves first, as a closed window would: the host is not closed under its calls.
    await page.goto('about:blank');
    await host.close();
  }
  host = await launchHost(profile);
  try {
    await page.goto(host.url);
    await page.getByRole('tab', { name: /Mine/ }).click();
    await expect(rowOf(mineList(page), protocol)).toHaveAccessibleName(/, 2 unread /);
    await expect(rowOf(mineList(page), protocol)).toContainText('Pode me ajudar?');
  } finally {
    await host.close();
  }
});

test('keyboard only: accept, reply and close; the next session needing attention opens with the reply box focused; the dialog keeps focus; coming back to the view restores it', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const { api, customerSays } = v2(sb);
    await page.evaluate(() => {
      const w = window as unknown as { pointerEvents: number };
      w.pointerEvents = 0;
      for (const type of ['mousedown', 'pointerdown']) document.addEventListener(type, () => w.pointerEvents++, true);
    });
    const waiting = (await api.list('/user-session', [{ key: 'status', operator: 'EQ', value: 'OPEN' }], { size: 300 })).filter(
      (s) => !s.lastAgent && !s.agent,
    );
    const target = waiting.at(-1)!;
    // Another session of mine where the customer just wrote: it is the one that needs attention next.
    const other = (await ownOpenSessions(sb, 3)).at(-1)!;
    await customerSays(other.id as number, 'Ainda preciso de ajuda com a fatura.');
    await expect(rowOf(page.getByRole('list', { name: 'Waiting' }), String(target.protocol))).toHaveCount(1);

    await page.keyboard.press('Control+Shift+F');
    await expect(page.getByRole('searchbox', { name: 'Filter sessions' })).toBeFocused();
    await page.keyboard.type(String(target.protocol));
    await page.keyboard.press('Alt+ArrowDown');
    await expect(rowOf(page.getByRole('list', { name: 'Waiting' }), String(target.protocol))).toHaveAttribute('aria-current', 'true');
    await page.keyboard.press('Alt+Enter');
    const reply = page.getByRole('textbox', { name: /Reply to/ });
    await expect(reply).toBeFocused();
    await page.keyboard.type('Olá! Sou a Ana e vou cuidar do seu atendimento.');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('log', { name: /Messages with/ })).toContainText('vou cuidar do seu atendimento');

    // An unsent reply is called out before the close.
    await page.keyboard.type('Mais alguma coisa?');
    await page.keyboard.press('Control+Shift+X');
    const dialog = page.getByRole('dialog', { name: 'Classify and close' });
    await expect(dialog.getByRole('alert')).toContainText('Your reply in the box was not sent');
    await expect(dialog.getByRole('searchbox', { name: 'Search the classification' })).toBeFocused();
    await expect(dialog.getByRole('tree', { name: 'Classification' })).toBeVisible();
    // Tab never leaves the dialog, forwards or backwards.
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press(i < 8 ? 'Tab' : 'Shift+Tab');
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    // Escape closes it wherever focus is in it.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    // Back in the reply box: the draft goes, and the dialog no longer warns.
    await expect(reply).toBeFocused();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.press('Control+Shift+X');
    await expect(dialog.getByRole('searchbox', { name: 'Search the classification' })).toBeFocused();
    await expect(dialog.getByRole('alert')).toHaveCount(0);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('status')).toContainText('Chosen:');
    await page.keyboard.press('Control+Enter');
    await expect(dialog).toBeHidden();
    await expect
      .poll(async () => (await api.list('/user-session', [{ key: 'id', operator: 'EQNUM', value: String(target.id) }]))[0]?.status)
      .toBe('CLOSED');

    // The next session needing attention is open, its reply box focused.
    await expect(rowOf(page.getByRole('list', { name: 'Mine' }), String(other.protocol))).toHaveAttribute('aria-current', 'true');
    await expect(reply).toBeFocused();
    expect(await page.evaluate(() => (window as unknown as { pointerEvents: number }).pointerEvents)).toBe(0);

    // Another view and back: the same tab, filter and open session.
    await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(String(other.protocol));
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('button', { name: /Settings/ })
      .click();
    await expect(page.getByRole('tablist', { name: 'Sessions' })).toBeHidden();
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('button', { name: /Sessions/ })
      .click();
    await expect(page.getByRole('searchbox', { name: 'Filter sessions' })).toHaveValue(String(other.protocol));
    await expect(page.getByRole('tab', { name: /Mine/ })).toHaveAttribute('aria-selected', 'true');
    await expect(rowOf(page.getByRole('list', { name: 'Mine' }), String(other.protocol))).toHaveAttribute('aria-current', 'true');
    await expect(page.getByRole('log', { name: /Messages with/ })).toContainText('Ainda preciso de ajuda com a fatura.');
  } finally {
    await host.close();
  }
});
