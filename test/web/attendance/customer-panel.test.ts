import { test, expect } from '@playwright/test';
import { nameOf } from '../../support/records';
import { freshProfile, launchHost } from '../../support/host';
import { openDemo, ownOpenSessions, selectSession, shot } from '../../support/web';

/**
 * One customer panel at 1280×800: the side panel's tabs on one row, and under Customer who the
 * customer is and how to reach them, this session, their earlier sessions and their tickets.
 */
test.use({ viewport: { width: 1280, height: 800 } });

test('at 1280×800 the side tabs are on one row and one Customer tab shows contact, this session, earlier sessions and tickets', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const [s] = await ownOpenSessions(sb, 1);
    await selectSession(page, s!);
    const side = page.getByRole('complementary', { name: 'Session details' });
    const tabs = side.getByRole('tablist', { name: 'Session details' }).getByRole('tab');
    await expect(tabs).toHaveText(['Help', 'Notes', 'Voice', 'Customer']);
    const tops = await tabs.evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
    expect(new Set(tops).size, `tab tops ${tops.join(', ')}`).toBe(1);

    await side.getByRole('tab', { name: 'Customer' }).click();
    const customer = nameOf(s!.user)!;
    const contact = side.getByRole('region', { name: 'Contact' });
    await expect(contact).toContainText(customer);
    const session = side.getByRole('region', { name: 'This session' });
    await expect(session).toContainText(String(s!.protocol));
    await expect(side.getByRole('heading', { name: `Earlier sessions of ${customer}` })).toBeVisible();
    await expect(side.getByRole('heading', { name: 'Tickets' })).toBeVisible();
    await shot(page, 'customer-panel-1280');
  } finally {
    await host.close();
  }
});
