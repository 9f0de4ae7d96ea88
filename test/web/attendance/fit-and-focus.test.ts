import { test, expect, type Locator, type Page } from '@playwright/test';
import { intersects, openDemo, ownOpenSessions, selectSession, serviceApi, showsAtLeast, shot } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';

/** Presses Tab (and then Shift+Tab) many times; focus must never leave `dialog`. */
async function focusStaysIn(page: Page, dialog: Locator): Promise<void> {
  await expect
    .poll(() => dialog.evaluate((d) => d.contains(document.activeElement)), { message: 'the dialog opens with focus inside it' })
    .toBe(true);
  for (let i = 0; i < 14; i++) {
    await page.keyboard.press(i < 9 ? 'Tab' : 'Shift+Tab');
    expect(await dialog.evaluate((d) => d.contains(document.activeElement)), `after ${i + 1} presses`).toBe(true);
  }
}

/** Whether an element's text is wholly shown: not clipped by its own box nor by the window. */
const wholeInWindow = (el: Locator) =>
  el.evaluate((node) => {
    const b = node.getBoundingClientRect();
    const clipped = node.scrollWidth > node.clientWidth + 1;
    return !clipped && b.left >= 0 && b.top >= 0 && b.right <= window.innerWidth + 0.5 && b.bottom <= window.innerHeight + 0.5;
  });

test('every dialog keeps focus inside while it is open and closes on Escape: transfer, commands, ticket lookup', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const [mine] = await ownOpenSessions(sb);
    await selectSession(page, mine!);
    const reply = page.getByRole('textbox', { name: /Reply to/ });
    await reply.focus();

    await page.keyboard.press('Control+Shift+H');
    const transfer = page.getByRole('dialog', { name: 'Transfer the session' });
    await focusStaysIn(page, transfer);
    await page.keyboard.press('Escape');
    await expect(transfer).toBeHidden();
    await expect(reply).toBeFocused();

    await page.keyboard.press('Control+K');
    const commands = page.getByRole('dialog', { name: 'Commands' });
    await focusStaysIn(page, commands);
    await page.keyboard.press('Escape');
    await expect(commands).toBeHidden();

    await page.keyboard.press('Control+Shift+T');
    const lookup = page.getByRole('dialog', { name: 'Ticket lookup' });
    await focusStaysIn(page, lookup);
    await page.keyboard.press('Escape');
    await expect(lookup).toBeHidden();
  } finally {
    await host.close();
  }
});

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
]) {
  test(`at ${viewport.width}×${viewport.height} nothing is cut, the newest message shows beside a notice, and the attendant's replies read You`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    const host = await launchHost(freshProfile());
    try {
      const sb = await openDemo(page, host);
      const api = serviceApi(sb.baseUrl, sb.tokens.admin);
      const [open, other] = await ownOpenSessions(sb, 2);
      await selectSession(page, open!);
      const log = page.getByRole('log', { name: /Messages with/ });
      await expect(log.getByRole('article').first()).toBeVisible();

      // The reply is the attendant's own: "You", as every line of theirs (never their login).
      const words = `Tudo certo, ${viewport.width}.`;
      await page.getByRole('textbox', { name: /Reply to/ }).fill(words);
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      const sent = log.getByRole('article').filter({ hasText: words });
      await expect(sent.locator('.msg-who')).toHaveText('You');
      await expect(log.locator('.msg-who').filter({ hasText: /^(ana\.souza|Ana)$/ })).toHaveCount(0);

      // A customer of another session writes: a notice shows, and the newest message of the open
      // thread stays in view, not under it.
      await page.getByRole('searchbox', { name: 'Filter sessions' }).fill('');
      await api.post('/chatapi/1.0/api/v2/messages/save', {
        session: { id: other!.id },
        message: 'Oi, alguém pode me ajudar?',
        fromUser: true,
      });
      const notice = page.locator('.toast').filter({ hasText: 'Oi, alguém pode me ajudar?' });
      await expect(notice).toBeVisible();
      await expect(sent).toBeInViewport({ ratio: 1 });
      const [sentBox, noticeBox, logBox] = await Promise.all([sent.boundingBox(), notice.boundingBox(), log.boundingBox()]);
      expect(intersects(sentBox!, noticeBox!), 'the notice covers the newest message').toBe(false);
      expect(sentBox!.y + sentBox!.height).toBeLessThanOrEqual(logBox!.y + logBox!.height + 0.5);

      await shot(page, `attendance-thread-${viewport.width}x${viewport.height}`);
      // Nothing cut: the protocol in the thread's header, every side-panel tab, every queue tab.
      await expect.poll(() => wholeInWindow(page.locator('.thread header .muted').first())).toBe(true);
      const sideTabs = await page.getByRole('complementary', { name: 'Session details' }).getByRole('tab').all();
      expect(sideTabs.length).toBeGreaterThanOrEqual(8);
      for (const tab of sideTabs) expect(await wholeInWindow(tab), await tab.innerText()).toBe(true);
      for (const tab of await page.getByRole('tablist', { name: 'Sessions' }).getByRole('tab').all())
        expect(await wholeInWindow(tab), await tab.innerText()).toBe(true);
      // The queue's names: at least 12 characters each (the protocol gives way first).
      for (const name of await page.getByRole('list', { name: 'Mine' }).locator('.name').all()) {
        if (await name.isVisible()) expect(await showsAtLeast(name, 12), await name.innerText()).toBe(true);
      }
    } finally {
      await host.close();
    }
  });
}
