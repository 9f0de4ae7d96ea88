import { test, expect } from '@playwright/test';
import { openDemo, railButton } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import { isKnowledgeBaseName } from '../../../src-shared/kb-name';

test('the knowledge-base name is built from the service address and the file name, until the user types one', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host, { as: 'supervisor' });
    await railButton(page, 'Supervisor').click();
    await page.getByRole('tab', { name: 'Knowledge bases' }).click();
    const url = page.getByLabel('Public file address');
    const name = page.getByLabel('Knowledge base name');

    await url.fill('https://files.example.com/ajuda/FAQ%20Mar%C3%A7o%202026.csv');
    const expected = `${new URL(sb.baseUrl).hostname}_faq-marco-2026_data_pt`;
    await expect(name).toHaveValue(expected);
    expect(isKnowledgeBaseName(expected)).toBe(true);
    await url.fill('https://files.example.com/precos.xlsx');
    await expect(name).toHaveValue(`${new URL(sb.baseUrl).hostname}_precos_data_pt`);

    // A name of the user's own stays when the file changes.
    await name.fill('loja.example.com_catalogo_data_pt');
    await url.fill('https://files.example.com/outro.csv');
    await expect(name).toHaveValue('loja.example.com_catalogo_data_pt');
  } finally {
    await host.close();
  }
});
