import { test, expect, type Locator, type Page } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { openDemo, ownOpenSessions, selectSession, serviceApi, shot } from '../../support/web';

test.use({ viewport: { width: 1366, height: 768 } });

const EXTRA = 36;
const textOf = (i: number) =>
  `Linha ${i} da conversa: ${i % 3 === 0 ? 'o pedido ainda não chegou e preciso saber quando será entregue, porque o prazo informado na compra já passou faz alguns dias e ninguém me respondeu.' : 'seguimos verificando.'}`;

/** Where the thread's scroll container is: the numbers a reader's eye would follow. */
const scrollOf = (log: Locator) => log.evaluate((el) => ({ top: el.scrollTop, client: el.clientHeight, height: el.scrollHeight }));
const atBottom = async (log: Locator) => {
  const s = await scrollOf(log);
  return s.top + s.client >= s.height - 2;
};

/**
 * The first message whose top edge is inside the thread: the one the reader is looking at, and
 * where it is in the thread's view (a notice or banner moving the whole view is another test's).
 */
const topMessage = (page: Page, log: Locator) =>
  log.evaluate((el) => {
    const box = el.getBoundingClientRect();
    for (const a of el.querySelectorAll('article')) {
      const r = a.getBoundingClientRect();
      if (r.top >= box.top && r.bottom > box.top) return { text: a.querySelector('.msg-text')?.textContent ?? '', top: r.top - box.top };
    }
    return null;
  });

test('the thread stays at the bottom when the newest message grows, and stays put when the reader has scrolled up', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const api = serviceApi(sb.baseUrl, sb.tokens.agent);

    // One of the attendant's sessions, long enough to scroll.
    const chosen = (await ownOpenSessions(sb))[0]!;
    for (let i = 1; i <= EXTRA; i++) {
      await api.post('/chatapi/1.0/api/v2/messages/save', { session: { id: chosen.id }, message: textOf(i), fromUser: i % 2 === 1 });
    }
    const newest = textOf(EXTRA);

    await selectSession(page, chosen);
    const log = page.getByRole('log', { name: /Messages with/ });
    const last = log.getByRole('article').filter({ hasText: newest });
    await expect(last).toBeVisible();
    await expect.poll(() => atBottom(log)).toBe(true);

    // The newest message grows under the reader (its player opens): the thread follows it.
    await last.hover();
    await last.getByRole('button', { name: 'Read aloud' }).click();
    const player = last.getByLabel('Speech audio');
    await expect(last.getByRole('status')).toContainText(/s of speech/);
    await expect.poll(() => atBottom(log)).toBe(true);
    const view = (await log.boundingBox())!;
    const seen = (await player.boundingBox())!;
    expect(seen.y).toBeGreaterThanOrEqual(view.y);
    expect(seen.y + seen.height).toBeLessThanOrEqual(view.y + view.height);
    await shot(page, 'thread-scroll-player');

    // The reader scrolls up to read older messages.
    await log.hover();
    await page.mouse.wheel(0, -700);
    await expect.poll(async () => (await scrollOf(log)).top < (await scrollOf(log)).height - (await scrollOf(log)).client - 300).toBe(true);
    let before = await topMessage(page, log);
    await expect
      .poll(async () => {
        const b = before;
        before = await topMessage(page, log);
        return JSON.stringify(b) === JSON.stringify(before);
      })
      .toBe(true);
    expect(before).not.toBeNull();

    // A row just above the view grows (its player opens without scrolling to it): what the
    // reader is looking at does not move, and the thread does not jump to the bottom.
    const above = await log.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const rows = [...el.querySelectorAll('article')].filter((a) => a.getBoundingClientRect().bottom <= box.top);
      return rows.at(-1)?.querySelector('.msg-text')?.textContent ?? null;
    });
    expect(above, 'a rendered row above the view').not.toBeNull();
    const older = log.getByRole('article').filter({ hasText: above! });
    const small = (await older.boundingBox())!.height;
    await older.getByRole('button', { name: 'Read aloud' }).dispatchEvent('click');
    await expect(older.getByRole('status')).toContainText(/s of speech/);
    // The newest row's player closed (one speech at a time) and the older one opened.
    await expect(player).toHaveCount(0);
    await expect.poll(async () => (await older.boundingBox())!.height).toBeGreaterThan(small + 20);
    // Read once the list has measured the grown row (the same frame's resize callback: a read
    // between the growth and it sees a layout that is never painted).
    await expect
      .poll(async () => {
        const after = await topMessage(page, log);
        return after?.text === before!.text && Math.abs(after.top - before!.top) <= 1;
      })
      .toBe(true);
    expect(await atBottom(log)).toBe(false);

    // Back at the bottom, the thread sticks again.
    await log.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect.poll(() => atBottom(log)).toBe(true);
    await last.hover();
    await last.getByRole('button', { name: 'Read aloud' }).click();
    await expect(last.getByRole('status')).toContainText(/s of speech/);
    await expect.poll(() => atBottom(log)).toBe(true);
  } finally {
    await host.close();
  }
});
