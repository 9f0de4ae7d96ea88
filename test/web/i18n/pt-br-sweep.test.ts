import { test, expect, type Page } from '@playwright/test';
import { openDemo } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import { englishSources, settled, visibleTexts, walkViews } from '../../support/walk';

// Service codes that must read as words (statuses, priorities, channels, sentiments...).
const CODE =
  /^(?:[A-Z]{2,}_[A-Z_]+|OPEN|CLOSED|ONLINE|OFFLINE|BUSY|PAUSED|HIGH|LOW|MEDIUM|URGENT|POSITIVE|NEGATIVE|NEUTRAL|EQNUM|NEQNUM|EQ|NEQ|LIKE|IN|BEFORE|AFTER)$/;

test('in pt-BR no view shows an English source string, a raw service code or an Electron accelerator', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    // As the supervisor: every view is there, the supervisor tools included.
    await openDemo(page, host, { as: 'supervisor' });
    const { exact, patterns } = englishSources();
    expect(exact.size, 'English strings read from the tables').toBeGreaterThan(200);

    // A session open, so the thread and its side panels are part of the sweep.
    await page.getByRole('tab', { name: /^Waiting/ }).click();
    await page.getByRole('list', { name: 'Waiting' }).getByRole('button').first().click();
    await page.getByRole('combobox', { name: 'Language' }).selectOption('pt-BR');
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');

    const found: string[] = [];
    const check = async (stop: string) => {
      for (const text of await visibleTexts(page)) {
        const words = text.split(/\s*[·|]\s*/);
        const bad =
          exact.has(text) ||
          patterns.some((p) => p.test(text)) ||
          words.some((w) => exact.has(w) || CODE.test(w)) ||
          /CommandOrControl/.test(text);
        if (bad) found.push(`${stop}: ${text}`);
      }
    };
    const stops = await walkViews(page, check);
    expect(stops.length).toBeGreaterThan(8);

    await openPalette(page);
    await check('paleta');
    await page.keyboard.press('Escape');

    await page.keyboard.press('Control+Shift+T');
    await page.keyboard.type('SUP-4711');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Consulta de chamado' });
    await expect(dialog.locator('.sup-ticket')).toBeVisible();
    await settled(page);
    await check('consulta de chamado');

    expect([...new Set(found)]).toEqual([]);
  } finally {
    await host.close();
  }
});

async function openPalette(page: Page): Promise<void> {
  await page.keyboard.press('Control+K');
  await expect(page.getByRole('listbox', { name: 'Comandos' })).toBeVisible();
}
