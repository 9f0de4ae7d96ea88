import { test, expect, type Page } from '@playwright/test';
import { startStandin } from '../../../src-standin/index';
import { ALL_READINGS } from '../../../src-standin/reading';
import { freshProfile, launchHost } from '../../support/host';
import { customerSays } from '../../support/customer';
import { connectToService, consoleReady, serviceApi, shot, type Rec } from '../../support/web';

/**
 * A customer whose 24-hour window had closed writes in the thread the attendant has open: the
 * composer offers free text at once (no template, no reopening), the attendant answers, and the
 * queue row shows the customer's newest line. Waiting customers' rows show theirs too. In every
 * reading the stand-in serves, including a server that lists in any order (ignores `sort`).
 * What is expected is read from the service's records here, not with the console's readers.
 */

test.use({ viewport: { width: 1366, height: 768 } });

const DAY_MS = 24 * 3600 * 1000;

/** A number from a number, digits or `{id}` (the readings write references so). */
const num = (v: unknown): number | null => {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  if (v && typeof v === 'object' && 'id' in v) return num((v as Rec).id);
  return null;
};
/** Who wrote a message, as the stand-in's readings write it: `fromUser` true, or `sendBy` "CUSTOMER". */
const byCustomer = (m: Rec): boolean => m.fromUser === true || m.sendBy === 'CUSTOMER';
/** The chat-app channel word sits in either address field, depending on the reading. */
const isChatApp = (s: Rec): boolean => s.userConnectedResource === 'chatApp' || s.userConnectedInstance === 'chatApp';
/** The customer's newest line of a session, by the records' times (the service's lists may come in any order). */
function newestCustomerLine(messages: Rec[]): string | null {
  let best: Rec | null = null;
  for (const m of messages.filter(byCustomer)) {
    const t = Date.parse(String(m.createdAt));
    const bt = best ? Date.parse(String(best.createdAt)) : -Infinity;
    if (!best || t > bt || (t === bt && num(m.id)! > num(best.id)!)) best = m;
  }
  return best ? String(best.message) : null;
}
const protocolRow = (page: Page, list: string, protocol: string) =>
  page.getByRole('list', { name: list }).getByRole('button', { name: new RegExp(`\\b${protocol}\\b`) });

for (const reading of ALL_READINGS) {
  test(`a customer writes in the open thread and is answered in free text at once; rows show the newest customer line (${reading} reading)`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    // Seeded two days back: every chat-app conversation's window has closed.
    const sb = await startStandin({ port: 0, sessions: 60, reading, anchorTime: Math.floor((Date.now() - 2 * DAY_MS) / 60_000) * 60_000 });
    const host = await launchHost(freshProfile());
    try {
      const api = serviceApi(sb.baseUrl, sb.tokens.agent);
      const messagesOf = async (id: number) =>
        (await api.listAll('/messages', [{ key: 'session.id', operator: 'EQNUM', value: String(id) }])).filter(
          (m) => num(m.session) === id,
        );
      await page.goto(host.url);
      await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent });
      await consoleReady(page);

      // One of the attendant's chat-app conversations, its customer's last line over a day old.
      const mine = (
        await api.list('/user-session', [
          { key: 'status', operator: 'EQ', value: 'OPEN' },
          { key: 'lastAgent', operator: 'EQ', value: sb.demoAgent.userName, logic: 'AND' },
        ])
      ).filter(isChatApp);
      let chosen: Rec | null = null;
      for (const s of mine) {
        const lines = (await messagesOf(num(s.id)!)).filter(byCustomer);
        if (lines.length && lines.every((m) => Date.now() - Date.parse(String(m.createdAt)) > DAY_MS)) {
          chosen = s;
          break;
        }
      }
      expect(chosen, 'a chat-app session of the attendant whose window has closed').not.toBeNull();
      const s = chosen!;
      const sessionId = num(s.id)!;
      const protocol = String(s.protocol);

      await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(protocol);
      await page.getByRole('tab', { name: /Mine/ }).click();
      await protocolRow(page, 'Mine', protocol).first().click();
      const log = page.getByRole('log', { name: /Messages with/ });
      const closed = page.getByText('The 24-hour messaging window is closed: only an approved template can be sent.');
      await expect(closed).toBeVisible();
      await expect(page.getByRole('textbox', { name: /Reply to/ })).toHaveCount(0);

      // The customer writes now: the thread shows it and the window opens, without reopening.
      const line = `Oi, ainda preciso de ajuda (${reading}).`;
      await customerSays(sb.baseUrl, sb.tokens.admin, sessionId, line);
      // This workspace has no events from the service (it checks every 30 to 60 s): the page
      // coming back online has it read the service now, instead of waiting for the next check.
      await page.evaluate(() => window.dispatchEvent(new Event('online')));
      await expect(log.getByText(line)).toBeVisible();
      await expect(closed).toHaveCount(0);
      const box = page.getByRole('textbox', { name: /Reply to/ });
      const answer = `Claro, estou aqui (${reading}).`;
      await box.fill(answer);
      await box.press('Enter');
      await expect(log.getByText('Sent')).toBeVisible();
      await expect.poll(async () => (await messagesOf(sessionId)).filter((m) => m.message === answer && !byCustomer(m)).length).toBe(1);
      await shot(page, `attendance-window-opens-${reading}`);

      // The row shows the customer's newest line, as the service's records say.
      const expected = newestCustomerLine(await messagesOf(sessionId));
      expect(expected).toBe(line);
      await expect(protocolRow(page, 'Mine', protocol).first().locator('.preview')).toContainText(expected!.slice(0, 40));

      // Every waiting customer's row shows their newest line.
      const waiting = (await api.list('/user-session', [{ key: 'status', operator: 'EQ', value: 'OPEN' }])).filter(
        (w) => w.agent == null && w.onlyBot !== true,
      );
      expect(waiting.length).toBeGreaterThan(0);
      await page.getByRole('tab', { name: /Waiting/ }).click();
      for (const w of waiting) {
        const want = newestCustomerLine(await messagesOf(num(w.id)!));
        expect(want, `session ${String(w.id)} has a customer line`).not.toBeNull();
        await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(String(w.protocol));
        await expect(protocolRow(page, 'Waiting', String(w.protocol)).first().locator('.preview')).toContainText(want!.slice(0, 40));
      }
    } finally {
      await host.close();
      await sb.close();
    }
  });
}
