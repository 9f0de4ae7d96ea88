import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { openDemo, ownOpenSessions, repliesOn, selectSession } from '../../support/web';

/**
 * A warning goes with its cause, not before: a reply held while the service could not be
 * reached still says "Not sent" after the attendant looked at another session and came back,
 * and is asked about once the service is back; it goes only when the attendant sends it.
 */
test.use({ viewport: { width: 1280, height: 800 } });

test('a reply held offline keeps its "Not sent" warning across a visit to another session, until it is sent', async ({ page }) => {
  test.setTimeout(120_000);
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const [a, b] = await ownOpenSessions(sb, 2);
    const box = page.getByRole('textbox', { name: /^Reply to / });
    const log = page.getByRole('log', { name: /Messages with/ });
    // Both read once while the service answers: their copies are what the console shows offline.
    for (const s of [b!, a!]) {
      await selectSession(page, s);
      await expect(log.getByRole('article').first()).toBeVisible();
    }

    await sb.faults.set([{ match: { path: '/chatapi/' }, kind: 'reset' }]);
    await selectSession(page, b!);
    const offline = page.getByRole('status', { name: /^Offline since/ });
    await expect(offline).toBeVisible();
    await selectSession(page, a!);
    const reply = 'Já verifiquei: o reembolso cai em até 2 dias úteis.';
    await box.fill(reply);
    await box.press('Enter');
    const notSent = page.getByRole('status').filter({ hasText: 'Not sent: the service cannot be reached' });
    await expect(notSent).toBeVisible();

    // Another session, then back: the reply was never sent, and the warning says so still.
    await selectSession(page, b!);
    await expect(notSent).toHaveCount(0);
    await selectSession(page, a!);
    await expect(box).toHaveValue(reply);
    await expect(notSent).toBeVisible();
    const sessionId = Number(a!.id);

    // The service is back: asked, not sent on its own; sent when the attendant says so.
    await sb.faults.clear();
    await expect(offline).toBeHidden();
    const ask = page.getByRole('alertdialog', { name: /^The service is back\. Send the reply you wrote at/ });
    await expect(ask).toBeVisible();
    expect(await repliesOn(sb, sessionId)).not.toContain(reply);
    await ask.getByRole('button', { name: 'Send now' }).click();
    await expect.poll(() => repliesOn(sb, sessionId)).toContain(reply);
    await expect(ask).toHaveCount(0);
  } finally {
    await host.close();
  }
});
