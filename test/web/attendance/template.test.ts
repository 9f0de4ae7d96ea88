import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { openDemo, ownOpenSessions, repliesOn, selectSession } from '../../support/web';

test.use({ viewport: { width: 1366, height: 768 } });

test('an attendant sends a message template with its values filled in; the service holds the filled text', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const s = (await ownOpenSessions(sb))[0]!;
    await selectSession(page, s);
    await expect(page.getByRole('log', { name: /Messages with/ })).toBeVisible();

    await page.getByRole('button', { name: 'Template', exact: true }).click();
    const form = page.getByRole('form', { name: 'Send a template' });
    await form.getByRole('combobox', { name: 'Template' }).selectOption({ label: 'Código de rastreio' });
    const send = form.getByRole('button', { name: 'Send template' });
    await form.getByRole('textbox', { name: 'Value 1' }).fill('Marina');
    await form.getByRole('textbox', { name: 'Value 2' }).fill('PED-90817');
    // Every value is needed before it can go.
    await expect(send).toBeDisabled();
    await form.getByRole('textbox', { name: 'Value 3' }).fill('BR123456789SP');
    const filled = 'Olá Marina, o código de rastreio do pedido PED-90817 é BR123456789SP.';
    await expect(form.getByLabel('Preview')).toHaveText(filled);
    await send.click();

    await expect(
      page
        .getByRole('log', { name: /Messages with/ })
        .getByRole('article')
        .filter({ hasText: filled }),
    ).toContainText('Sent');
    await expect.poll(async () => (await repliesOn(sb, s.id as number)).at(-1)).toBe(filled);
  } finally {
    await host.close();
  }
});
