import { test, expect, type Locator } from '@playwright/test';
import { startStandin } from '../../../src-standin/index';
import { freshProfile, launchHost } from '../../support/host';
import { connectToService, ownOpenSessions, selectSession, serviceApi, shot, workspaceButton } from '../../support/web';

/**
 * Each workspace keeps its place: the attendant leaves one for another and comes back to the same
 * view, queue tab, open session, side tab, thread position and unsent reply.
 */

test.use({ viewport: { width: 1366, height: 768 } });

const EXTRA = 30;
const lineOf = (i: number) => `Mensagem ${i}: ${i % 2 ? 'o pedido ainda não chegou e o prazo já passou faz dias.' : 'vamos verificar.'}`;

/** The text of the first message whose top edge is inside the thread: what the reader is looking at. */
const topMessage = (log: Locator) =>
  log.evaluate((el) => {
    const box = el.getBoundingClientRect();
    for (const a of el.querySelectorAll('article')) {
      const r = a.getBoundingClientRect();
      if (r.top >= box.top && r.bottom > box.top) return a.querySelector('.msg-text')?.textContent ?? null;
    }
    return null;
  });

test('switching to another workspace and back restores the tab, the open session, the side tab, the thread position and the draft', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const [a, b] = await Promise.all([startStandin({ port: 0, sessions: 40, seed: 3 }), startStandin({ port: 0, sessions: 40, seed: 5 })]);
  const host = await launchHost(freshProfile());
  try {
    // A long thread in A, so there is a place to keep in it.
    const chosen = (await ownOpenSessions(a))[0]!;
    const api = serviceApi(a.baseUrl, a.tokens.agent);
    for (let i = 1; i <= EXTRA; i++)
      await api.post('/chatapi/1.0/api/v2/messages/save', { session: { id: chosen.id }, message: lineOf(i), fromUser: i % 2 === 1 });

    await page.goto(host.url);
    await connectToService(page, { baseUrl: a.baseUrl, token: a.tokens.agent });
    await expect(page.getByRole('tablist', { name: 'Sessions' })).toBeVisible();
    await page.getByRole('button', { name: 'Add a workspace' }).click();
    await connectToService(page, { baseUrl: b.baseUrl, token: b.tokens.agent });
    await expect(page.locator('.workspace-badge')).toContainText(b.baseUrl);

    // In A: Mine, the long session open, its notes beside it, a reply typed and not sent.
    const hostA = new URL(a.baseUrl).host;
    const hostB = new URL(b.baseUrl).host;
    await workspaceButton(page, hostA).click();
    await expect(page.locator('.workspace-badge')).toContainText(a.baseUrl);
    const customer = await selectSession(page, chosen);
    const log = page.getByRole('log', { name: `Messages with ${customer}` });
    await expect(log.getByText(lineOf(EXTRA))).toBeVisible();
    await page.getByRole('tab', { name: 'Notes' }).click();
    const reply = page.getByRole('textbox', { name: `Reply to ${customer}` });
    await reply.fill('Já verifiquei com a transportadora, um momento');
    // The reader scrolls up to an older message.
    await log.hover();
    await page.mouse.wheel(0, -900);
    let reading: string | null = null;
    await expect
      .poll(async () => {
        const before = reading;
        reading = await topMessage(log);
        return reading !== null && reading !== lineOf(EXTRA) && reading === before;
      })
      .toBe(true);

    // To B, which shows its own place (nothing of A's), and back to A.
    await workspaceButton(page, hostB).click();
    await expect(page.locator('.workspace-badge')).toContainText(b.baseUrl);
    await expect(page.getByRole('tab', { name: /Waiting/ })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('log', { name: /Messages with/ })).toHaveCount(0);
    await workspaceButton(page, hostA).click();
    await expect(page.locator('.workspace-badge')).toContainText(a.baseUrl);

    await expect(page.getByRole('tab', { name: /Mine/ })).toHaveAttribute('aria-selected', 'true');
    await expect(log.getByText(reading!)).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Notes' })).toHaveAttribute('aria-selected', 'true');
    await expect(reply).toHaveValue('Já verifiquei com a transportadora, um momento');
    await expect.poll(() => topMessage(log)).toBe(reading);
    await shot(page, 'workspace-place-restored');

    // B kept its own place too: still nothing open there.
    await workspaceButton(page, hostB).click();
    await expect(page.locator('.workspace-badge')).toContainText(b.baseUrl);
    await expect(page.getByRole('log', { name: /Messages with/ })).toHaveCount(0);
  } finally {
    await host.close();
    await Promise.all([a.close(), b.close()]);
  }
});
