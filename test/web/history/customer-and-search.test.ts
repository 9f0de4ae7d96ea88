import { test, expect, type Page } from '@playwright/test';
import { idIn, nameOf, sessionIdIn, userNameOf } from '../../support/records';
import { startStandin } from '../../../src-standin/index';
import { READINGS } from '../../../src-standin/reading';
import { freshProfile, launchHost } from '../../support/host';
import { connectToService, consoleReady, serviceApi, shot, type Rec } from '../../support/web';

/**
 * The attendant's context as they use it: beside a conversation, the customer's earlier sessions,
 * one read in place without leaving the conversation; a search by a message's text that opens
 * that session at the message; and the same search answered from the copies kept on this
 * computer once the service is away. Against both readings of the stand-in.
 */

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
] as const;

async function shots(page: Page, name: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      await shot(page, `${name}-${size.width}x${size.height}-${colorScheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(SIZES[0]);
}

for (const reading of READINGS) {
  test(`customer panel and search against the ${reading} reading`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(SIZES[0]);
    const sb = await startStandin({ port: 0, sessions: 200, reading });
    const host = await launchHost(freshProfile());
    let sbOpen = true;
    try {
      const api = serviceApi(sb.baseUrl, sb.tokens.agent);
      const all = async (resource: string, conditions: unknown[] = []): Promise<Rec[]> => {
        const out: Rec[] = [];
        for (let p = 0; ; p++) {
          const rows = await api.list(resource, conditions, { page: p, size: 50 });
          out.push(...rows);
          if (rows.length < 50) return out;
        }
      };
      // One of the attendant's open sessions whose customer has two or more other sessions.
      const sessions = await all('/user-session');
      const classes = await all('/classification-service');
      const byCustomer = new Map<number, Rec[]>();
      for (const s of sessions) byCustomer.set(idIn(s.user)!, [...(byCustomer.get(idIn(s.user)!) ?? []), s]);
      const current = sessions.find((s) => {
        const others = byCustomer.get(idIn(s.user)!)!.filter((o) => o !== s);
        const mine = s.status === 'OPEN' && userNameOf(s.agent) === sb.demoAgent.userName;
        return mine && others.length >= 2 && others.some((o) => classes.some((k) => idIn(k.sessionId) === idIn(o.id)));
      })!;
      expect(current, 'a session of the attendant with an earlier history').toBeTruthy();
      const others = byCustomer.get(idIn(current.user)!)!.filter((o) => o !== current);
      const customer = nameOf(current.user)!;

      await page.goto(host.url);
      await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent });
      await consoleReady(page);
      await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(String(current.protocol));
      await page.getByRole('tab', { name: /^Mine/ }).click();
      await page
        .getByRole('list', { name: 'Mine' })
        .getByRole('button', { name: new RegExp(`^${customer}`) })
        .first()
        .click();
      const thread = page.getByRole('log', { name: `Messages with ${customer}` });
      await expect(thread).toBeVisible();

      // The panel: every other session of the customer, its classification where it has one.
      await page.getByRole('tab', { name: 'Customer' }).click();
      const list = page.getByRole('list', { name: `Earlier sessions of ${customer}` });
      await expect(list.getByRole('button')).toHaveCount(others.length);
      const classified = others.find((o) => classes.some((k) => idIn(k.sessionId) === idIn(o.id)))!;
      const path = classes.find((k) => idIn(k.sessionId) === idIn(classified.id))!.displayName as string;
      const row = list.getByRole('button').filter({ hasText: path }).first();
      await expect(row).toBeVisible();
      if (reading === 'default') await shots(page, 'history-customer-panel');

      // An earlier session read in place: its messages; the conversation stays open beside it.
      const earlierMessages = (
        await all('/messages', [{ key: 'session.id', operator: 'EQNUM', value: String(idIn(classified.id)) }])
      ).filter((m) => sessionIdIn(m) === idIn(classified.id));
      await row.click();
      await expect(page.getByRole('heading', { name: /read-only$/ })).toBeVisible();
      const past = page.getByRole('list', { name: /^Messages of the session of/ });
      await expect(past.getByRole('listitem')).toHaveCount(earlierMessages.length);
      await expect(past.getByText(String(earlierMessages[0]!.message).slice(0, 30)).first()).toBeVisible();
      await expect(thread).toBeVisible();
      await expect(page.getByRole('region', { name: customer }).getByRole('heading', { name: customer })).toBeVisible();
      if (reading === 'default') await shots(page, 'history-earlier-session');
      // Opening the tab again does not read the history again: it is kept for the session.
      let reads = 0;
      page.on('request', (r) => {
        if ((r.postData() ?? '').includes('history:customer')) reads++;
      });
      await page.getByRole('button', { name: 'Back to the earlier sessions' }).click();
      await page.getByRole('tab', { name: 'Notes' }).click();
      await page.getByRole('tab', { name: 'Customer' }).click();
      await expect(list.getByRole('button')).toHaveCount(others.length);
      expect(reads).toBe(0);

      // Search by a message's text, in another customer's session: opened at the message, marked.
      // A line said once in all the service's messages, free of documents (those are masked).
      const messages = await all('/messages');
      const closedElsewhere = new Set(
        sessions.filter((x) => idIn(x.user) !== idIn(current.user) && x.status === 'CLOSED').map((x) => idIn(x.id)),
      );
      let words = '';
      let target: Rec | undefined;
      for (const x of messages) {
        const text = lineOf(x);
        if (!closedElsewhere.has(sessionIdIn(x)) || text.length < 30 || /\d{3}\.?\d{3}\.?\d{3}/.test(text)) continue;
        const w = text.slice(5, 25);
        if (w.trim() !== w || messages.filter((y) => lineOf(y).toLowerCase().includes(w.toLowerCase())).length !== 1) continue;
        words = w;
        target = sessions.find((y) => idIn(y.id) === sessionIdIn(x));
        break;
      }
      expect(target, 'a line said once').toBeTruthy();
      const box = page.getByRole('searchbox', { name: 'Search sessions and messages' });
      // The palette's shortcut puts the attendant in the search box.
      await page.keyboard.press('Control+Shift+S');
      await expect(box).toBeFocused();
      await box.fill(words);
      const results = page.getByRole('region', { name: 'Search results' });
      const targetName = nameOf(target!.user)!;
      const hit = results
        .getByRole('button', { name: new RegExp(`^${escape(targetName)}, Message: `) })
        .filter({ hasText: words })
        .first();
      await expect(hit).toBeVisible();
      await expect(hit.locator('mark')).toHaveText(words);
      if (reading === 'default') await shots(page, 'history-search-results');
      await hit.click();
      const targetThread = page.getByRole('log', { name: `Messages with ${targetName}` });
      const found = targetThread.getByRole('group', { name: 'Found by the search' });
      await expect(found).toBeVisible();
      await expect(found).toContainText(words);
      await expect(found).toBeInViewport();

      // The service away: the same search answers from the copies kept on this computer, marked.
      await sb.close();
      sbOpen = false;
      await box.fill('');
      await box.fill(words);
      await expect(results.getByRole('status').filter({ hasText: /^Offline: from the copies kept on this computer/ })).toBeVisible();
      const kept = results
        .getByRole('button', { name: new RegExp(`^${escape(targetName)}, Message: `) })
        .filter({ hasText: words })
        .first();
      await expect(kept).toBeVisible();
      if (reading === 'default') await shots(page, 'history-search-offline');
    } finally {
      await host.close();
      if (sbOpen) await sb.close();
    }
  });
}

const lineOf = (m: Rec): string => (typeof m.message === 'string' ? m.message : '');
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
