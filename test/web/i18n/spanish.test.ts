import { test, expect } from '@playwright/test';
import { openDemo } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import { foreignSources, settled, visibleTexts, walkViews } from '../../support/walk';

/**
 * Spanish is a third language of the whole console: chosen in the settings like the others, it
 * shows the queue, a thread and the settings in Spanish, and no view keeps an English or a
 * Portuguese text of the catalogs (the words Spanish shares with them aside).
 */
test('chosen in the settings, Spanish reads through the queue, a thread, the settings and every view', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    await openDemo(page, host, { as: 'supervisor' });
    const { exact, patterns } = foreignSources('es', ['en', 'pt-BR']);
    expect(exact.size, 'English and Portuguese texts read from the catalogs').toBeGreaterThan(400);

    await page.locator('nav.rail').getByRole('button', { name: 'Settings' }).click();
    await page.locator('.set-view').getByRole('combobox', { name: 'Language' }).selectOption('es');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    // The window's title too (the count of what waits, if any, in front of it).
    await expect(page).toHaveTitle(/^(\(\d+\) )?Consola del agente$/);
    const settings = page.locator('.set-view');
    await expect(settings.getByRole('combobox', { name: 'Idioma' })).toHaveValue('es');
    await expect(settings.getByRole('tab', { name: 'Desarrollo / integración' })).toBeVisible();
    await expect(settings.getByRole('checkbox', { name: /^Recibir los eventos del servicio/ })).toBeVisible();
    // The quick switch in the top bar says the same.
    await expect(page.locator('header').getByRole('combobox', { name: 'Idioma' })).toHaveValue('es');

    await page.locator('nav.rail').getByRole('button', { name: 'Sesiones' }).click();
    await page.getByRole('tab', { name: /^En espera/ }).click();
    const waiting = page.getByRole('list', { name: 'En espera' });
    await expect(waiting.getByRole('button').first()).toBeVisible();
    await waiting.getByRole('button').first().click();
    await expect(page.getByText('Esta sesión espera en la cola. Acéptela para responder.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Aceptar la sesión', exact: true })).toBeVisible();
    await expect(page.getByRole('log', { name: /^Mensajes con / })).toBeVisible();

    const found: string[] = [];
    const check = async (stop: string) => {
      for (const text of await visibleTexts(page)) {
        const words = text.split(/\s*[·|]\s*/);
        if (exact.has(text) || patterns.some((p) => p.test(text)) || words.some((w) => exact.has(w))) found.push(`${stop}: ${text}`);
      }
    };
    await settled(page);
    await check('conversación');
    const stops = await walkViews(page, check);
    expect(stops.length).toBeGreaterThan(8);
    expect([...new Set(found)]).toEqual([]);
  } finally {
    await host.close();
  }
});
