import { test, expect } from '@playwright/test';
import { connectToService, railButton } from '../../support/web';
import { startStandin } from '../../../src-standin/index';
import { freshProfile, launchHost } from '../../support/host';
import { isKnowledgeBaseName } from '../../../src-shared/kb-name';

test('the knowledge-base name is built from the service address and the file name, until the user types one', async ({ page }) => {
  const sb = await startStandin({ port: 0, sessions: 20 });
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    // Upload is an administrator's operation: the form is offered to the administrator.
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.admin });
    await railButton(page, 'Supervisor').click();
    await page.getByRole('tab', { name: 'Knowledge bases' }).click();
    const url = page.getByLabel('Public file address');
    const name = page.getByLabel('Knowledge base name');

    await url.fill('https://files.example.com/ajuda/FAQ%20Mar%C3%A7o%202026.csv');
    // A loopback service reads as "localhost", the file's name as words, accents dropped.
    const expected = 'localhost_faq-marco-2026_data_pt';
    await expect(name).toHaveValue(expected);
    expect(isKnowledgeBaseName(expected)).toBe(true);
    await url.fill('https://files.example.com/precos.xlsx');
    await expect(name).toHaveValue('localhost_precos_data_pt');

    // A name of the user's own stays when the file changes.
    await name.fill('loja.example.com_catalogo_data_pt');
    await url.fill('https://files.example.com/outro.csv');
    await expect(name).toHaveValue('loja.example.com_catalogo_data_pt');
  } finally {
    await host.close();
    await sb.close();
  }
});
