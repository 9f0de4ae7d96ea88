import { test, expect, type Page } from '@playwright/test';
import { connectToService, serviceApi } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import type { Host } from '../../../src-main/host/start-host';
import { startStandin, type Standin } from '../../../src-standin/index';
import { exploreOne, recordField } from '../../support/explorer';
import { RESOURCES, V2 } from '../../../src-shared/paths';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDirs } from '../../support/temp-dirs';

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
  // A user of few fields, so that the results table has a column for the key (it shows eight).
  const slim = 'sbx_slim_user_key_0123456789';
  await admin.post(V2 + RESOURCES.user.save, { name: 'Slim User', userName: 'slim.user', accessKey: slim });
  const slimResults = await exploreOne(page, 'Users', 'userName', 'slim.user');
  await expect(slimResults.locator('tbody tr')).toHaveCount(1);
  const header = (await slimResults.locator('thead th').allTextContents()).map((h) => h.replace(/[▲▼]/g, '').trim());
  expect(header).toContain('Access key');
  await expect(slimResults.locator('tbody tr').first().locator('td').nth(header.indexOf('Access key'))).toHaveText('hidden');
  expect(await page.content()).not.toContain(slim);

  const results = await exploreOne(page, 'Users', 'userName', 'bruno.lima');
  const row = results.locator('tbody tr').first();
  await expect(row).toContainText('bruno.lima');
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

const cpf = '529.982.247-25';
const bareCpf = '11144477735';
const cnpj = '11.222.333/0001-81';
/** A protocol number whose check digits fit a CNPJ's by chance: shown as it is. */
const protocol = '20261123000002';
/** Every way those documents could appear in clear. */
const CLEAR = [cpf, bareCpf, cnpj, '52998224725', '11222333000181'];
async function shownNowhere(page: Page): Promise<void> {
  const html = await page.content();
  for (const d of CLEAR) expect(html, `${d} shown in clear`).not.toContain(d);
}

test('the Edit form masks CPF and CNPJ in a known text and in every string and number of an object field, the JSON view too; a save without showing them sends the service the real values', async ({
  page,
}) => {
  const configuration = {
    color: '#2b6cb0',
    documento: `CNPJ ${cnpj}`,
    profile: { note: `cliente CPF ${cpf}`, tags: ['vip', { ref: bareCpf }] },
    cpfDigits: Number(bareCpf),
    protocolo: protocol,
  };
  const initialMessage = `Olá! Informe seu CPF, ex. ${cpf}.`;
  const [conf] = await admin.list(RESOURCES.chatWebConfiguration.list);
  await admin.post(V2 + RESOURCES.chatWebConfiguration.save, { id: conf!.id, configuration, initialMessage });
  const stored = async () =>
    (await admin.list(RESOURCES.chatWebConfiguration.list, [{ key: 'id', operator: 'EQNUM', value: String(conf!.id) }]))[0]!;
  expect(await stored()).toMatchObject({ configuration, initialMessage });

  await page.goto(host.url);
  await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.admin });
  const results = await exploreOne(page, 'Web chat configuration', 'id', String(conf!.id));
  await expect(results.locator('tbody tr')).toHaveCount(1);
  await results.locator('tbody tr').first().locator('td').first().getByRole('button').click();
  await page.getByRole('button', { name: 'Edit this record' }).click();
  const form = page.getByRole('group', { name: 'Record to save' });
  const confInput = form.getByLabel('Configuration', { exact: true });
  await expect(confInput).toHaveValue(
    JSON.stringify({
      color: '#2b6cb0',
      documento: 'CNPJ **.***.***/****-81',
      profile: { note: 'cliente CPF ***.***.247-25', tags: ['vip', { ref: '***.***.777-35' }] },
      cpfDigits: '***.***.777-35',
      protocolo: protocol,
    }),
  );
  await expect(confInput).not.toBeEditable();
  await expect(form.getByLabel('Welcome message', { exact: true })).toHaveValue('Olá! Informe seu CPF, ex. ***.***.247-25.');
  await shownNowhere(page);

  // The JSON view masks the same values; the protocol number is no CNPJ.
  await page.getByRole('button', { name: 'Advanced (JSON)' }).click();
  const json = page.getByLabel('Record to save (JSON)');
  await expect(json).toHaveValue(/"cpfDigits": "\*\*\*\.\*\*\*\.777-35"/);
  await expect(json).toHaveValue(new RegExp(`"protocolo": "${protocol}"`));
  await shownNowhere(page);
  await page.getByRole('button', { name: 'Advanced (JSON)' }).click();

  // Another field changed and saved without showing them: the service receives and keeps the real values, types and all.
  await form.getByLabel('Style sheet (CSS)', { exact: true }).fill('.x { color: red }');
  await page.getByRole('button', { name: 'Save record' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Saved .+ #\d+\.$/ })).toBeVisible();
  await expect.poll(async () => (await stored()).cssScript).toBe('.x { color: red }');
  expect(await stored()).toMatchObject({ configuration, initialMessage });
  expect(typeof ((await stored()).configuration as { cpfDigits: unknown }).cpfDigits).toBe('number');

  // Shown on request, the field reads as it is and can be edited.
  await page.getByRole('button', { name: 'Edit this record' }).click();
  await form.getByRole('button', { name: 'Show CNPJ' }).click();
  await expect(confInput).toBeEditable();
  await expect(confInput).toHaveValue(JSON.stringify(configuration));
});

const standinData = tempDirs('standin-explorer-');

test('fields the console does not know are masked in the Edit form: a text, an object with a CPF in a note, an 11-digit number', async ({
  page,
}) => {
  // Records the stand-in's saves refuse (unknown fields) are written into its data, as another server would hold them.
  await sb.close();
  const dataDir = await standinData();
  sb = await startStandin({ port: 0, dataDir });
  await sb.close();
  const file = join(dataDir, 'user.json');
  const doc = JSON.parse(await readFile(file, 'utf8')) as { records: Array<Record<string, unknown>> };
  const brunoRec = doc.records.find((r) => r.userName === 'bruno.lima')!;
  Object.assign(brunoRec, {
    documento: `CNPJ ${cnpj}`,
    profileNote: { note: `CPF ${cpf}` },
    cpfDigits: Number(bareCpf),
    protocolo: protocol,
  });
  await writeFile(file, JSON.stringify(doc));
  sb = await startStandin({ port: 0, dataDir });
  admin = serviceApi(sb.baseUrl, sb.tokens.admin);
  expect(await bruno()).toMatchObject({ cpfDigits: Number(bareCpf) });

  await page.goto(host.url);
  await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.admin });
  const results = await exploreOne(page, 'Users', 'userName', 'bruno.lima');
  await expect(results.locator('tbody tr')).toHaveCount(1);
  await results.locator('tbody tr').first().locator('td').first().getByRole('button').click();
  await page.getByRole('button', { name: 'Edit this record' }).click();
  const other = page.getByRole('group', { name: 'Fields the console does not know' });
  await expect(other.getByLabel('documento', { exact: true })).toHaveValue('CNPJ **.***.***/****-81');
  await expect(other.getByLabel('profileNote', { exact: true })).toHaveValue(JSON.stringify({ note: 'CPF ***.***.247-25' }));
  await expect(other.getByLabel('cpfDigits', { exact: true })).toHaveValue('***.***.777-35');
  for (const label of ['documento', 'profileNote', 'cpfDigits']) await expect(other.getByLabel(label, { exact: true })).not.toBeEditable();
  await expect(other.getByLabel('protocolo', { exact: true })).toHaveValue(protocol);
  await expect(other.getByLabel('protocolo', { exact: true })).toBeEditable();
  await shownNowhere(page);
  await page.getByRole('button', { name: 'Advanced (JSON)' }).click();
  await expect(page.getByLabel('Record to save (JSON)')).toHaveValue(/"cpfDigits": "\*\*\*\.\*\*\*\.777-35"/);
  await shownNowhere(page);
});
