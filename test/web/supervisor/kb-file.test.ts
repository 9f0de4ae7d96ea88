import { test, expect, type Page } from '@playwright/test';
import { connectToService, shot } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import { startStandin } from '../../../src-standin/index';

const RETURNS =
  'R: Você tem 7 dias corridos após o recebimento para devolver um produto comprado pelo site, sem custo, pela agência dos Correios mais próxima.';
const FAQ = [
  'P: Qual o prazo para trocar um produto?\nR: Trocas de produtos com defeito são aceitas em até 30 dias com a nota fiscal, em qualquer loja física.',
  `P: Posso devolver uma compra feita pelo site?\n${RETURNS}`,
  'P: Vocês parcelam no cartão?\nR: Parcelamos em até 10 vezes sem juros nos cartões das principais bandeiras, com parcela mínima de R$ 50,00.',
].join('\n\n');

async function connect(page: Page, baseUrl: string, token: string) {
  await connectToService(page, { baseUrl, token });
  await page.getByRole('button', { name: 'Supervisor' }).click();
  await page.getByRole('tab', { name: 'Knowledge bases' }).click();
}

/** The stand-in's view of an index (its own inspection path). */
async function indexState(baseUrl: string, token: string, name: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl}/transformersapi/1.0/indexes/${name}`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

test('a knowledge base from a file on this computer: picked or dropped, named for the user, lent to the service once, indexed and answering', async ({
  page,
}) => {
  const sb = await startStandin({ port: 0 });
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    await connect(page, sb.baseUrl, sb.tokens.admin);
    const upload = page.getByRole('region', { name: 'Upload a file' });
    await upload.getByRole('radio', { name: 'On this computer' }).check();
    const send = upload.getByRole('button', { name: 'Upload and index' });

    // Nothing chosen, then a type the service does not take: each refused before sending.
    await send.click();
    await expect(upload.getByRole('alert')).toHaveText('Choose a file first, or drop one on the box.');
    const picker = upload.getByLabel('File', { exact: true });
    await picker.setInputFiles({ name: 'apresentação.key', mimeType: 'application/octet-stream', buffer: Buffer.from('not a document') });
    await expect(upload.getByRole('alert')).toHaveText(
      'apresentação.key cannot be indexed. Supported: .xls, .xlsx, .ods, .pdf, .csv, .txt, .tsv, .docx, .xml, .json.',
    );
    await expect(picker).toHaveAttribute('aria-invalid', 'true');

    // Dropped on the box: the file is taken and the base is named from it and the service.
    const drop = upload.getByRole('group', { name: 'File from this computer' });
    const transfer = await page.evaluateHandle((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'Trocas e Devoluções.txt', { type: 'text/plain' }));
      return dt;
    }, FAQ);
    await drop.dispatchEvent('dragover', { dataTransfer: transfer });
    await drop.dispatchEvent('drop', { dataTransfer: transfer });
    await expect(upload.getByText(/^Trocas e Devoluções\.txt, \d+ KB$/)).toBeVisible();
    await expect(upload.getByRole('alert')).toHaveCount(0);
    const NAME = 'localhost_trocas-e-devolucoes_data_pt';
    await expect(upload.getByLabel('Knowledge base name')).toHaveValue(NAME);
    await shot(page, 'supervisor-kb-file');

    await send.click();
    const base = upload.getByRole('listitem').filter({ hasText: NAME });
    await expect(base).toContainText('Trocas e Devoluções.txt');
    await expect(base.getByRole('status')).toHaveText(/^Answering since \d{2}:\d{2}/);
    // The service read the file's own bytes: its passages are the documents of the base.
    expect((await indexState(sb.baseUrl, sb.tokens.admin, NAME)).json).toMatchObject({ state: 'ready', documents: 3 });

    const ask = page.getByRole('region', { name: 'Ask a test question' });
    await ask.getByLabel('Question').fill('Posso devolver uma compra feita pelo site?');
    await ask.getByRole('button', { name: 'Ask' }).click();
    await expect(ask.getByRole('list', { name: 'Answers' }).getByRole('listitem').first()).toContainText(RETURNS);
  } finally {
    await host.close();
    await sb.close();
  }
});
