import { test, expect, type Locator, type Page } from '@playwright/test';
import { connectToService, serviceApi, shot, type Rec } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import { startStandin } from '../../../src-standin/index';
import { instantIn } from '../../support/records';
import { axeViolations } from '../../support/axe';
import { exploreOne, recordField } from '../../support/explorer';

/**
 * The explorer as a supervisor reads it: columns and fields by their words, instants in local
 * time in the interface language's format, codes translated, a staff member's CPF masked until
 * clicked (the advanced JSON too), an access key shown as hidden; in both readings of the service.
 */

test.use({ viewport: { width: 1440, height: 900 } });

/** How the page itself writes an instant in a language (its own time zone and format). */
const localWords = (page: Page, iso: string, locale: string) =>
  page.evaluate(([i, l]) => new Intl.DateTimeFormat(l, { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(i)), [
    iso,
    locale,
  ] as const);

/** A column's cells in the results, found by its header. */
async function columnCell(results: Locator, header: string): Promise<Locator> {
  // Read again until the column shows (the table may be drawn anew as an answer lands).
  let headers: string[] = [];
  const at = async () => {
    headers = await results.locator('thead th').allTextContents();
    return headers.findIndex((h) => h.replace(/[▲▼]/g, '').trim() === header);
  };
  await expect.poll(at, { message: `a column named "${header}" among ${headers.join(' | ')}` }).toBeGreaterThanOrEqual(0);
  return results
    .locator('tbody tr')
    .first()
    .locator('td')
    .nth(await at());
}

for (const reading of ['default', 'variant'] as const) {
  test(`explorer rows for people (${reading} reading): field words, local dates, translated codes, a CPF masked until clicked, a key hidden`, async ({
    page,
  }) => {
    const sb = await startStandin({ port: 0, reading });
    const host = await launchHost(freshProfile());
    try {
      const who = sb.demoAgent.userName;
      const [raw] = await serviceApi(sb.baseUrl, sb.tokens.admin).list('/users', [{ key: 'userName', operator: 'EQ', value: who }]);
      const person = raw as Rec;
      const cpf = String(person.cpf);
      expect(cpf).toMatch(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/);
      const lastLogin = instantIn(person.lastLogin)!;
      const createdAt = instantIn(person.createdAt)!;
      expect([lastLogin, createdAt]).not.toContain(null);

      await page.goto(host.url);
      await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.admin });
      const results = await exploreOne(page, 'Users', 'User name', who);
      await expect(results.locator('tbody tr')).toHaveCount(1);

      // Columns by their words, never the service's keys.
      // Read again until the table shows them (it may be drawn anew as the answer lands).
      const headerWords = async () => (await results.locator('thead th').allTextContents()).map((h) => h.replace(/[▲▼]/g, '').trim());
      await expect.poll(headerWords).toEqual(expect.arrayContaining(['ID', 'Name', 'User name', 'CPF', 'Created at']));
      const headers = await headerWords();
      expect(headers.filter((h) => /^[a-z]+[A-Z]/.test(h))).toEqual([]);

      // An instant in local time (the access key shows as hidden in the record view, below).
      await expect(await columnCell(results, 'Created at')).toHaveText(await localWords(page, createdAt, 'en'));

      // The CPF: masked, nowhere in the page, until the supervisor clicks it.
      const doc = (await columnCell(results, 'CPF')).getByRole('button');
      const masked = `***.***.${cpf.slice(8)}`;
      await expect(doc).toHaveText(masked);
      await expect(doc).toHaveAttribute('aria-pressed', 'false');
      expect(await page.content()).not.toContain(cpf);
      await shot(page, `explorer-people-${reading}`);
      await doc.click();
      await expect(doc).toHaveText(cpf);
      await expect(doc).toHaveAttribute('aria-pressed', 'true');
      await doc.click();
      await expect(doc).toHaveText(masked);

      // The record view: the same words, the CPF masked there too.
      await results.locator('tbody tr').first().locator('td').first().getByRole('button').click();
      const field = (label: string) => recordField(page, label);
      await expect(field('User type')).toHaveText('Attendant');
      await expect(field('Access key')).toHaveText('hidden');
      await expect(field('Last sign-in')).toHaveText(await localWords(page, lastLogin, 'en'));
      await expect(field('CPF')).toHaveText(masked);
      await expect(field('Active')).toHaveText('Yes');
      expect(await page.content()).not.toContain(cpf);
      expect(await axeViolations(page, `explorer people, ${reading}`)).toEqual([]);

      // The advanced JSON shows the CPF masked; left as it is, the record keeps its CPF.
      await page.getByRole('button', { name: 'Edit this record' }).click();
      const advanced = page.getByRole('button', { name: 'Advanced (JSON)' });
      await advanced.click();
      const json = page.getByLabel('Record to save (JSON)');
      await expect(json).toHaveValue(new RegExp(`"cpf": "\\*\\*\\*\\.\\*\\*\\*\\.${cpf.slice(8).replace(/[.-]/g, '\\$&')}"`));
      expect(await json.inputValue()).not.toContain(cpf);
      await advanced.click();
      // The form masks it too, until the supervisor shows it to edit it.
      const form = page.getByRole('group', { name: 'Record to save' });
      await expect(form.getByLabel('CPF')).toHaveValue(masked);
      expect(await page.content()).not.toContain(cpf);
      await form.getByRole('button', { name: 'Show CPF' }).click();
      await expect(form.getByLabel('CPF')).toHaveValue(cpf);

      // In Portuguese: the words, the date's format and the code follow.
      await page.getByRole('combobox', { name: 'Language' }).selectOption('pt-BR');
      const resultados = page.getByRole('table', { name: 'Resultados' });
      await expect(await columnCell(resultados, 'Criado em')).toHaveText(await localWords(page, createdAt, 'pt-BR'));
      const campo = (label: string) => recordField(page, label, 'Registro');
      await expect(campo('Chave de acesso')).toHaveText('oculto');
      await expect(campo('Tipo de usuário')).toHaveText('Atendente');
      await expect(campo('Último acesso em')).toHaveText(await localWords(page, lastLogin, 'pt-BR'));
      await expect(campo('Ativo')).toHaveText('Sim');

      // A session's status in words.
      await page.getByRole('combobox', { name: 'Recurso' }).selectOption({ label: 'Sessões' });
      const condicoes = page.getByRole('region', { name: 'Condições' });
      await condicoes.getByLabel('Campo').fill('status');
      await condicoes.getByLabel('Valor').fill('CLOSED');
      await condicoes.getByRole('button', { name: 'Pesquisar' }).click();
      // The sessions' columns replace the users' once the page has them.
      await expect(resultados.locator('thead th', { hasText: 'Protocolo' })).toBeVisible();
      await expect(await columnCell(resultados, 'Situação')).toHaveText('Encerrado');
      await shot(page, `explorer-people-sessions-pt-${reading}`);
    } finally {
      await host.close();
      await sb.close();
    }
  });
}
