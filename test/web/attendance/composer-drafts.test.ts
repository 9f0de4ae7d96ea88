import { expect, test } from '@playwright/test';
import { launchHost, freshProfile } from '../../support/host';
import { openDemo, ownOpenSessions, selectSession } from '../../support/web';

test('an AI draft over typed text asks first; replacing is one edit: Ctrl+Z gives back exactly the text typed before', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const session = (await ownOpenSessions(sb, 1))[0]!;
    await selectSession(page, session);
    const box = page.getByRole('textbox', { name: /Reply to/ });
    await box.fill('Olá, um momento por favor');
    const help = page.getByRole('region', { name: 'Composer help' });
    await help.getByRole('tab', { name: 'AI draft' }).click();
    await help.getByRole('button', { name: 'Write a draft' }).click();
    const ask = page.getByRole('group', { name: 'Your reply already has text. Where should the AI draft go?' });
    await ask.getByRole('button', { name: 'Replace my text' }).click();
    await expect(box).not.toHaveValue('Olá, um momento por favor');
    const draft = await box.inputValue();
    expect(draft).not.toContain('Olá, um momento por favor');
    expect(draft.trim()).not.toBe('');
    await expect(box).toBeFocused();
    await page.keyboard.press('Control+z');
    await expect(box).toHaveValue('Olá, um momento por favor');
    // Native redo and undo keep working on the same box.
    await page.keyboard.press('Control+Shift+z');
    await expect(box).toHaveValue(draft);
  } finally {
    await host.close();
  }
});

test("leaving a session with a reply typed and not sent says it is kept as that session's draft, and coming back shows it", async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const [first, second] = await ownOpenSessions(sb, 2);
    const firstName = await selectSession(page, first!);
    const box = page.getByRole('textbox', { name: /Reply to/ });
    await box.fill('Já te respondo');
    await selectSession(page, second!);
    await expect(page.getByRole('status').filter({ hasText: `Your reply to ${firstName} was not sent` })).toBeVisible();
    await expect(box).toHaveValue('');
    await selectSession(page, first!);
    await expect(box).toHaveValue('Já te respondo');
  } finally {
    await host.close();
  }
});
