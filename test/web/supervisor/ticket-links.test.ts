import { test, expect } from '@playwright/test';
import { openDemo, serviceApi, type Rec } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';

test('a ticket mentioned by the customer opens the lookup from the thread', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    await sb.simulator.step();
    const agent = serviceApi(sb.baseUrl, sb.tokens.agent);
    const session = (
      await agent.list(
        '/user-session',
        [
          { key: 'status', operator: 'EQ', value: 'OPEN' },
          { key: 'agent', operator: 'IS_NULL' },
        ],
        { direction: 'DESC', size: 1 },
      )
    )[0]!;
    const customer = String((session.user as Rec).displayName ?? (session.user as Rec).name);
    await serviceApi(sb.baseUrl, sb.tokens.admin).post('/chatapi/1.0/api/v2/messages/save', {
      session: { id: session.id },
      fromUser: true,
      message: 'Oi, o meu chamado SUP-4711 continua sem resposta.',
    });
    const ticket = (await agent.get('/ticketapi/1.0/api/v1/tickets/SUP-4711')).data as Rec;

    await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(String(session.protocol));
    await page
      .getByRole('list', { name: 'Waiting' })
      .getByRole('button', { name: `Accept session of ${customer}` })
      .click();
    const log = page.getByRole('log', { name: /Messages with/ });
    await log.getByRole('button', { name: 'Open ticket SUP-4711' }).click();

    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(String(ticket.title));
    // The status reads as a word, not the service's code.
    expect(ticket.status).toBe('IN_PROGRESS');
    await expect(dialog.locator('.sup-facts .sup-badge').first()).toHaveText('In progress');
  } finally {
    await host.close();
  }
});
