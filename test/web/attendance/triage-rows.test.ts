import { test, expect, type Locator, type Page } from '@playwright/test';
import { startStandin, type Standin } from '../../../src-standin/index';
import { customerSays } from '../../support/customer';
import { idIn, instantIn, nameOf, senderRole, sessionIdIn, userNameOf } from '../../support/records';
import { freshProfile, launchHost } from '../../support/host';
import { connectToService, consoleReady, openDemo, repliesOn, serviceApi, type Rec } from '../../support/web';
import { POLL_PACE } from '../../../src-main/features/live/poll-pace';
import { slaSecondsOf, warningRatioOf } from '../../../src-shared/sla';

/**
 * Triage without opening rows: a row shows how long its customer has waited for an answer (since
 * their first unanswered message, not the session's age), "Answered" once the attendant replied,
 * the wait again when the customer writes, a New mark until someone answers, the protocol whole;
 * the queue column widens by dragging or with the keyboard and stays so after a reload and a
 * restart; "Needs me" counts the customers waiting on the attendant, not every session.
 */

const FAST_POLL = { ...POLL_PACE, pollingMs: 3_000, pollingIdleMaxMs: 3_000 };

/** The row of a session of mine, found by its protocol as the attendant would (filter, Mine). */
async function mineRow(page: Page, protocol: string): Promise<Locator> {
  await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(protocol);
  await page.getByRole('tab', { name: /^Mine/ }).click();
  const row = page.getByRole('list', { name: 'Mine' }).locator('.session-item').filter({ hasText: protocol });
  await expect(row).toHaveCount(1);
  return row;
}

/** A session of the demo's attendant in the group with the longest SLA (so its colours are no race with the clock), begun `agoMs` before now. */
async function mineInLongestSla(sb: Standin, agoMs: number, protocol: string): Promise<{ group: Rec; sessionId: number }> {
  const admin = serviceApi(sb.baseUrl, sb.tokens.admin);
  const group = await admin.post('/chatapi/1.0/api/v2/groups/unique', { conditions: [], sort: true, sortColumn: 'sla', direction: 'DESC' });
  const [customer] = await admin.list('/users', [{ key: 'typeUser', operator: 'EQ', value: 'CUSTOMER' }], { size: 1 });
  const created = await admin.post('/chatapi/1.0/api/v2/user-session/save', {
    user: { id: customer!.id },
    groupConf: { id: group.id },
    status: 'OPEN',
    protocol,
    lastAgent: sb.demoAgent.userName,
    createdAt: new Date(Date.now() - agoMs).toISOString(),
  });
  return { group, sessionId: idIn(created.id)! };
}

/** Minutes and seconds of a timer as shown ("40m 03s", "12s", "1h 02m"), in seconds. */
function secondsShown(text: string): number {
  let s = 0;
  for (const [, n, unit] of text.matchAll(/(\d+)\s*([hms])/g)) s += Number(n) * (unit === 'h' ? 3600 : unit === 'm' ? 60 : 1);
  return s;
}

test("a row's timer is the customer's wait for an answer: since their first unanswered line, Answered after a reply, again when they write, ticking as time passes", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const admin = serviceApi(sb.baseUrl, sb.tokens.admin);
    const began = Date.now() - 40 * 60_000;
    const protocol = `2026${String(Date.now()).slice(-10)}`;
    const { sessionId } = await mineInLongestSla(sb, 40 * 60_000, protocol);
    // The customer wrote 40 minutes ago, then 25 minutes ago: nobody answered yet.
    for (const [ago, text] of [
      [40, 'Oi, meu pedido não chegou.'],
      [25, 'Alguém pode me ajudar, por favor? Preciso de uma resposta sobre o pedido PED-771234.'],
    ] as const) {
      await admin.post('/chatapi/1.0/api/v2/messages/save', {
        session: { id: sessionId },
        message: text,
        fromUser: true,
        createdAt: new Date(Date.now() - ago * 60_000 + 1000).toISOString(),
      });
    }
    await page.getByRole('button', { name: 'Refresh' }).click();
    const row = await mineRow(page, protocol);
    // New: no attendant has answered; the customer's newest line; the protocol whole.
    await expect(row.getByText('New', { exact: true })).toBeVisible();
    await expect(row.locator('.preview')).toHaveText(
      'Alguém pode me ajudar, por favor? Preciso de uma resposta sobre o pedido PED-771234.',
    );
    const shownProtocol = row.locator('.protocol');
    await expect(shownProtocol).toHaveText(protocol);
    const [p, line] = [await shownProtocol.boundingBox(), await row.locator('.line1').boundingBox()];
    expect(
      p!.y + p!.height <= line!.y + line!.height + 0.5 && p!.x + p!.width <= line!.x + line!.width + 0.5,
      'the protocol shown whole',
    ).toBe(true);
    // Waiting since the first unanswered line (40 min), past the SLA: red.
    const timer = row.locator('.timer');
    await expect(timer).toHaveClass(/\bsla-red\b/);
    const waited = secondsShown(await timer.innerText());
    expect(Math.abs(waited - (Date.now() - began) / 1000)).toBeLessThan(90);

    // The attendant answers: the wait stops, the New mark goes.
    await row.locator('.session-row').click();
    const box = page.getByRole('textbox', { name: /Reply to/ });
    await box.fill('Olá! Vou verificar o seu pedido agora.');
    await box.press('Enter');
    await expect.poll(() => repliesOn(sb, sessionId)).toContain('Olá! Vou verificar o seu pedido agora.');
    await expect(row.locator('.timer')).toHaveText('Answered');
    await expect(row.getByText('New', { exact: true })).toHaveCount(0);

    // The customer writes again: the wait starts at that line (seconds, within the SLA), not at the session's start.
    await customerSays(sb.baseUrl, sb.tokens.admin, sessionId, 'Obrigado, fico no aguardo.');
    await expect(row.locator('.preview')).toHaveText('Obrigado, fico no aguardo.');
    // Read aloud as "Waiting for an answer for 12s"; shown as "12s".
    await expect(row.locator('.timer')).toHaveText(/^Waiting for an answer for \d{1,2}s$/);
    await expect(row.locator('.timer')).toHaveClass(/\bsla-green\b/);
    // And it counts on as time passes.
    const first = secondsShown(await row.locator('.timer').innerText());
    await expect.poll(async () => secondsShown(await row.locator('.timer').innerText()), { timeout: 10_000 }).toBeGreaterThan(first + 1);
  } finally {
    await host.close();
  }
});

test("a row's wait shows minutes past its first one, and turns to the next minute and to its SLA colours on time, without ticking every second", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  // The page's clock is run forward by hand below; it starts at the service's time.
  await page.clock.install({ time: Date.now() });
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const admin = serviceApi(sb.baseUrl, sb.tokens.admin);
    const protocol = `2027${String(Date.now()).slice(-10)}`;
    const { group, sessionId } = await mineInLongestSla(sb, 3 * 60_000, protocol);
    const slaMs = slaSecondsOf(group.sla, group.timeUnit)! * 1000;
    const amberAfterMs = (slaMs * warningRatioOf(group.warningRatio)) / 100;
    expect(amberAfterMs).toBeGreaterThan(5 * 60_000);
    // The customer wrote 3 minutes ago, nobody answered: "3m", green.
    const wroteAt = Date.now() - 3 * 60_000;
    await admin.post('/chatapi/1.0/api/v2/messages/save', {
      session: { id: sessionId },
      message: 'Preciso de ajuda com a fatura.',
      fromUser: true,
      createdAt: new Date(wroteAt).toISOString(),
    });
    await page.getByRole('button', { name: 'Refresh' }).click();
    const timer = (await mineRow(page, protocol)).locator('.timer');
    await expect(timer).toHaveText('Waiting for an answer for 3m');
    await expect(timer).toHaveClass(/\bsla-green\b/);

    // Within a minute nothing on the row changes: the page does not redraw it every second.
    const fromPage = async () => page.evaluate(() => Date.now());
    await page.clock.fastForward(wroteAt + 3 * 60_000 + 5_000 - (await fromPage()));
    await timer.evaluate((el) => {
      const w = window as unknown as { timerChanges: number };
      w.timerChanges = 0;
      new MutationObserver((m) => (w.timerChanges += m.length)).observe(el, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    });
    for (let i = 0; i < 30; i++) await page.clock.fastForward(1_000);
    expect(await page.evaluate(() => (window as unknown as { timerChanges: number }).timerChanges)).toBe(0);
    // To a moment before the next minute of the wait, then past it.
    await page.clock.fastForward(wroteAt + 4 * 60_000 - 500 - (await fromPage()));
    await expect(timer).toHaveText('Waiting for an answer for 3m');
    await page.clock.fastForward(1_000);
    await expect(timer).toHaveText('Waiting for an answer for 4m');
    // The SLA's warning ratio is passed at its own second, not at a minute's turn.
    await page.clock.fastForward(wroteAt + amberAfterMs - 500 - (await fromPage()));
    await expect(timer).toHaveClass(/\bsla-green\b/);
    await page.clock.fastForward(1_000);
    await expect(timer).toHaveClass(/\bsla-amber\b/);
    await page.clock.fastForward(wroteAt + slaMs + 500 - (await fromPage()));
    await expect(timer).toHaveClass(/\bsla-red\b/);
  } finally {
    await host.close();
  }
});

test('the queue column widens by dragging its edge or with the arrow keys, and keeps its width after a reload and a restart', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const profile = freshProfile();
  let host = await launchHost(profile);
  try {
    await openDemo(page, host);
    const edge = page.getByRole('separator', { name: 'Queue width' });
    const queue = page.getByRole('complementary', { name: 'Sessions' });
    const width = async () => Math.round((await queue.boundingBox())!.width);
    const start = await width();
    await expect(edge).toHaveAttribute('aria-valuenow', String(start));
    expect(start).toBeLessThan(400);

    // Keyboard: three steps to the right.
    await edge.focus();
    for (let i = 0; i < 3; i++) await edge.press('ArrowRight');
    await expect.poll(width).toBe(start + 48);
    await expect(edge).toHaveAttribute('aria-valuenow', String(start + 48));
    // Key repeat, faster than the layout answers: two steps back in one frame both count.
    await edge.evaluate((el) => {
      for (let i = 0; i < 2; i++) el.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true, cancelable: true }));
    });
    await expect.poll(width).toBe(start + 16);

    // Pointer: dragged 60 px further.
    const b = (await edge.boundingBox())!;
    await page.mouse.move(b.x + b.width / 2, b.y + 200);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width / 2 + 30, b.y + 200, { steps: 3 });
    await page.mouse.move(b.x + b.width / 2 + 60, b.y + 200, { steps: 3 });
    await page.mouse.up();
    const wide = start + 76;
    await expect.poll(width).toBe(wide);
    await expect(edge).toHaveAttribute('aria-valuenow', String(wide));
    // Wide enough for the customer's line on two lines.
    await page.getByRole('tab', { name: /^Waiting/ }).click();
    await expect(page.getByRole('list', { name: 'Waiting' }).locator('.session-item.two-lines').first()).toBeVisible();

    // Kept: after a reload of the page...
    await page.reload();
    await consoleReady(page);
    await expect.poll(width).toBe(wide);
    // ...and after the console restarts on the same profile.
    await page.goto('about:blank');
    await host.close();
    host = await launchHost(profile);
    await page.goto(host.url);
    await consoleReady(page);
    await expect.poll(width).toBe(wide);
    await expect(page.getByRole('separator', { name: 'Queue width' })).toHaveAttribute('aria-valuenow', String(wide));
  } finally {
    await host.close();
  }
});

const me = (sb: Standin) => sb.demoAgent.userName;
/** Whose a session is: the stand-in names its agent by `lastAgent` (DESIGN.md "Assignment"). */
const agentOf = (s: Rec): string | null => (typeof s.lastAgent === 'string' && s.lastAgent ? s.lastAgent : (userNameOf(s.agent) ?? null));

/**
 * What needs the attendant in one service, from its records: customers waiting for an attendant,
 * and the attendant's sessions whose customer wrote after the attendant's last reply (or that no
 * attendant answered yet).
 */
async function needingMe(sb: Standin): Promise<{ count: number; answered: Rec[] }> {
  const api = serviceApi(sb.baseUrl, sb.tokens.admin);
  const open = (await api.listAll('/user-session')).filter((s) => s.status === 'OPEN');
  const messages = await api.listAll('/messages');
  const newest = (id: number, role: 'customer' | 'agent'): number =>
    Math.max(
      Number.NEGATIVE_INFINITY,
      ...messages.filter((m) => sessionIdIn(m) === id && senderRole(m) === role).map((m) => Date.parse(instantIn(m.createdAt) ?? '')),
    );
  // Waiting for the customer (`pending`): nothing to do until they write.
  const waiting = open.filter((s) => !agentOf(s) && s.pending !== true);
  const mine = open.filter((s) => agentOf(s) === me(sb));
  const answered = mine.filter((s) => newest(idIn(s.id)!, 'agent') >= newest(idIn(s.id)!, 'customer'));
  const awaitingMe = mine.filter((s) => s.pending !== true && !answered.includes(s));
  return { count: waiting.length + awaitingMe.length, answered };
}

test("Needs me counts the customers waiting on the attendant (their answer, or one to accept), not sessions they answered; a customer's line adds theirs", async ({
  page,
}) => {
  const [a, b] = await Promise.all([startStandin({ port: 0, sessions: 24, seed: 7 }), startStandin({ port: 0, sessions: 24, seed: 11 })]);
  const host = await launchHost(freshProfile(), 'en-US', { pollPace: FAST_POLL });
  try {
    await a.simulator.stop();
    await b.simulator.stop();
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(host.url);
    await connectToService(page, { baseUrl: a.baseUrl, token: a.tokens.agent });
    await consoleReady(page);
    await page.getByRole('button', { name: 'Add a workspace' }).click();
    await connectToService(page, { baseUrl: b.baseUrl, token: b.tokens.agent });
    await consoleReady(page);

    const [ea, eb] = await Promise.all([needingMe(a), needingMe(b)]);
    // Some of the attendant's sessions were answered last: those are not counted.
    expect(ea.answered.length + eb.answered.length).toBeGreaterThan(0);
    const rail = page.locator('nav.rail').getByRole('button', { name: /^Needs me/ });
    const badge = () => rail.locator('.badge').innerText();
    await expect.poll(badge, { timeout: 20_000 }).toBe(String(ea.count + eb.count));
    await rail.click();
    const list = page.getByRole('list', { name: 'Needs me' });
    await expect(list.getByRole('button')).toHaveCount(ea.count + eb.count);

    // A customer whose last line was answered writes again: theirs needs the attendant now.
    const s = ea.answered[0]!;
    const [user] = await serviceApi(a.baseUrl, a.tokens.admin).list('/users', [
      { key: 'id', operator: 'EQNUM', value: String(idIn(s.user)) },
    ]);
    const customer = nameOf(user) ?? '';
    expect(customer).not.toBe('');
    await expect(list.getByRole('button').filter({ hasText: String(s.protocol) })).toHaveCount(0);
    await customerSays(a.baseUrl, a.tokens.admin, idIn(s.id)!, 'Ainda preciso de ajuda com isso.');
    await expect.poll(badge, { timeout: 20_000 }).toBe(String(ea.count + eb.count + 1));
    const added = list.getByRole('button').filter({ hasText: String(s.protocol) });
    await expect(added).toContainText(customer);
    await expect(added).toContainText('1 unread');
  } finally {
    await host.close();
    await a.close();
    await b.close();
  }
});
