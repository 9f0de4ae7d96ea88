import { test, expect } from '@playwright/test';
import { startStandin } from '../../../src-standin/index';
import { freshProfile, launchHost } from '../../support/host';
import { connectToService } from '../../support/web';

/**
 * An error on screen is worded when it shows, not when it happened: one the explorer got in
 * English reads in Portuguese once the user switches language, and in English again after.
 */

test('an error shown in English re-words itself when the user switches to Portuguese and back', async ({ page }) => {
  const sb = await startStandin({ port: 0, sessions: 20 });
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.supervisor });
    await page.getByRole('button', { name: 'Supervisor' }).click();
    await page.getByRole('tab', { name: 'Explorer' }).click();
    // The service refuses every read of sessions.
    await sb.faults.set([{ match: { method: 'POST', path: '/chatapi/1.0/api/v2/user-session' }, kind: 'status', status: 503 }]);
    await page.getByRole('region', { name: 'Conditions' }).getByRole('button', { name: 'Search' }).click();

    const alert = page.getByRole('region', { name: 'Results' }).getByRole('alert');
    await expect(alert).toBeVisible();
    const english = (await alert.textContent())!.trim();
    expect(english).toMatch(/503|service/i);
    expect(english).not.toMatch(/serviço/);

    const language = page.locator('header.topbar').getByRole('combobox');
    await language.first().selectOption('pt-BR');
    const alerta = page.getByRole('region', { name: 'Resultados' }).getByRole('alert');
    await expect(alerta).toContainText('serviço');
    await expect(alerta).not.toHaveText(english);

    await language.first().selectOption('en');
    await expect(alert).toHaveText(english);
  } finally {
    await page.goto('about:blank');
    await host.close();
    await sb.close();
  }
});
