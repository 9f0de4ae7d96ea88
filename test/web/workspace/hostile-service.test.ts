import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freshProfile, launchHost } from '../../support/host';
import { startHostileService, USER, type Behaviour, type HostileService } from '../../support/hostile-service';

/**
 * What the user reads when the service misbehaves: an error page, a redirect, an answer far too
 * large. Each says what happened, in the user's language, and the console goes on working.
 */

let service: HostileService;
test.beforeEach(async () => {
  service = await startHostileService();
});
test.afterEach(async () => {
  await service.close();
});

type Labels = { address: string; token: string; weak: string; connect: string };

/** Connects through the form while the service behaves so; `says`: the error the form then shows. */
async function connect(page: Page, labels: Labels, behaviour: Behaviour, says?: string): Promise<void> {
  service.behave(behaviour);
  await page.getByLabel(labels.address).fill(service.baseUrl);
  await page.getByLabel(labels.token).fill(service.token);
  const weak = page.getByLabel(labels.weak);
  if (!(await weak.isChecked())) await weak.check();
  await page.getByRole('button', { name: labels.connect, exact: true }).click();
  if (says !== undefined) await expect(page.getByRole('alert')).toHaveText(says);
}

const EN: Labels = {
  address: 'Service address',
  token: 'Access token',
  weak: 'Keep the token with weak protection on this machine',
  connect: 'Connect',
};

test('an error page, a redirect and an answer past its limit are each said as what they are, and the console keeps working', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    const alert = page.getByRole('alert');
    await connect(page, EN, 'error-page', 'The service failed to list sessions: it answered with an error page (500). Try again shortly.');
    await connect(
      page,
      EN,
      'redirect',
      'The service redirected the request to list sessions to https://moved.example/api (301); the console does not follow redirects. Check the service address.',
    );
    await connect(page, EN, 'good');
    await expect(page.getByRole('tablist', { name: 'Sessions' })).toBeVisible();
    await expect(page.getByText(USER.name).first()).toBeVisible();

    service.behave('huge');
    // The session list's reads (the background's other reads, previews and the like, are theirs).
    const sessionLists = () => service.requests.filter((p) => p.endsWith('/user-session')).length;
    const before = sessionLists();
    await page.getByRole('button', { name: 'Refresh' }).click();
    // The queue's own read says so (other reads that met the same answer may say it too).
    await expect(alert.filter({ hasText: 'userSession.list' })).toHaveText(
      'The service answered "userSession.list" with an answer larger than its limit of 16 MiB (reading stopped there).',
    );
    // Bounded: the answer was not asked for again and again (the queue's read and its one retry,
    // and the background's own reads that fall in the same seconds: the sync's, the mentions').
    expect(sessionLists() - before).toBeLessThanOrEqual(6);

    service.behave('good');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(alert.filter({ hasText: 'userSession.list' })).toHaveCount(0);
  } finally {
    await host.close();
  }
});

test('in Portuguese the same errors read in Portuguese', async ({ page }) => {
  const host = await launchHost(freshProfile(), 'pt-BR');
  try {
    await page.goto(host.url);
    const pt: Labels = {
      address: 'Endereço do serviço',
      token: 'Token de acesso',
      weak: 'Guardar o token com proteção fraca nesta máquina',
      connect: 'Conectar',
    };
    await connect(
      page,
      pt,
      'redirect',
      'O serviço redirecionou o pedido para https://moved.example/api (301); o console não segue redirecionamentos. Verifique o endereço do serviço.',
    );
    await connect(
      page,
      pt,
      'error-page',
      'O serviço respondeu com uma página de erro (500) em vez de uma resposta. Tente de novo em instantes.',
    );
  } finally {
    await host.close();
  }
});

test('a service that echoes the token in its error answers: the page says what happened with the token hidden, and neither the page nor the log holds it', async ({
  page,
}) => {
  const profile = freshProfile();
  const host = await launchHost(profile);
  const forms = [service.token, encodeURIComponent(service.token), Buffer.from(service.token).toString('base64')];
  try {
    await page.goto(host.url);
    await connect(
      page,
      EN,
      { echo: 400 },
      'The service refused to list sessions: Refused the credentials sent (Authorization: Bearer [hidden]) [Bearer [hidden]].',
    );
    for (const f of forms) expect(await page.content()).not.toContain(f);
    for (const status of [401, 403, 500, 200]) {
      await connect(page, EN, { echo: status });
      await expect(page.getByRole('alert')).toContainText(status === 200 ? 'cannot read' : `(${status})`);
      for (const f of forms) expect(await page.content()).not.toContain(f);
    }
  } finally {
    await host.close();
  }
  const logged = readFileSync(join(profile, 'logs', 'console.log'), 'utf8');
  expect(logged).toContain('userSession.list');
  for (const f of forms) expect(logged).not.toContain(f);
});
