import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';

/** The report's totals row stays below its last row, at every scroll position and width. */
test.use({ viewport: { width: 1280, height: 720 } });

test('the attendance report totals row never covers the last row', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Open it as the supervisor' }).click();
    await page.getByRole('button', { name: 'Supervisor' }).click();
    await page.getByRole('tab', { name: 'Attendance report' }).click();
    const table = page.getByRole('table', { name: 'Attendance time report' });
    await expect(table.locator('tbody tr')).toHaveCount(25);
    for (const [width, media] of [
      [1280, 'screen'],
      [900, 'screen'],
      [1280, 'print'],
    ] as const) {
      await page.setViewportSize({ width, height: 720 });
      await page.emulateMedia({ media });
      // Scrolled to the end of the table, wherever the scrolling happens.
      await table.locator('tfoot').scrollIntoViewIfNeeded();
      await table.evaluate((t) => {
        for (let el: HTMLElement | null = t.parentElement; el; el = el.parentElement) el.scrollTop = el.scrollHeight;
      });
      const last = await table.locator('tbody tr').last().boundingBox();
      const foot = await table.locator('tfoot tr').boundingBox();
      expect(last && foot, 'both shown').toBeTruthy();
      expect(last!.y + last!.height, `the last row ends above the totals at ${width} (${media})`).toBeLessThanOrEqual(foot!.y + 0.5);
      // And what the eye sees at the last row's middle is the last row, not the totals.
      const hit = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('tr')?.parentElement?.tagName ?? null, {
        x: last!.x + 20,
        y: last!.y + last!.height / 2,
      });
      expect(hit, `the last row is visible at ${width} (${media})`).toBe('TBODY');
    }
  } finally {
    await host.close();
  }
});
