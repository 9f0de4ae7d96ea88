import { test, expect } from '@playwright/test';
import { connectToService, serviceApi } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import { startStandin } from '../../../src-standin/index';
import { exploreOne, recordField } from '../../support/explorer';

test("an administrator's explorer shows users' access keys as hidden, in both languages; a save keeps a hidden key, and a key typed in replaces it", async ({
  page,
}) => {
  const sb = await startStandin({ port: 0 });
  const host = await launchHost(freshProfile());
  const admin = serviceApi(sb.baseUrl, sb.tokens.admin);
  const bruno = async () => (await admin.list('/users', [{ key: 'userName', operator: 'EQ', value: 'bruno.lima' }]))[0]!;
  try {
    const key = (await bruno()).accessKey as string;
    expect(key).toMatch(/^sbx_bruno/);
    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.admin });
    const results = await exploreOne(page, 'Users', 'userName', 'bruno.lima');
    const row = results.locator('tbody tr').first();
    // A column for the key, when the table shows one, says hidden (the columns follow the service's field order).
    const header = await results.locator('thead th').allTextContents();
    const column = header.findIndex((h) => h.startsWith('Access key'));
    if (column >= 0) await expect(row.locator('td').nth(column)).toHaveText('hidden');
    await row.locator('td').first().getByRole('button').click();
    const record = page.getByRole('region', { name: 'Record', exact: true });
    await expect(recordField(page, 'Access key')).toHaveText('hidden');
    // No key of anyone is anywhere in the page.
    for (const secret of [key, sb.tokens.admin]) expect(await page.content()).not.toContain(secret);

    // Edit: the key shows as hidden, and saving another field leaves it as the service has it.
    await page.getByRole('button', { name: 'Edit this record' }).click();
    const form = page.getByRole('group', { name: 'Record to save' });
    const keyInput = form.getByLabel('Access key');
    await expect(keyInput).toHaveAttribute('type', 'password');
    await expect(keyInput).toHaveValue('');
    await expect(keyInput).toHaveAttribute('placeholder', 'hidden');
    await form.getByLabel('Display name').fill('Bruno L.');
    await page.getByRole('button', { name: 'Save record' }).click();
    await expect(page.getByRole('status').filter({ hasText: /^Saved Users #\d+\.$/ })).toBeVisible();
    await expect.poll(async () => (await bruno()).displayName).toBe('Bruno L.');
    expect((await bruno()).accessKey).toBe(key);

    // A key typed in replaces it; emptying the field again would have kept it.
    await page.getByRole('button', { name: 'Edit this record' }).click();
    await form.getByLabel('Access key').fill('sbx_bruno_replaced_1234567890');
    await page.getByRole('button', { name: 'Save record' }).click();
    await expect.poll(async () => (await bruno()).accessKey).toBe('sbx_bruno_replaced_1234567890');
    await expect(record.locator('dl')).not.toContainText('sbx_bruno_replaced');

    // In Portuguese the key reads "oculto".
    await page.getByRole('combobox', { name: 'Language' }).selectOption('pt-BR');
    await expect(recordField(page, 'Chave de acesso', 'Registro')).toHaveText('oculto');
  } finally {
    await host.close();
    await sb.close();
  }
});
