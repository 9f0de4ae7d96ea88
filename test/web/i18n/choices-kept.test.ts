import { test, expect } from '@playwright/test';
import { launchHost, usedConsoleProfile } from '../../support/host';
import { openDemo } from '../../support/web';

/**
 * What the page keeps in the browser (the chosen language, the appearance) belongs to the
 * browser's origin, which holds the loopback host's port: restarted on the same profile, the
 * host serves on the port it had, so the console comes back as the user left it.
 */
/** Each language as the page names its switch and the appearance buttons. */
const LANGUAGES = [
  { tag: 'pt-BR', toDark: 'Mudar para a aparência escura', toLight: 'Mudar para a aparência clara' },
  { tag: 'es', toDark: 'Cambiar a la apariencia oscura', toLight: 'Cambiar a la apariencia clara' },
] as const;

for (const { tag, toDark, toLight } of LANGUAGES) {
  test(`in the loopback host the chosen language (${tag}) and appearance are kept across a restart on the same profile`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    let firstOrigin = '';
    const profile = await usedConsoleProfile(page, async (p, host) => {
      firstOrigin = host.origin;
      await p.goto(host.url);
      await openDemo(p, host);
      await p.getByRole('combobox', { name: 'Language' }).selectOption(tag);
      await expect(p.getByRole('combobox', { name: 'Idioma' })).toHaveValue(tag);
      await p.getByRole('button', { name: toDark }).click();
      await expect(p.getByRole('button', { name: toLight })).toBeVisible();
    });
    const host = await launchHost(profile);
    try {
      await page.goto(host.url);
      await expect(page.getByRole('combobox', { name: 'Idioma' })).toHaveValue(tag);
      await expect(page.getByRole('button', { name: toLight })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', tag);
      // The mechanism, said once: the same origin as before the restart.
      expect(host.origin).toBe(firstOrigin);
    } finally {
      await page.goto('about:blank');
      await host.close();
    }
  });
}
