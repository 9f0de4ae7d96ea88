import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { openDemo, ownOpenSessions, selectSession, serviceApi } from '../../support/web';

test.use({ viewport: { width: 1366, height: 768 } });

declare global {
  interface Window {
    shownNotifications: Array<{ title: string; body: string }>;
    windowUnfocused: boolean;
  }
}

test('a customer message while the window is not focused becomes one desktop notification naming the customer', async ({ page }) => {
  // The page's Notification is a recorder with permission granted; the window's focus is
  // whatever the test says, since a headless browser has no other window to lose it to.
  await page.addInitScript(() => {
    window.shownNotifications = [];
    window.windowUnfocused = false;
    class RecordedNotification {
      static permission: NotificationPermission = 'granted';
      static requestPermission = async (): Promise<NotificationPermission> => 'granted';
      onclick: (() => void) | null = null;
      constructor(title: string, options?: NotificationOptions) {
        window.shownNotifications.push({ title, body: options?.body ?? '' });
      }
    }
    Object.defineProperty(window, 'Notification', { value: RecordedNotification, configurable: true, writable: true });
    const hasFocus = document.hasFocus.bind(document);
    document.hasFocus = () => !window.windowUnfocused && hasFocus();
  });
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    await expect(page.getByRole('status', { name: 'Live' })).toBeVisible();
    const s = (await ownOpenSessions(sb))[0]!;
    const customer = await selectSession(page, s);
    const log = page.getByRole('log', { name: /Messages with/ });
    await expect(log).toBeVisible();
    const say = (text: string) => serviceApi(sb.baseUrl, sb.tokens.admin).post('/chatapi/1.0/api/v2/messages/save', { session: { id: s.id }, message: text, fromUser: true });

    // Focused: the message shows in the thread and no notification is raised.
    await say('Vocês abrem no feriado?');
    await expect(log).toContainText('Vocês abrem no feriado?');
    expect(await page.evaluate(() => window.shownNotifications.length)).toBe(0);

    await page.evaluate(() => {
      window.windowUnfocused = true;
      window.dispatchEvent(new Event('blur'));
    });
    await say('Preciso da nota fiscal do pedido, por favor.');
    await expect.poll(() => page.evaluate(() => window.shownNotifications)).toEqual([
      { title: `Message from ${customer}`, body: 'Preciso da nota fiscal do pedido, por favor.' },
    ]);
    // The window's title counts what waits for the attendant.
    await expect(page).toHaveTitle(/^\(1\) /);
  } finally {
    await host.close();
  }
});
