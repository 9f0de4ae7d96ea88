import { test, expect, type Locator, type Page } from '@playwright/test';
import { idIn, nameOf } from '../../support/records';
import { startStandin } from '../../../src-standin/index';
import { READINGS } from '../../../src-standin/reading';
import { customerSays } from '../../support/customer';
import { freshProfile, launchHost } from '../../support/host';
import {
  connectToService,
  consoleReady,
  intersects,
  openDemo,
  ownOpenSessions,
  serviceApi,
  shot,
  showsAtLeast,
  type Rec,
} from '../../support/web';

/**
 * Scanning the queue at 1280 px: a long name keeps at least 12 characters (the protocol gives
 * way), waiting rows show what the customer wrote, each timer is coloured by its own group's SLA
 * and warning ratio, and nothing covers anything: the Accept button beside the timer and the
 * unread mark, notices away from the rows.
 */

const LONG_NAME = 'Maria Aparecida Albuquerque Nogueira de Vasconcelos';

/** A waiting row found by its protocol (the filter shows it alone). */
async function waitingRow(page: Page, protocol: string, filterLabel: string, waitingTab: RegExp, waitingList: string): Promise<Locator> {
  await page.getByRole('searchbox', { name: filterLabel }).fill(protocol);
  await page.getByRole('tab', { name: waitingTab }).click();
  const row = page.getByRole('list', { name: waitingList }).locator('.session-item').filter({ hasText: protocol });
  await expect(row).toHaveCount(1);
  return row;
}

const box = async (l: Locator) => (await l.boundingBox())!;

for (const reading of READINGS) {
  const pt = reading === 'variant';
  // The variant reading is read in Portuguese: every word the rows show, in both languages.
  const words = pt
    ? {
        filter: 'Filtrar sessões',
        waiting: /Aguardando/,
        waitingList: 'Aguardando',
        accept: /^Aceitar a sessão de /,
        sla: ['Dentro do SLA', 'Perto do SLA', 'SLA estourado'],
      }
    : {
        filter: 'Filter sessions',
        waiting: /Waiting/,
        waitingList: 'Waiting',
        accept: /^Accept session of /,
        sla: ['Within SLA', 'Close to SLA', 'SLA exceeded'],
      };

  test(`queue rows at 1280×720 against the ${reading} reading: names, the customer's line, SLA colours, Accept beside the timer`, async ({
    page,
  }) => {
    const sb = await startStandin({ port: 0, sessions: 40, reading });
    const host = await launchHost(freshProfile(), pt ? 'pt-BR' : 'en-US');
    try {
      const admin = serviceApi(sb.baseUrl, sb.tokens.admin);
      // The group with the longest SLA (Suporte Técnico: 600 s, warning at 80 %).
      const group = await admin.post('/chatapi/1.0/api/v2/groups/unique', {
        conditions: [],
        sort: true,
        sortColumn: 'sla',
        direction: 'DESC',
      });
      const slaSeconds = Number(group.sla);
      expect(String(group.timeUnit)).toBe('SECONDS');
      const customers = await admin.list('/users', [{ key: 'typeUser', operator: 'EQ', value: 'CUSTOMER' }], { size: 3 });
      expect(customers).toHaveLength(3);
      await admin.post('/chatapi/1.0/api/v2/users/save', { id: customers[0]!.id, name: LONG_NAME, displayName: LONG_NAME });

      // Three customers waiting in that group for 10 %, 85 % and 150 % of its SLA, at an instant
      // the page's clock is held at, so a slow machine does not move them between colours.
      const now = Date.now();
      const ages = [0.1, 0.85, 1.5].map((f) => Math.round(f * slaSeconds));
      const lines = [
        'Meu pedido PED-184471 não chegou ainda',
        'Ainda não resolveu o acesso ao aplicativo',
        'Quero cancelar a assinatura hoje',
      ];
      const protocols: string[] = [];
      for (const [i, age] of ages.entries()) {
        const protocol = `990000${String(now).slice(-7)}${i}`;
        const created = await admin.post('/chatapi/1.0/api/v2/user-session/save', {
          user: { id: customers[i]!.id },
          groupConf: { id: group.id },
          status: 'OPEN',
          protocol,
          createdAt: new Date(now - age * 1000).toISOString(),
        });
        await admin.post('/chatapi/1.0/api/v2/messages/save', {
          session: { id: idIn(created.id) },
          message: lines[i],
          fromUser: true,
          createdAt: new Date(now - age * 1000 + 2000).toISOString(),
        });
        protocols.push(protocol);
      }
      await page.clock.setFixedTime(now);
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.goto(host.url);
      await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent, locale: pt ? 'pt-BR' : 'en-US' });
      await consoleReady(page);

      // The long name: at least 12 characters shown beside the 14-digit protocol.
      const longRow = await waitingRow(page, protocols[0]!, words.filter, words.waiting, words.waitingList);
      const name = longRow.locator('.name');
      await expect(name).toHaveText(LONG_NAME);
      expect(await showsAtLeast(name, 12), 'the name shows at least 12 characters').toBe(true);
      // The customer's line instead of the group and channel.
      await expect(longRow.locator('.preview')).toContainText(lines[0]!);
      // Accept has a place of its own: it covers neither the timer nor the name.
      const accept = longRow.getByRole('button', { name: words.accept });
      await expect(accept).toBeVisible();
      expect(intersects(await box(accept), await box(longRow.locator('.timer'))), 'Accept covers the timer').toBe(false);
      expect(intersects(await box(accept), await box(name)), 'Accept covers the name').toBe(false);
      await shot(page, `queue-rows-1280x720-${reading}`);

      // The timers by the group's warning ratio: green, amber, red, as the user sees them.
      const colours: string[] = [];
      for (const [i, state] of (['green', 'amber', 'red'] as const).entries()) {
        const row = await waitingRow(page, protocols[i]!, words.filter, words.waiting, words.waitingList);
        await expect(row.locator('.preview')).toContainText(lines[i]!);
        const timer = row.locator('.timer');
        await expect(timer).toHaveClass(new RegExp(`\\bsla-${state}\\b`));
        await expect(timer).toHaveAttribute('title', new RegExp(words.sla[i]!));
        colours.push(await timer.evaluate((el) => getComputedStyle(el).backgroundColor));
        const accept = row.getByRole('button', { name: words.accept });
        expect(intersects(await box(accept), await box(timer)), `Accept covers the ${state} timer`).toBe(false);
      }
      expect(new Set(colours).size, `three colours: ${colours.join(', ')}`).toBe(3);

      // All waiting rows at once: every customer's line shown, no row's Accept over its timer.
      await page.getByRole('searchbox', { name: words.filter }).fill('');
      const rows = await page.getByRole('list', { name: words.waitingList }).locator('.session-item').all();
      expect(rows.length).toBeGreaterThan(3);
      for (const row of rows) {
        if (!(await row.isVisible())) continue;
        expect(await showsAtLeast(row.locator('.name'), 12), await row.locator('.name').innerText()).toBe(true);
        const a = row.getByRole('button', { name: words.accept });
        expect(intersects(await box(a), await box(row.locator('.timer')))).toBe(false);
      }
      await shot(page, `queue-waiting-1280x720-${reading}`);
    } finally {
      await host.close();
      await sb.close();
    }
  });
}

/** Whether the notice overlaps the queue list or any of its rows, measured at once (a notice stays a few seconds). */
const noticeOverQueue = (notice: Locator) =>
  notice.evaluate((n) => {
    const a = n.getBoundingClientRect();
    const over = (b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const queue = document.querySelector('aside.queue');
    const rows = [...document.querySelectorAll('aside.queue .session-item')].map((r) => r.getBoundingClientRect());
    return { rows: rows.length, over: rows.some(over) || (queue !== null && over(queue.getBoundingClientRect())) };
  });

test('customers writing: a waiting row shows its unread mark beside Accept, and notices stay off the queue (1280 and 1440, light and dark)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const admin = serviceApi(sb.baseUrl, sb.tokens.admin);
    const waiting = await admin.list(
      '/user-session',
      [
        { key: 'status', operator: 'EQ', value: 'OPEN' },
        { key: 'agent', operator: 'IS_NULL', logic: 'AND' },
      ],
      { sortColumn: 'createdAt', direction: 'DESC', size: 1 },
    );
    const session: Rec = waiting[0]!;
    const protocol = String(session.protocol);
    const [mine] = await ownOpenSessions(sb, 1);
    const mineName = String(nameOf(mine!.user));
    const list = page.getByRole('list', { name: 'Waiting' });
    await page.getByRole('tab', { name: /Waiting/ }).click();
    await expect(list.locator('.session-item').first()).toBeVisible();

    await customerSays(sb.baseUrl, sb.tokens.admin, idIn(session.id)!, 'Alguém pode me atender? É urgente.');
    await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(protocol);
    const row = list.locator('.session-item').filter({ hasText: protocol });
    const mark = row.locator('.unread-count');
    await expect(mark).toHaveText('1');
    await expect(row.locator('.preview')).toContainText('Alguém pode me atender?');
    const accept = row.getByRole('button', { name: /^Accept session of / });
    for (const [what, l] of [
      ['unread mark', mark],
      ['timer', row.locator('.timer')],
    ] as const) {
      expect(intersects(await box(accept), await box(l)), `Accept covers the ${what}`).toBe(false);
    }
    await page.getByRole('searchbox', { name: 'Filter sessions' }).fill('');

    // A customer of the attendant's own writes: a notice, over no row of the queue.
    let n = 0;
    const noticeNow = async () => {
      const text = `Ainda estou aguardando (${++n}).`;
      const workTop = () => page.locator('.work').evaluate((w) => w.getBoundingClientRect().top);
      const before = await workTop();
      await customerSays(sb.baseUrl, sb.tokens.admin, idIn(mine!.id)!, text);
      const notice = page
        .getByRole('status')
        .filter({ hasText: `Message from ${mineName}` })
        .filter({ hasText: text });
      await expect(notice).toBeVisible();
      // Readable where it is: at least its title and the start of the message.
      expect(await showsAtLeast(notice.locator('.toast-body'), 24), 'the notice is cut to nothing').toBe(true);
      // And it pushes nothing of the bar out of the window (the live status stays whole).
      const bar = page.locator('.desk-bar');
      expect(
        await bar.evaluate((b) => b.scrollWidth <= b.clientWidth + 1 && b.getBoundingClientRect().right <= window.innerWidth + 0.5),
      ).toBe(true);
      // Nor moves what is under the bar: the queue and the thread the attendant reads stay put.
      expect(await workTop(), 'the notice moved the queue and the thread').toBe(before);
      return notice;
    };
    const first = await noticeOverQueue(await noticeNow());
    expect(first.rows).toBeGreaterThan(3);
    expect(first.over, 'the notice covers the queue').toBe(false);

    for (const viewport of [
      { width: 1280, height: 720 },
      { width: 1440, height: 900 },
    ]) {
      await page.setViewportSize(viewport);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
        const notice = await noticeNow();
        expect((await noticeOverQueue(notice)).over, `the notice covers the queue at ${viewport.width}, ${colorScheme}`).toBe(false);
        await shot(page, `queue-notice-${viewport.width}x${viewport.height}-${colorScheme}`);
      }
    }
    // Several notices fold into one line: the newest shown, the others behind their count.
    await noticeNow();
    const newest = await noticeNow();
    const more = page.getByRole('button', { name: /^\d+ earlier notices$/ });
    await expect(more).toBeVisible();
    expect((await noticeOverQueue(newest)).over).toBe(false);
  } finally {
    await host.close();
  }
});
