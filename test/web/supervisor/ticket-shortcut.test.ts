import { test, expect } from '@playwright/test';
import { openDemo, serviceApi, shot, type Rec } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';

test('the ticket lookup takes two chords and the key, replaces the last key, lists recent tickets and shows the whole card with documents masked', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const api = serviceApi(sb.baseUrl, sb.tokens.agent);
    const ticket = (await api.get('/ticketapi/1.0/api/v1/tickets/SUP-4711')).data as Rec;
    const cpf = /\d{3}\.\d{3}\.\d{3}-\d{2}/.exec(String(ticket.description))?.[0];
    expect(cpf, 'the demo ticket quotes a CPF').toBeTruthy();

    // Chord one: the shortcut; then the key; chord two: Enter.
    await page.keyboard.press('Control+Shift+T');
    const dialog = page.getByRole('dialog', { name: 'Ticket lookup' });
    const field = dialog.getByLabel('Ticket number or key');
    await expect(field).toBeFocused();
    await page.keyboard.type('SUP-4711');
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('heading', { name: String(ticket.title) })).toBeVisible();

    const fact = (name: string) =>
      dialog
        .locator('.sup-facts > div')
        .filter({ has: page.getByText(name, { exact: true }) })
        .locator('dd');
    await expect(fact('Status')).toHaveText('In progress');
    await expect(fact('Priority')).toHaveText('High');
    await expect(fact('Requester')).toHaveText(String(ticket.requester));
    await expect(fact('Opened')).not.toHaveText('(none)');
    await expect(fact('Last updated')).not.toHaveText('(none)');
    // The ticket names no assignee: the attendant of its session is the one.
    const [session] = await api.list('/user-session', [{ key: 'id', operator: 'EQNUM', value: String(ticket.sessionId) }]);
    const agent = (session?.agent ?? {}) as Rec;
    await expect(fact('Assignee')).toHaveText(String(agent.displayName ?? agent.name));
    // The CPF is masked like in the thread, and shows when asked.
    const description = dialog.locator('.sup-description');
    await expect(description).not.toContainText(cpf!);
    await expect(description).toContainText(`***.***.${cpf!.slice(8)}`);
    await description.getByRole('button', { name: 'Show the CPF' }).click();
    await expect(description).toContainText(cpf!);
    await shot(page, 'supervisor-ticket-card');

    // Again: the last key is selected, so typing replaces it instead of appending.
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await page.keyboard.press('Control+Shift+T');
    await expect(field).toBeFocused();
    await page.keyboard.type('4722');
    await page.keyboard.press('Enter');
    await expect(field).toHaveValue('4722');
    await expect(dialog.locator('.sup-ticket-key').first()).toHaveText('SUP-4722');
    // The one looked up before is listed and opens with a click.
    const recent = dialog.getByRole('list', { name: 'Other recent tickets' }).getByRole('button');
    await expect(recent).toHaveCount(1);
    await expect(recent.first()).toContainText('SUP-4711');
    await recent.first().click();
    await expect(dialog.getByRole('heading', { name: String(ticket.title) })).toBeVisible();

    // The linked session opens in the attendance view.
    await dialog.getByRole('button', { name: `Open session ${String(ticket.sessionId)}` }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Sessions' })).toHaveAttribute('aria-current', 'page');
  } finally {
    await host.close();
  }
});
