import { test, expect } from '@playwright/test';
import { openDemo, shot } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import { walkViews } from '../../support/walk';
import { seriousViolations as serious } from '../../support/axe';

// One test per language and theme: each walks every view once, within its own time budget.
for (const language of ['en', 'pt-BR'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`axe finds no serious or critical violation in any view, ${theme}, ${language}`, async ({ page }) => {
      test.setTimeout(360_000);
      const host = await launchHost(freshProfile());
      try {
        // As the supervisor: every view is there, the supervisor tools included.
        await openDemo(page, host, { as: 'supervisor' });
        await page.getByRole('tab', { name: /^Waiting/ }).click();
        await page.getByRole('list', { name: 'Waiting' }).getByRole('button').first().click();
        await page.getByRole('combobox', { name: 'Language' }).selectOption(language);
        const found: string[] = [];
        await page.evaluate((t) => localStorage.setItem('console.theme', t), theme);
        await page.locator('.shell-theme').click({ trial: true });
        if ((await page.locator('html').getAttribute('data-theme')) !== theme) await page.locator('.shell-theme').click();
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        await walkViews(page, async (stop) => {
          found.push(...(await serious(page, `${theme} ${stop}`)));
          if (language === 'pt-BR' && /^\S+ Supervis/.test(stop)) {
            await shot(page, `supervisor-${stop.split(' / ')[1]!.toLowerCase().replace(/\W+/g, '-')}-${theme}-pt-BR`, { fullPage: true });
          }
        });
        // The dialogs over the views: the palette and the ticket lookup with a ticket.
        await page.keyboard.press('Control+K');
        await expect(page.getByRole('listbox')).toBeVisible();
        found.push(...(await serious(page, `${theme} palette`)));
        await page.keyboard.press('Escape');
        await page.keyboard.press('Control+Shift+T');
        await page.keyboard.type('SUP-4711');
        await page.keyboard.press('Enter');
        await expect(page.locator('.sup-ticket')).toBeVisible();
        found.push(...(await serious(page, `${theme} ticket lookup`)));
        if (language === 'pt-BR') await shot(page, `supervisor-ticket-lookup-${theme}-pt-BR`);
        await page.keyboard.press('Escape');
        expect([...new Set(found)]).toEqual([]);
      } finally {
        await host.close();
      }
    });
  }
}
