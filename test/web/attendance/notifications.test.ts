import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { openDemo, ownOpenSessions, railButton, selectSession, serviceApi } from '../../support/web';

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
    const say = (text: string) =>
      serviceApi(sb.baseUrl, sb.tokens.admin).post('/chatapi/1.0/api/v2/messages/save', {
        session: { id: s.id },
        message: text,
        fromUser: true,
      });

    // Focused: the message shows in the thread and no notification is raised.
    await say('Vocês abrem no feriado?');
    await expect(log).toContainText('Vocês abrem no feriado?');
    expect(await page.evaluate(() => window.shownNotifications.length)).toBe(0);

    await page.evaluate(() => {
      window.windowUnfocused = true;
      window.dispatchEvent(new Event('blur'));
    });
    await say('Preciso da nota fiscal do pedido, por favor.');
    await expect
      .poll(() => page.evaluate(() => window.shownNotifications))
      .toEqual([{ title: `Message from ${customer}`, body: 'Preciso da nota fiscal do pedido, por favor.' }]);
    // The window's title counts what waits for the attendant.
    await expect(page).toHaveTitle(/^\(1\) /);

    // A customer arrives while the window is still not focused: one notification for that
    // session, the badge told once per change, and the page keeps answering.
    const badgeCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/bridge/attendance%3Abadge')) badgeCalls.push(r.postData() ?? '');
    });
    await sb.simulator.step();
    await expect.poll(() => page.evaluate(() => window.shownNotifications.filter((n) => n.title === 'New session waiting').length)).toBe(1);
    // Nothing raises it again meanwhile (a notice that raised notices kept the page busy for good):
    // a later notice, raised after anything the first one could have set off, shows it did not.
    await say('Consegue ver meu pedido?');
    await expect
      .poll(() => page.evaluate(() => window.shownNotifications.filter((n) => n.body === 'Consegue ver meu pedido?').length))
      .toBe(1);
    expect(await page.evaluate(() => window.shownNotifications.filter((n) => n.title === 'New session waiting').length)).toBe(1);
    expect(badgeCalls.length).toBeLessThanOrEqual(10);
  } finally {
    await host.close();
  }
});

test('the sound for a customer message is off until the attendant turns it on in the settings, and then plays for another session only', async ({
  page,
}) => {
  // Every tone the page starts is counted: what the speakers would play.
  await page.addInitScript(() => {
    const w = window as unknown as { tones: number };
    w.tones = 0;
    // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be applied to each node below
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (this: OscillatorNode, ...args: [number?]) {
      w.tones++;
      return start.apply(this, args);
    };
  });
  const tones = () => page.evaluate(() => (window as unknown as { tones: number }).tones);
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    await expect(page.getByRole('status', { name: 'Live' })).toBeVisible();
    const [open, other] = await ownOpenSessions(sb, 2);
    await selectSession(page, open!);
    const say = (id: unknown, text: string) =>
      serviceApi(sb.baseUrl, sb.tokens.admin).post('/chatapi/1.0/api/v2/messages/save', { session: { id }, message: text, fromUser: true });
    const toast = page.locator('.toast');

    await say(other!.id, 'Primeira mensagem, sem som.');
    await expect(toast.filter({ hasText: 'Primeira mensagem, sem som.' })).toBeVisible();
    expect(await tones()).toBe(0);

    await railButton(page, 'Settings').click();
    const sound = page.getByRole('checkbox', { name: /Play a sound when a customer writes/ });
    await expect(sound).not.toBeChecked();
    await sound.check();
    // Turning it on lets the attendant hear it once.
    await expect.poll(tones).toBeGreaterThan(0);
    const afterPreview = await tones();
    await railButton(page, 'Sessions').click();

    await say(other!.id, 'Segunda mensagem, com som.');
    await expect(toast.filter({ hasText: 'Segunda mensagem, com som.' })).toBeVisible();
    await expect.poll(tones).toBeGreaterThan(afterPreview);
    const afterOther = await tones();

    // In the thread the attendant is reading: the message shows, no sound.
    await say(open!.id, 'Mensagem na conversa aberta.');
    await expect(page.getByRole('log', { name: /Messages with/ })).toContainText('Mensagem na conversa aberta.');
    expect(await tones()).toBe(afterOther);

    // The choice is kept: after a reload the box is still ticked.
    await page.reload();
    await railButton(page, 'Settings').click();
    await expect(page.getByRole('checkbox', { name: /Play a sound when a customer writes/ })).toBeChecked();
  } finally {
    await host.close();
  }
});
