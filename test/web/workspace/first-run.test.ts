import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { startStandin } from '../../../src-standin/index';
import { consoleReady } from '../../support/web';

interface SessionRecord {
  id: number;
  status?: string;
  agent?: { userName?: string } | null;
  user?: { name?: string; displayName?: string } | null;
}

async function openSessions(baseUrl: string, token: string): Promise<SessionRecord[]> {
  const res = await fetch(`${baseUrl}/chatapi/1.0/api/v2/user-session`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      conditions: [{ key: 'status', operator: 'EQ', value: 'OPEN' }],
      sort: true,
      sortColumn: 'createdAt',
      direction: 'ASC',
      page: 0,
      size: 500,
    }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: SessionRecord[] }).results;
}

test('a new user opens the demo workspace and sees the seeded sessions in the queue', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    await expect(page.getByRole('heading', { name: 'Welcome to the agent console' })).toBeVisible();
    await page.getByRole('button', { name: 'Open the demo workspace' }).click();

    await consoleReady(page);
    const sb = host.app.standin!;
    const waiting = (await openSessions(sb.baseUrl, sb.tokens.agent)).filter((s) => !s.agent);
    expect(waiting.length).toBeGreaterThan(0);
    await expect(page.getByRole('tab', { name: /Waiting/ })).toContainText(String(waiting.length));
    const first = waiting[0]!;
    const name = first.user?.displayName ?? first.user?.name ?? '';
    await expect(
      page
        .getByRole('list', { name: 'Waiting' })
        .getByRole('button', { name: new RegExp(`^${name}`) })
        .first(),
    ).toBeVisible();
  } finally {
    await host.close();
  }
});

test('connecting with a wrong token says plainly that the service refused it', async ({ page }) => {
  const sb = await startStandin({ port: 0 });
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    await page.getByLabel('Service address').fill(sb.baseUrl);
    await page.getByLabel('Access token').fill('not-the-right-token-123');
    await page.getByLabel('Keep the token with weak protection on this machine').check();
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText('The service refused this token (401)');
    await expect(page.getByRole('tablist', { name: 'Sessions' })).toHaveCount(0);
  } finally {
    await host.close();
    await sb.close();
  }
});

test('the choice is remembered: a restarted console goes straight to the queue', async ({ page }) => {
  const profile = freshProfile();
  const first = await launchHost(profile);
  await page.goto(first.url);
  await page.getByRole('button', { name: 'Open the demo workspace' }).click();
  await consoleReady(page);
  // The page leaves before its host stops: it would otherwise try to reconnect under the next goto.
  await page.goto('about:blank');
  await first.close();

  const second = await launchHost(profile);
  try {
    await page.goto(second.url);
    await consoleReady(page);
    await expect(page.getByRole('button', { name: 'Open the demo workspace' })).toHaveCount(0);
    await expect(page.getByRole('tab', { name: /Waiting/ })).not.toContainText(/^Waiting\s*0$/);
  } finally {
    await second.close();
  }
});

test('the host refuses a page opened without the launch secret', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    const response = await page.goto(host.origin + '/');
    expect(response?.status()).toBe(403);
    await expect(page.getByText('open the address the console printed at launch')).toBeVisible();
    const bridge = await page.request.post(`${host.origin}/bridge/workspace:state`, { data: {} });
    expect(bridge.status()).toBe(403);
  } finally {
    await host.close();
  }
});

test('a Portuguese system gets the console in pt-BR', async ({ page }) => {
  const host = await launchHost(freshProfile(), 'pt-BR');
  try {
    await page.goto(host.url);
    await expect(page.getByRole('heading', { name: 'Boas-vindas ao console do atendente' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
    await page.getByRole('button', { name: 'Abrir o espaço de demonstração' }).click();
    await expect(page.getByRole('tab', { name: /Aguardando/ })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sair' })).toBeVisible();
    // Commands and their groups follow the language too.
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog');
    await expect(palette.getByText('Atualizar a fila', { exact: true })).toBeVisible();
    await expect(palette.getByText('Fila', { exact: true }).first()).toBeVisible();
    await expect(palette.getByText('Queue', { exact: true })).toHaveCount(0);
  } finally {
    await host.close();
  }
});

test('a Spanish system gets the console in Spanish', async ({ page }) => {
  const host = await launchHost(freshProfile(), 'es-ES');
  try {
    await page.goto(host.url);
    await expect(page.getByRole('heading', { name: 'Bienvenida a la consola del agente' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await page.getByRole('button', { name: 'Abrir el espacio de demostración' }).click();
    await expect(page.getByRole('tab', { name: /En espera/ })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cerrar sesión', exact: true })).toBeVisible();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog');
    await expect(palette.getByText('Actualizar la cola', { exact: true })).toBeVisible();
    await expect(palette.getByText('Queue', { exact: true })).toHaveCount(0);
  } finally {
    await host.close();
  }
});
