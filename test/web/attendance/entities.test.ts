import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { openDemo, ownOpenSessions, selectSession, serviceApi } from '../../support/web';

test.use({ viewport: { width: 1366, height: 768 } });

test('entities the service recognises in a new customer message reach the thread as highlights through the entities event', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    await expect(page.getByRole('status', { name: 'Live' })).toBeVisible();
    const s = (await ownOpenSessions(sb))[0]!;
    await selectSession(page, s);
    const log = page.getByRole('log', { name: /Messages with/ });
    await expect(log).toBeVisible();

    // The console's own recognition call is refused, so the only way to highlights is the
    // `entities.recognized` event the service sends after the customer's message.
    await sb.faults.set([{ match: { method: 'POST', path: '/transformersapi/1.0/ner' }, kind: 'status', status: 503 }]);
    const text = 'Moro em Campinas, CEP 01310-100, e paguei R$ 150,00 na sexta.';
    await serviceApi(sb.baseUrl, sb.tokens.admin).post('/chatapi/1.0/api/v2/messages/save', {
      session: { id: s.id },
      message: text,
      fromUser: true,
    });

    const line = log.getByRole('article').filter({ hasText: 'Moro em' });
    await expect(line).toBeVisible();
    await expect(line.locator('mark', { hasText: 'Campinas' })).toBeVisible();
    await expect(line.locator('mark', { hasText: 'R$ 150,00' })).toBeVisible();
    await expect(line).toContainText('Moro em Campinas, CEP 01310-100');
  } finally {
    await host.close();
  }
});

test('a CPF or CNPJ typed without punctuation is hidden in the thread until shown, even when recognition fails', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const s = (await ownOpenSessions(sb))[0]!;
    await selectSession(page, s);
    const log = page.getByRole('log', { name: /Messages with/ });
    await expect(log).toBeVisible();
    await sb.faults.set([{ match: { method: 'POST', path: '/transformersapi/1.0/ner' }, kind: 'status', status: 503 }]);
    await serviceApi(sb.baseUrl, sb.tokens.admin).post('/chatapi/1.0/api/v2/messages/save', {
      session: { id: s.id },
      message: 'Segue meu CPF 52998224725 e o CNPJ 11222333000181, pedido 12345.',
      fromUser: true,
    });

    const line = log.getByRole('article').filter({ hasText: 'Segue meu CPF' });
    await expect(line).toBeVisible();
    await expect(line).toContainText('pedido 12345');
    await expect(line).not.toContainText('52998224725');
    await expect(line).not.toContainText('11222333000181');
    await line.getByRole('button', { name: 'Show CPF' }).click();
    await expect(line).toContainText('52998224725');
    await expect(line).not.toContainText('11222333000181');
  } finally {
    await host.close();
  }
});
