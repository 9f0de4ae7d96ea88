import { test, expect } from '@playwright/test';
import { openDemo, consoleReady } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';

test('the demo workspace is seen as its attendant, without supervisor tools, or as its supervisor, with them; the choice is kept', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const nav = page.getByRole('navigation', { name: 'Views' });
    const who = page.getByLabel('Signed in as');
    await expect(who).toHaveText(sb.demoAgent.name);
    await expect(nav.getByRole('button', { name: 'Sessions' })).toBeVisible();
    await expect(nav.getByRole('button', { name: 'Supervisor' })).toHaveCount(0);

    // The supervisor: the tools are there, and the service knows who is asking.
    await page.getByRole('combobox', { name: 'See the demo workspace as' }).selectOption({ label: 'The supervisor' });
    await expect(who).toHaveText(sb.demoSupervisor.name);
    await nav.getByRole('button', { name: 'Supervisor' }).click();
    await expect(page.getByRole('tablist', { name: 'Supervisor tools' })).toBeVisible();

    // Kept across a reload, like the workspace itself.
    await page.reload();
    await expect(page.getByLabel('Signed in as')).toHaveText(sb.demoSupervisor.name);
    await expect(page.getByRole('combobox', { name: 'See the demo workspace as' })).toHaveValue('supervisor');

    // Back to the attendant: the tools go, and the sessions view is what shows.
    await page.getByRole('combobox', { name: 'See the demo workspace as' }).selectOption({ label: 'The attendant' });
    await expect(page.getByLabel('Signed in as')).toHaveText(sb.demoAgent.name);
    await expect(nav.getByRole('button', { name: 'Supervisor' })).toHaveCount(0);
    await consoleReady(page);
  } finally {
    await host.close();
  }
});
