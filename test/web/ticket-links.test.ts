import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../support/host';

type Rec = Record<string, unknown>;

async function api(baseUrl: string, token: string, path: string, body: unknown): Promise<Rec> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: path.startsWith('/ticketapi') ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(path.startsWith('/ticketapi') ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status).toBeLessThan(300);
  return (await res.json()) as Rec;
}

test('a ticket mentioned by the customer opens the lookup from the thread', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Open the demo workspace' }).click();
    await expect(page.getByRole('tablist', { name: 'Sessions' })).toBeVisible();
    const sb = host.app.sandbox!;
    sb.simulator.stop();
    await sb.simulator.step();
    const session = ((await api(sb.baseUrl, sb.tokens.agent, '/chatapi/1.0/api/v2/user-session', {
      conditions: [{ key: 'status', operator: 'EQ', value: 'OPEN' }, { key: 'agent', operator: 'IS_NULL' }],
      sort: true, sortColumn: 'id', direction: 'DESC', page: 0, size: 1,
    })).results as Rec[])[0]!;
    const customer = String((session.user as Rec).displayName ?? (session.user as Rec).name);
    await api(sb.baseUrl, sb.tokens.admin, '/chatapi/1.0/api/v2/messages/save', {
      session: { id: session.id }, fromUser: true, message: 'Oi, o meu chamado SUP-4711 continua sem resposta.',
    });
    const ticket = (await api(sb.baseUrl, sb.tokens.agent, '/ticketapi/1.0/api/v1/tickets/SUP-4711', null)).data as Rec;

    await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(String(session.protocol));
    await page.getByRole('list', { name: 'Waiting' }).getByRole('button', { name: `Accept session of ${customer}` }).click();
    const log = page.getByRole('log', { name: /Messages with/ });
    await log.getByRole('button', { name: 'Open ticket SUP-4711' }).click();

    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(String(ticket.title));
    await expect(dialog).toContainText(String(ticket.status));
  } finally {
    await host.close();
  }
});
