import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { openDemo, ownOpenSessions, selectSession, serviceApi } from '../../support/web';

test.use({ viewport: { width: 1366, height: 768 } });

// More than two pages of 50: the thread opens on the newest page only.
const ADDED = 110;

test('scrolling up a long thread loads its older pages until the first message and the beginning of the conversation show', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const api = serviceApi(sb.baseUrl, sb.tokens.admin);
    const s = (await ownOpenSessions(sb))[0]!;
    const bySession = [{ key: 'session.id', operator: 'EQNUM', value: String(s.id) }];
    for (let i = 1; i <= ADDED; i++) {
      await api.post('/chatapi/1.0/api/v2/messages/save', {
        session: { id: s.id },
        message: `Mensagem de número ${i} do histórico longo.`,
        fromUser: i % 2 === 1,
      });
    }
    const all = await api.list('/messages', bySession, { sortColumn: 'createdAt' });
    expect(all.length).toBeGreaterThan(2 * 50);
    const oldest = String(all[0]!.message);
    const newest = String(all.at(-1)!.message);

    await selectSession(page, s);
    const log = page.getByRole('log', { name: /Messages with/ });
    await expect(log.getByRole('article').filter({ hasText: newest })).toBeVisible();
    const first = log.getByRole('article').filter({ hasText: oldest.slice(0, 40) });
    const beginning = log.getByText('Beginning of the conversation');
    await expect(beginning).toHaveCount(0);

    // The reader scrolls up; each time the top is reached an older page comes in above.
    await log.hover();
    await expect
      .poll(
        async () => {
          await page.mouse.wheel(0, -4_000);
          return (await first.count()) > 0 && (await first.isVisible());
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    await expect(first).toBeInViewport();
    await expect(beginning).toBeVisible();
  } finally {
    await host.close();
  }
});

// More than the 5,000 messages the console reads at once from a service that ignores the sort.
const LONG = 5_060;
const PER_SECOND = 5;

test('a long, busy thread whose messages share their seconds scrolls back to its very first message, and says it is the beginning only there', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const api = serviceApi(sb.baseUrl, sb.tokens.admin);
    const s = (await ownOpenSessions(sb))[0]!;
    const bySession = [{ key: 'session.id', operator: 'EQNUM', value: String(s.id) }];
    const had = await api.list('/messages', bySession, { sortColumn: 'createdAt', direction: 'DESC', size: 1 });
    // After the session's own messages, several to a second (a service that keeps whole seconds):
    // the service lists a second's messages in its own order.
    const newestHad = had[0]?.createdAt;
    const since = typeof newestHad === 'string' ? Date.parse(newestHad) : Date.now() - 6 * 3600_000;
    const base = Math.ceil((since + 1000) / 1000) * 1000;
    let next = 0;
    const writer = async () => {
      for (let i = next++; i < LONG; i = next++)
        await api.post('/chatapi/1.0/api/v2/messages/save', {
          session: { id: s.id },
          message: `Linha ${i + 1} de uma conversa longa.`,
          fromUser: i % 2 === 0,
          createdAt: new Date(base + Math.floor(i / PER_SECOND) * 1000).toISOString(),
        });
    };
    await Promise.all(Array.from({ length: 4 }, writer));
    const oldest = String((await api.list('/messages', bySession, { sortColumn: 'createdAt', size: 1 }))[0]!.message);
    // Up to its first digit: a masked document or a highlighted entity changes what is shown.
    const digit = oldest.search(/\d/);
    const oldestShown = oldest.slice(0, Math.min(30, digit < 0 ? oldest.length : digit));
    expect(oldestShown.length).toBeGreaterThan(5);

    await selectSession(page, s);
    const log = page.getByRole('log', { name: /Messages with/ });
    await expect(log.getByRole('article').filter({ hasText: `Linha ${LONG} de uma conversa longa.` })).toBeVisible();
    const beginning = log.getByText('Beginning of the conversation');
    await expect(beginning).toHaveCount(0);

    // The reader holds the scrollbar at the top while the older messages come in.
    const first = log.getByRole('article').filter({ hasText: oldestShown });
    await expect
      .poll(
        async () => {
          await log.evaluate((el) => el.scrollTo({ top: 0 }));
          return (await first.count()) > 0 && (await beginning.count()) > 0;
        },
        { timeout: 180_000 },
      )
      .toBe(true);
    await expect(first.first()).toBeInViewport();
    await expect(beginning).toBeVisible();
    // The beginning is said above the first message only: nothing of the thread is above it.
    const above = await log.evaluate((el) => el.scrollTop);
    expect(above).toBe(0);
  } finally {
    await host.close();
  }
});
