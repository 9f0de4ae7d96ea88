import type { Locator, Page } from '@playwright/test';

/** Opens the supervisor's explorer on a resource (by its English name) and searches one field for one value. */
export async function exploreOne(page: Page, resource: string, field: string, value: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Supervisor' }).click();
  await page.getByRole('tab', { name: 'Explorer' }).click();
  await page.getByRole('combobox', { name: 'Resource' }).selectOption({ label: resource });
  const query = page.getByRole('region', { name: 'Conditions' });
  await query.getByLabel('Field').fill(field);
  await query.getByLabel('Value').fill(value);
  await query.getByRole('button', { name: 'Search' }).click();
  return page.getByRole('table', { name: 'Results' });
}

/** A field's value in the explorer's record view, by the field's word (`view`: the view's heading, in the page's language). */
export const recordField = (page: Page, label: string, view = 'Record'): Locator =>
  page
    .getByRole('region', { name: view, exact: true })
    .locator('dl > div')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd');
