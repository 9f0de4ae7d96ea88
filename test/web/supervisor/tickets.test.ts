import { test, expect } from '@playwright/test';
import { shot } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';

interface TicketEnvelope {
  data: { id: number; title: string; status: string; priority: string; projectId: number; key?: string };
}

test('a supervisor looks a ticket up by id and by unique key, is told plainly about an unknown one, and reads it offline', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Open it as the supervisor' }).click();
    await page.getByRole('button', { name: 'Supervisor' }).click();
    await expect(page.getByRole('tablist', { name: 'Supervisor tools' })).toBeVisible();
    const sb = host.app.standin!;
    const fetchTicket = async (idOrKey: string): Promise<TicketEnvelope['data']> => {
      const res = await fetch(`${sb.baseUrl}/ticketapi/1.0/api/v1/tickets/${idOrKey}`, {
        headers: { Authorization: `Bearer ${sb.tokens.agent}` },
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as TicketEnvelope).data;
    };

    await page.getByRole('button', { name: 'Look up a ticket' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ticket lookup' });
    await expect(dialog).toBeVisible();
    const field = dialog.getByLabel('Ticket number or key');
    await expect(field).toBeFocused();

    // By id.
    const byId = await fetchTicket('4711');
    await field.fill('4711');
    await field.press('Enter');
    await expect(dialog.getByRole('heading', { name: byId.title })).toBeVisible();
    expect([byId.status, byId.priority]).toEqual(['IN_PROGRESS', 'HIGH']);
    await expect(dialog.getByText('In progress', { exact: true })).toBeVisible();
    await expect(dialog.getByText('High', { exact: true })).toBeVisible();
    await expect(
      dialog
        .locator('div')
        .filter({ has: page.getByText('Project', { exact: true }) })
        .locator('dd'),
    ).toHaveText(String(byId.projectId));
    await shot(page, 'supervisor-ticket-lookup');

    // By unique key: a different ticket, found by its key.
    const byKey = await fetchTicket('SUP-4722');
    expect(byKey.id).toBe(4722);
    await field.fill('sup-4722');
    await dialog.getByRole('button', { name: 'Look up' }).click();
    await expect(dialog.getByRole('heading', { name: byKey.title })).toBeVisible();
    await expect(dialog.getByText('SUP-4722', { exact: true })).toBeVisible();

    // Unknown: the 404 in words, no stale ticket left on screen.
    await field.fill('999999');
    await field.press('Enter');
    await expect(dialog.getByRole('alert')).toHaveText('Ticket 999999 was not found (404).');
    await expect(dialog.getByRole('heading', { name: byKey.title })).toHaveCount(0);

    // The service goes away: the copy fetched earlier is still readable, marked as such.
    await sb.faults.set([{ match: { path: '/ticketapi/' }, kind: 'status', status: 503 }]);
    await field.fill('4711');
    await field.press('Enter');
    await expect(dialog.getByRole('heading', { name: byId.title })).toBeVisible();
    await expect(dialog.getByRole('status')).toContainText('Offline copy fetched');
    await expect(dialog.getByRole('status')).toContainText('answered with an error page (503)');
    await shot(page, 'supervisor-ticket-offline');
    await sb.faults.clear();

    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);
    // Both tickets are in the recent list, most recent first.
    const recent = page.getByRole('list', { name: 'Recent tickets' }).getByRole('button');
    await expect(recent).toHaveCount(2);
    await expect(recent.first()).toContainText('SUP-4711');
    await expect(recent.nth(1)).toContainText('SUP-4722');

    // The global shortcut's accelerator is checked before it is kept.
    const shortcut = page.getByRole('textbox', { name: 'Global shortcut for the lookup' });
    await shortcut.fill('Ctrl+Alt+Q');
    await page.getByRole('button', { name: 'Save shortcut' }).click();
    await expect(page.getByRole('alert')).toContainText('keyboard layouts');
    await shortcut.fill('ctrl+shift+y');
    await page.getByRole('button', { name: 'Save shortcut' }).click();
    await expect(page.getByRole('status')).toHaveText('Shortcut saved: Ctrl+Shift+Y');
    await shot(page, 'supervisor-tickets-tab');

    // What the shortcut does when pressed: the lookup opens wherever the user is.
    await page.getByRole('button', { name: 'Sessions' }).click();
    host.app.events.emit('supervisor:openTicketLookup', { idOrKey: 'SUP-4711' });
    await expect(page.getByRole('dialog', { name: 'Ticket lookup' }).getByRole('heading', { name: byId.title })).toBeVisible();
  } finally {
    await host.close();
  }
});
