import { test, expect, type Page } from '@playwright/test';
import { connectToService, serviceApi } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import type { Host } from '../../../src-main/host/start-host';
import { startStandin, type Standin } from '../../../src-standin/index';
import { exploreOne, recordField } from '../../support/explorer';
import { RESOURCES, V2 } from '../../../src-shared/paths';

/** Each test: a stand-in, a console, and bruno.lima's user record as the service has it. */
let sb: Standin;
let host: Host;
let admin: ReturnType<typeof serviceApi>;
const bruno = async () => (await admin.list('/users', [{ key: 'userName', operator: 'EQ', value: 'bruno.lima' }]))[0]!;
/** Saves the open record with another display name through its form; resolves once the service has it. */
async function saveDisplayName(page: Page, name: string): Promise<void> {
  await page.getByRole('group', { name: 'Record to save' }).getByLabel('Display name').fill(name);
  await page.getByRole('button', { name: 'Save record' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Saved Users #\d+\.$/ })).toBeVisible();
  await expect.poll(async () => (await bruno()).displayName).toBe(name);
}

test.beforeEach(async () => {
  sb = await startStandin({ port: 0 });
  host = await launchHost(freshProfile());
  admin = serviceApi(sb.baseUrl, sb.tokens.admin);
});
test.afterEach(async () => {
  await host.close();
  await sb.close();
});

test("an administrator's explorer shows users' access keys as hidden, in both languages; a save keeps a hidden key, and a key typed in replaces it", async ({
  page,
}) => {
  const key = (await bruno()).accessKey as string;
  expect(key).toMatch(/^sbx_bruno/);
  await page.goto(host.url);
  await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.admin });
  const results = await exploreOne(page, 'Users', 'userName', 'bruno.lima');
  const row = results.locator('tbody tr').first();
  // A column for the key, when the table shows one, says hidden (the columns follow the service's field order).
  await expect(results.locator('thead th').first()).not.toBeEmpty();
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
  await saveDisplayName(page, 'Bruno L.');
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
});

test('a CPF a record holds stays masked in the edit form until the supervisor shows it; saving another field keeps it as the service has it', async ({
  page,
}) => {
  const cpf = '529.982.247-25';
  await admin.post(V2 + RESOURCES.user.save, { ...(await bruno()), cpf });
  expect((await bruno()).cpf).toBe(cpf);
  await page.goto(host.url);
  await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.admin });
  const results = await exploreOne(page, 'Users', 'userName', 'bruno.lima');
  await results.locator('tbody tr').first().locator('td').first().getByRole('button').click();
  await page.getByRole('button', { name: 'Edit this record' }).click();
  const form = page.getByRole('group', { name: 'Record to save' });
  const field = form.getByLabel('CPF', { exact: true });
  // Masked as the table masks it, and not editable; the whole number is nowhere in the page.
  await expect(field).toHaveValue('***.***.247-25');
  await expect(field).not.toBeEditable();
  expect(await page.content()).not.toContain(cpf);

  // Another field saved: the CPF goes back to the service as it was.
  await saveDisplayName(page, 'Bruno L.');
  expect((await bruno()).cpf).toBe(cpf);

  // Shown on request, then edited like any text.
  await page.getByRole('button', { name: 'Edit this record' }).click();
  await form.getByRole('button', { name: 'Show CPF' }).click();
  await expect(field).toHaveValue(cpf);
  await field.fill('111.444.777-35');
  await page.getByRole('button', { name: 'Save record' }).click();
  await expect.poll(async () => (await bruno()).cpf).toBe('111.444.777-35');
});
