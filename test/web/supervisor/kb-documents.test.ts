import { test, expect } from '@playwright/test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectToService } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import { startStandin } from '../../../src-standin/index';

// A link that carries a customer's CPF leaves the console only when the user says so.
test('a knowledge-base link carrying a CPF is held back until the user confirms sending it', async ({ page }) => {
  const sb = await startStandin({ port: 0 });
  const hits: string[] = [];
  const files = createServer((req, res) => {
    hits.push(decodeURIComponent(req.url ?? ''));
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('P: Qual o prazo de troca?\nR: Trocas em até 30 dias com a nota fiscal.');
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  const fileUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/clientes/529.982.247-25/faq.txt`;
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.admin });
    await page.getByRole('button', { name: 'Supervisor' }).click();
    await page.getByRole('tab', { name: 'Knowledge bases' }).click();

    await page.getByLabel('Public file address').fill(fileUrl);
    await page.getByLabel('Knowledge base name').fill('loja.com.br_trocas_data_pt');
    await page.getByRole('button', { name: 'Upload and index' }).click();
    const upload = page.getByRole('region', { name: 'Upload a file' });
    await expect(upload.getByRole('alert')).toContainText('The file address contains a CPF or CNPJ');
    expect(hits).toEqual([]);

    await upload.getByRole('button', { name: 'Send the link with the document anyway' }).click();
    await expect(upload.getByRole('alert')).toHaveCount(0);
    await expect.poll(() => hits).toEqual(['/clientes/529.982.247-25/faq.txt']);
  } finally {
    await host.close();
    await sb.close();
    files.closeAllConnections();
    files.close();
  }
});
