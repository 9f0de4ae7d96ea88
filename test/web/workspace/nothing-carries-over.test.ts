import { test, expect, type Page } from '@playwright/test';
import { startStandin } from '../../../src-standin/index';
import { freshProfile, launchHost } from '../../support/host';
import { connectToService, openDemo, railButton, workspaceButton } from '../../support/web';

/**
 * What one workspace (or one person in the demo workspace) did never shows in another: each has
 * its own state, made when it opens and thrown away when it closes.
 */

test.use({ viewport: { width: 1366, height: 768 } });

const FAQ = 'P: Vocês entregam em Campinas?\nR: Sim, em até 3 dias úteis.\n\nP: Posso retirar na loja?\nR: Pode, no dia seguinte.';

const knowledgeBases = async (page: Page) => {
  await railButton(page, 'Supervisor').click();
  await page.getByRole('tab', { name: 'Knowledge bases' }).click();
  return page.getByRole('region', { name: 'Upload a file' });
};

test('a knowledge base uploaded in one workspace is listed there only, and is still there when the attendant comes back', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const [a, b] = await Promise.all([startStandin({ port: 0, sessions: 20, seed: 3 }), startStandin({ port: 0, sessions: 20, seed: 5 })]);
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    await connectToService(page, { baseUrl: a.baseUrl, token: a.tokens.admin });
    await expect(page.getByRole('tablist', { name: 'Sessions' })).toBeVisible();

    // A's administrator uploads a base from a file on this computer.
    let upload = await knowledgeBases(page);
    await upload.getByRole('radio', { name: 'On this computer' }).check();
    await upload
      .getByLabel('File', { exact: true })
      .setInputFiles({ name: 'Entregas.txt', mimeType: 'text/plain', buffer: Buffer.from(FAQ) });
    const name = await upload.getByLabel('Knowledge base name').inputValue();
    expect(name).toMatch(/_entregas_data_pt$/);
    await upload.getByRole('button', { name: 'Upload and index' }).click();
    await expect(upload.getByRole('listitem').filter({ hasText: name })).toBeVisible();

    // Another workspace: its knowledge bases are its own.
    await page.getByRole('button', { name: 'Add a workspace' }).click();
    await connectToService(page, { baseUrl: b.baseUrl, token: b.tokens.admin });
    await expect(page.locator('.workspace-badge')).toContainText(b.baseUrl);
    upload = await knowledgeBases(page);
    await expect(upload.getByText('No uploads yet.')).toBeVisible();
    await expect(upload.getByRole('listitem').filter({ hasText: name })).toHaveCount(0);
    await expect(upload.getByLabel('Knowledge base name')).toHaveValue('');

    // Back in A, its base is still listed.
    await workspaceButton(page, new URL(a.baseUrl).host).click();
    await expect(page.locator('.workspace-badge')).toContainText(a.baseUrl);
    upload = await knowledgeBases(page);
    await expect(upload.getByRole('listitem').filter({ hasText: name })).toBeVisible();
  } finally {
    await host.close();
    await Promise.all([a.close(), b.close()]);
  }
});

test("seeing the demo as its supervisor keeps nothing of the attendant's voice: no session, no microphone error, no audio", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const host = await launchHost(freshProfile());
  try {
    await openDemo(page, host);
    await railButton(page, 'Voice').click();
    await page.getByRole('list', { name: 'My sessions' }).getByRole('button').first().click();
    const panel = page.getByRole('region', { name: /^Voice for / });
    await expect(panel).toBeVisible();
    // The attendant turns voice on and records: this browser has no microphone to give.
    const toggle = panel.getByRole('switch', { name: 'Voice' });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await panel.getByRole('button', { name: 'Record' }).click();
    await expect(panel.getByRole('alert')).toContainText(/microphone/i);
    // And has a text read aloud.
    const read = page.getByRole('region', { name: 'Text to read aloud' });
    await read.getByRole('textbox', { name: 'Text to read aloud' }).fill('Bom dia, em que posso ajudar?');
    await read.getByRole('button', { name: 'Read aloud' }).click();
    await expect(read.getByLabel('Speech audio')).toBeVisible();

    // The supervisor now: the voice view starts empty.
    await page.getByRole('combobox', { name: 'See the demo workspace as' }).selectOption({ label: 'The supervisor' });
    await expect(page.getByLabel('Signed in as')).toHaveText(host.app.standin!.demoSupervisor.name);
    await railButton(page, 'Voice').click();
    await expect(page.getByText('Pick a session to record a voice note, review its calls, or read text aloud.')).toBeVisible();
    await expect(page.getByRole('region', { name: /^Voice for / })).toHaveCount(0);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.getByLabel('Speech audio')).toHaveCount(0);
  } finally {
    await host.close();
  }
});
