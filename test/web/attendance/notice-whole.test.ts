import { test, expect, type Locator } from '@playwright/test';
import { nameOf } from '../../support/records';
import { freshProfile, launchHost } from '../../support/host';
import { openDemo, ownOpenSessions, selectSession, serviceApi, shot } from '../../support/web';

/**
 * The in-window notice of a customer's message is read whole (on two lines if it must) and
 * takes no room from the search box.
 */
const width = (l: Locator) => l.evaluate((el) => el.getBoundingClientRect().width);
/** Whether all of an element's text is shown: nothing cut on the right or below. */
const whole = (l: Locator) => l.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1);

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
]) {
  test(`at ${viewport.width}×${viewport.height} a customer's message notice shows whole and the search box keeps its width`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    const host = await launchHost(freshProfile());
    try {
      const sb = await openDemo(page, host);
      const [open, other] = await ownOpenSessions(sb, 2);
      await selectSession(page, open!);
      await page.getByRole('searchbox', { name: 'Filter sessions' }).fill('');
      const search = page.getByRole('searchbox', { name: 'Search sessions and messages' });
      const before = await width(search);
      const said = 'Pedido 4471 chegou faltando uma peça';
      await serviceApi(sb.baseUrl, sb.tokens.admin).post('/chatapi/1.0/api/v2/messages/save', {
        session: { id: other!.id },
        message: said,
        fromUser: true,
      });
      const customer = nameOf(other!.user)!.split(' ')[0]!;
      const notice = page
        .getByRole('status')
        .filter({ hasText: said })
        .getByRole('button', { name: new RegExp(customer) });
      await expect(notice).toBeVisible();
      await expect(notice).toContainText(said);
      expect(await whole(notice), 'the notice is cut').toBe(true);
      expect(await width(search)).toBeGreaterThanOrEqual(before - 1);
      await shot(page, `notice-whole-${viewport.width}`);
    } finally {
      await host.close();
    }
  });
}
