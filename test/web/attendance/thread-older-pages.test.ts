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
