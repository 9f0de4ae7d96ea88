import { test, expect, type Locator } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { openDemo, railButton, shot } from '../../support/web';
import { axeViolations } from '../../support/axe';

/**
 * The settings' native controls (selects, a number, checkboxes and radios) look like the rest of
 * the console in both themes: the console's field colours, border and corners, its accent on the
 * ticks, dark parts in the dark theme; still native, still named, axe at zero in both languages.
 */

test.use({ viewport: { width: 1280, height: 800 } });

const look = (l: Locator) =>
  l.evaluate((el) => {
    const s = getComputedStyle(el);
    return {
      background: s.backgroundColor,
      border: s.borderTopColor,
      radius: s.borderTopLeftRadius,
      accent: s.accentColor,
      scheme: s.colorScheme,
    };
  });

test("Settings' native controls take the console's look in light and dark, in English and Portuguese", async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    await openDemo(page, host);
    await railButton(page, 'Settings').click();
    const reason = page.getByRole('combobox', { name: 'Pause reason' });
    const minutes = page.getByRole('spinbutton', { name: 'Away after this many minutes without activity' });
    const sound = page.getByRole('checkbox', { name: /Play a sound/ });
    await expect(reason).toBeVisible();

    // Light: white fields, the console's line colour and 6px corners, the accent on ticks.
    for (const control of [reason, minutes]) {
      expect(await look(control)).toMatchObject({ background: 'rgb(255, 255, 255)', border: 'rgb(227, 230, 235)', radius: '6px' });
    }
    expect((await look(sound)).accent).toBe('rgb(47, 91, 234)');
    expect(await axeViolations(page, 'settings, light')).toEqual([]);
    await shot(page, 'settings-controls-light', { fullPage: true });

    // Dark: dark fields and dark native parts, the dark accent.
    await page.locator('.shell-theme').click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    for (const control of [reason, minutes]) {
      expect(await look(control)).toMatchObject({
        background: 'rgb(15, 20, 32)',
        border: 'rgb(46, 55, 73)',
        radius: '6px',
        scheme: 'dark',
      });
    }
    expect((await look(sound)).accent).toBe('rgb(134, 164, 255)');
    expect(await axeViolations(page, 'settings, dark')).toEqual([]);
    await shot(page, 'settings-controls-dark', { fullPage: true });

    // Portuguese, dark.
    await page.locator('header.topbar').getByRole('combobox', { name: 'Language' }).selectOption('pt-BR');
    await expect(page.getByRole('combobox', { name: 'Motivo da pausa' })).toBeVisible();
    expect(await axeViolations(page, 'settings, dark, pt-BR')).toEqual([]);
    await shot(page, 'settings-controls-dark-pt', { fullPage: true });
    await page.locator('.shell-theme').click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await shot(page, 'settings-controls-light-pt', { fullPage: true });
  } finally {
    await page.goto('about:blank');
    await host.close();
  }
});
