import { test, expect, type Page } from '@playwright/test';
import { openDemo, shot } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import { settled, walkViews } from '../../support/walk';
import { axeViolations } from '../../support/axe';

/** Chooses the appearance with the top bar's switch, as a user would. */
async function useTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  if ((await page.locator('html').getAttribute('data-theme')) !== theme) await page.locator('.shell-theme').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
}

// One test per language and theme: each walks every view and dialog once, within its own time budget.
for (const language of ['en', 'pt-BR'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`axe finds nothing, of any impact, in any view or dialog, ${theme}, ${language}`, async ({ page }) => {
      test.setTimeout(480_000);
      const host = await launchHost(freshProfile());
      const found: string[] = [];
      const check = async (stop: string) => found.push(...(await axeViolations(page, `${theme} ${language} ${stop}`)));
      try {
        // The welcome screen, in the language and appearance chosen before (kept in the profile).
        await page.goto(host.url);
        await page.evaluate(
          ([l, t]) => {
            localStorage.setItem('console.language', l);
            localStorage.setItem('console.theme', t);
          },
          [language, theme] as const,
        );
        await page.reload();
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        await expect(page.locator('main.welcome')).toBeVisible();
        await check('welcome');
        await page.evaluate(() => localStorage.setItem('console.language', 'en'));

        // As the supervisor: every view is there, the supervisor tools included. A session of
        // their own, so the thread, its side tabs and its dialogs are part of the walk.
        await openDemo(page, host, { as: 'supervisor' });
        await useTheme(page, theme);
        await page.getByRole('tab', { name: /^Waiting/ }).click();
        await page
          .getByRole('button', { name: /^Accept session of / })
          .first()
          .click();
        await expect(page.getByRole('tab', { name: /^Mine/ })).toHaveAttribute('aria-selected', 'true');
        await page.getByRole('combobox', { name: 'Language' }).selectOption(language);
        await expect(page.locator('html')).toHaveAttribute('lang', language);

        const stops = await walkViews(page, async (stop) => {
          await check(stop);
          if (language === 'pt-BR' && /^\S+ Supervis/.test(stop)) {
            await shot(page, `supervisor-${stop.split(' / ')[1]!.toLowerCase().replace(/\W+/g, '-')}-${theme}-pt-BR`, { fullPage: true });
          }
        });
        expect(stops.length, 'stops walked').toBeGreaterThan(12);

        // Back to the attendance: the "/" canned replies over the composer.
        await page.locator('nav.rail').getByRole('button').first().click();
        const box = page.locator('#composer-input');
        await box.click();
        await box.pressSequentially('/');
        await expect(page.locator('.slash-menu')).toBeVisible();
        await check('canned replies');
        await box.fill('');

        // The classification dialog with its scrolling tree.
        await page.getByRole('button', { name: /^(Classify and close|Classificar e encerrar)$/ }).click();
        const dialog = page.getByRole('dialog');
        await expect(dialog.getByRole('tree')).toBeVisible();
        await settled(page);
        await check('classify and close');
        if (language === 'pt-BR') await shot(page, `attendance-classification-${theme}-pt-BR`);
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();

        // The palette and the ticket lookup with a ticket.
        await page.keyboard.press('Control+K');
        await expect(page.getByRole('listbox')).toBeVisible();
        await check('palette');
        await page.keyboard.press('Escape');
        await page.keyboard.press('Control+Shift+T');
        await page.keyboard.type('SUP-4711');
        await page.keyboard.press('Enter');
        await expect(page.locator('.sup-ticket')).toBeVisible();
        await check('ticket lookup');
        if (language === 'pt-BR') await shot(page, `supervisor-ticket-lookup-${theme}-pt-BR`);
        await page.keyboard.press('Escape');

        // The demo seen as its attendant: the persona switch and the attendant's console.
        await page.locator('.shell-persona').selectOption('agent');
        await expect(page.locator('.shell-persona')).toHaveValue('agent');
        await expect(page.locator('nav.rail')).toBeVisible();
        await settled(page);
        await check('attendant');

        expect([...new Set(found)]).toEqual([]);
      } finally {
        await host.close();
      }
    });
  }
}
