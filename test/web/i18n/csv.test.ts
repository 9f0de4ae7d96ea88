import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { openDemo } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';

/**
 * Reads a CSV as a spreadsheet in `locale` does: the list separator that goes with the locale's
 * decimal mark (";" where it is ","), numbers in that locale's notation. Returns header -> cell.
 */
function readLocaleCsv(text: string, locale: string): Array<Record<string, string | number>> {
  expect(text.charCodeAt(0), 'a UTF-8 byte-order mark first').toBe(0xfeff);
  const decimal = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')!.value;
  const sep = decimal === ',' ? ';' : ',';
  const number = new RegExp(`^-?\\d+(\\${decimal}\\d+)?$`);
  const [head, ...lines] = text.slice(1).split('\r\n').filter(Boolean);
  const header = head!.split(sep);
  return lines.map((line) => {
    const cells = line.split(sep);
    expect(cells, `${line}: as many cells as the header`).toHaveLength(header.length);
    return Object.fromEntries(
      header.map((h, i) => {
        const c = cells[i]!;
        return [h, number.test(c) ? Number(c.replace(decimal, '.')) : c];
      }),
    );
  });
}

test('an NPS export in pt-BR reads right in a pt-BR spreadsheet: semicolons, decimal commas, a byte-order mark', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    await openDemo(page, host, { as: 'supervisor' });
    await page.getByRole('combobox', { name: 'Language' }).selectOption('pt-BR');
    await page.getByRole('button', { name: 'Supervisão' }).click();
    await page.getByRole('tab', { name: 'NPS' }).click();
    await page.getByLabel('Nome da pesquisa').fill('nps-atendimento');
    await page.getByRole('button', { name: 'Mostrar NPS' }).click();
    await expect(page.getByTestId('nps-total')).not.toBeEmpty();

    const res = await fetch(`${host.app.standin!.baseUrl}/chatapi/1.0/api/v2/user-session/survey/nps-summary/nps-atendimento`, {
      method: 'POST',
      headers: { authorization: `Bearer ${host.app.standin!.tokens.agent}`, 'content-type': 'application/json' },
      body: JSON.stringify({ conditions: [], sort: false }),
    });
    const summary = (await res.json()) as { averageNps: number; positive: number; neutral: number; negative: number; totalCount: number };
    // Not a whole number, so the decimal mark matters.
    expect(Number.isInteger(summary.averageNps)).toBe(false);
    // On screen, in pt-BR notation too.
    await expect(page.getByTestId('nps-average')).toHaveText(
      summary.averageNps.toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
    );

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar CSV' }).click()]);
    const text = readFileSync(await download.path(), 'utf8');
    expect(text).toContain(';');
    const [row] = readLocaleCsv(text, 'pt-BR');
    // Headers in Portuguese; figures rounded as the screen shows them.
    expect(row).toMatchObject({
      'Nota média': Math.round(summary.averageNps * 100) / 100,
      'Positivas (9–10)': summary.positive,
      'Neutras (7–8)': summary.neutral,
      'Negativas (0–6)': summary.negative,
      Respostas: summary.totalCount,
    });
    expect(row!['Índice NPS']).toBe(Math.round(((summary.positive - summary.negative) / summary.totalCount) * 1000) / 10);
  } finally {
    await host.close();
  }
});
