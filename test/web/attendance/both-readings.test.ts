import { test, expect } from '@playwright/test';
import { startStandin } from '../../../src-standin/index';
import { ALL_READINGS } from '../../../src-standin/reading';
import { freshProfile, launchHost } from '../../support/host';
import { connectToService, serviceApi, shot, type Rec, consoleReady } from '../../support/web';

/**
 * An attendant connects to a service (no user name typed), reads a conversation, replies, takes
 * a waiting customer and closes a session whose group requires a classification: against both
 * readings of the interface the stand-in serves.
 */

test.use({ viewport: { width: 1366, height: 768 } });

/** A number from a number, digits or `{id}`, as the readings write ids and references (read here, not by the console's readers). */
const num = (v: unknown): number | null => {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  if (v && typeof v === 'object' && 'id' in v) return num((v as Rec).id);
  return null;
};
/** The name a person is shown by: their display name where the record gives one (default), else their name. */
const shownName = (u: unknown): string => String((u as Rec).displayName ?? (u as Rec).name);
/** The customer's lines: `fromUser` true (default) or `sendBy` "CUSTOMER" (variant). */
const byCustomer = (m: Rec): boolean => m.fromUser === true || m.sendBy === 'CUSTOMER';
/** The attendant's lines: `fromUser` false (default) or `sendBy` "AGENT" (variant). */
const byAgent = (m: Rec): boolean => m.fromUser === false || m.sendBy === 'AGENT';

for (const reading of ALL_READINGS) {
  test(`the attendant's day against the ${reading} reading`, async ({ page }) => {
    const sb = await startStandin({ port: 0, sessions: 60, reading });
    const host = await launchHost(freshProfile());
    try {
      const api = serviceApi(sb.baseUrl, sb.tokens.agent);
      await page.goto(host.url);
      await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent });
      await consoleReady(page);
      // The service said who the token belongs to: no identity question, the name in the header.
      await expect(page.getByLabel('Signed in as')).toHaveText(new RegExp(`^${sb.demoAgent.name.split(' ')[0]}`));
      await expect(page.getByRole('heading', { name: 'Who are you on this service?' })).toHaveCount(0);

      // A conversation of the attendant's with both sides in it.
      const mine = await api.list(
        '/user-session',
        [
          { key: 'status', operator: 'EQ', value: 'OPEN' },
          { key: 'lastAgent', operator: 'EQ', value: sb.demoAgent.userName, logic: 'AND' },
          { key: 'pending', operator: 'IS_FALSE', logic: 'AND' },
        ],
        { direction: 'DESC', size: 50 },
      );
      let chosen: { s: Rec; customerLine: string; agentLine: string } | null = null;
      for (const s of mine) {
        const msgs = (await api.listAll('/messages', [{ key: 'session.id', operator: 'EQNUM', value: String(num(s.id)) }])).filter(
          (m) => num(m.session) === num(s.id),
        );
        const c = msgs.find(byCustomer);
        const a = msgs.find(byAgent);
        if (c && a) {
          chosen = { s, customerLine: String(c.message), agentLine: String(a.message) };
          break;
        }
      }
      expect(chosen).not.toBeNull();
      const { s, customerLine, agentLine } = chosen!;
      const customer = shownName(s.user);
      await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(String(s.protocol));
      await page.getByRole('tab', { name: /Mine/ }).click();
      await page
        .getByRole('list', { name: 'Mine' })
        .getByRole('button', { name: new RegExp(`^${customer}`) })
        .first()
        .click();
      const log = page.getByRole('log', { name: /Messages with/ });
      // The customer's line under the customer's name, the attendant's on the attendant's side.
      await expect(
        log
          .getByRole('article', { name: new RegExp(`^${customer},`) })
          .filter({ hasText: customerLine.slice(0, 25) })
          .first(),
      ).toBeVisible();
      await expect(
        log
          .locator('article.msg.mine')
          .filter({ hasText: agentLine.slice(0, 25) })
          .first(),
      ).toBeVisible();
      await expect(page.getByText(/records could not be read/)).toHaveCount(0);
      await shot(page, `attendance-readings-${reading}-thread`);

      // The composer help shows what loaded and names what the service does not offer.
      const help = page.getByRole('region', { name: 'Composer help' });
      await help.getByRole('tab', { name: 'Canned replies' }).click();
      await expect(help.getByRole('list', { name: 'Canned replies' }).getByRole('listitem').first()).toBeVisible();
      if (reading === 'variant') await expect(help.getByText('Could not load: suggestions. The rest is shown.')).toBeVisible();

      // A reply.
      const text = `Já verifiquei, ${reading}.`;
      const box = page.getByRole('textbox', { name: /Reply to/ });
      await box.fill(text);
      await box.press('Enter');
      await expect(log.getByText('Sent')).toBeVisible();
      await expect
        .poll(
          async () =>
            (await api.listAll('/messages', [{ key: 'session.id', operator: 'EQNUM', value: String(num(s.id)) }])).filter(
              (m) => m.message === text && byAgent(m),
            ).length,
        )
        .toBe(1);

      // A waiting customer taken: one whose group requires a classification to close.
      const requiresClassification = async (groupId: number | null): Promise<boolean> =>
        (
          await api.post('/chatapi/1.0/api/v2/groups/unique', {
            conditions: [{ key: 'id', operator: 'EQNUM', value: String(groupId) }],
            sort: false,
          })
        ).mandatoryClassificationTree === true;
      const waiting: Rec[] = [];
      for (const w of await api.list('/user-session', [{ key: 'status', operator: 'EQ', value: 'OPEN' }]))
        if (w.agent == null && w.onlyBot !== true && (await requiresClassification(num(w.groupConf)))) waiting.push(w);
      expect(waiting.length, 'a waiting session in a group that requires a classification').toBeGreaterThan(0);
      const accepted = waiting[0]!;
      await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(String(accepted.protocol));
      await page.getByRole('tab', { name: /Waiting/ }).click();
      const accept = page
        .getByRole('list', { name: 'Waiting' })
        .getByRole('button', { name: /^Accept session of / })
        .first();
      const who = (await accept.getAttribute('aria-label'))!.replace('Accept session of ', '');
      expect(who).toBe(shownName(accepted.user));
      await accept.click();
      await expect(page.getByRole('tab', { name: /Mine/ })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByRole('heading', { name: who }).first()).toBeVisible();

      // Closing in a group that requires a classification: the dialog insists on one.
      await page.getByRole('button', { name: 'Classify and close' }).click();
      const dialog = page.getByRole('dialog', { name: 'Classify and close' });
      await expect(dialog.getByRole('tree', { name: 'Classification' })).toBeVisible();
      const close = dialog.getByRole('button', { name: 'Close the session' });
      await expect(close).toBeDisabled();
      const leaf = dialog.getByRole('treeitem').nth(2);
      const label = (await leaf.innerText()).replace(/^•\s*/, '').trim();
      const search = dialog.getByRole('searchbox', { name: 'Search the classification' });
      await search.fill(label.slice(0, 6));
      await search.press('ArrowDown');
      await search.press('ArrowUp');
      await search.press('Enter');
      await expect(dialog.getByRole('status')).toContainText('Chosen:');
      await close.click();
      await expect(dialog).toBeHidden();
      await expect
        .poll(async () => (await api.list('/user-session', [{ key: 'id', operator: 'EQNUM', value: String(num(accepted.id)) }]))[0]!.status)
        .toBe('CLOSED');
      expect(
        (await api.listAll('/classification-service', [{ key: 'sessionId', operator: 'EQNUM', value: String(num(accepted.id)) }])).length,
      ).toBe(1);
    } finally {
      await host.close();
      await sb.close();
    }
  });
}
