import { test, expect } from '@playwright/test';
import { openDemo } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import { clippedLabels, walkViews } from '../../support/walk';

// Service data cut on purpose in a queue row of fixed height, whole elsewhere: a message's first
// line (the thread shows it all), the protocol, which gives way first, and then a long customer
// name, never below 12 characters (both whole in the row's tooltip, its accessible name and the
// thread's header).
const DATA_CUT = /\(span\.(?:preview|name|protocol)\)$/;

test.use({ viewport: { width: 1280, height: 720 } });

for (const language of ['en', 'pt-BR', 'es'] as const) {
  test(`at 1280×720 no label is cut in any view, ${language}`, async ({ page }) => {
    test.setTimeout(360_000);
    const host = await launchHost(freshProfile());
    try {
      await openDemo(page, host, { as: 'supervisor' });
      await page.getByRole('tab', { name: /^Waiting/ }).click();
      await page.getByRole('list', { name: 'Waiting' }).getByRole('button').first().click();
      await page.getByRole('combobox', { name: 'Language' }).selectOption(language);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      const found: string[] = [];
      const stops = await walkViews(page, async (stop) => {
        for (const cut of await clippedLabels(page)) if (!DATA_CUT.test(cut)) found.push(`${stop}: ${cut}`);
      });
      expect(stops.length).toBeGreaterThan(8);
      expect([...new Set(found)]).toEqual([]);
    } finally {
      await host.close();
    }
  });
}
