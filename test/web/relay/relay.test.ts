import { test, expect, type Browser, type Page } from '@playwright/test';
import type { Standin } from '../../../src-standin/index';
import type { Host } from '../../../src-main/host/start-host';
import { natsMissing, testUsers, type NatsServer } from '../../support/nats';
import { startRelayStack, type RelayStack } from '../../support/relay';
import { freshProfile, launchHost } from '../../support/host';
import { customerSays } from '../../support/customer';
import { connectToService, openEvents, ownOpenSessions, railButton, selectSession, shot } from '../../support/web';
import { tempDirs } from '../../support/temp-dirs';

test.skip(natsMissing() !== null, natsMissing() ?? '');

const tempDir = tempDirs('relay-web-');
const SECRET = 'whsec_d2ViLXRlc3QtcmVsYXktc2lnbmluZy1zZWNyZXQtMDE';
const accounts = testUsers({ vila: ['ana', 'bruno'] });
/** The safety-net poll, fast, so the test sees it carry on while NATS is down. */
const pollPace = { pollingMs: 1_000, pollingIdleMaxMs: 2_000, liveMs: 3_000, liveIdleMaxMs: 5_000, errorMaxMs: 5_000 };

let nats: NatsServer;
let sb: Standin;
let stack: RelayStack | undefined;
test.beforeAll(async () => {
  stack = await startRelayStack({
    dir: await tempDir(),
    accounts,
    signingSecret: SECRET,
    pathSecret: 'web-relay-path-secret',
    groups: ['messages'],
  });
  ({ nats, sb } = stack);
});
test.afterAll(async () => {
  await stack?.close();
});

/** A console of its own (host and page), signed in, its live source set to the relay in the settings as a user would. */
async function consoleOn(browser: Browser, name: string): Promise<{ host: Host; page: Page }> {
  const host = await launchHost(freshProfile(), 'en-US', { pollPace });
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await page.goto(host.url);
  await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent, userName: sb.demoAgent.userName });
  await expect(page.getByRole('tablist', { name: 'Sessions' })).toBeVisible();
  await openEvents(page);
  await page.getByRole('tab', { name: 'Live source' }).click();
  await page.getByRole('radio', { name: 'A team relay' }).check();
  await page.getByLabel('NATS address').fill(nats.address);
  await page.getByLabel('Operation').fill('vila');
  await page.getByLabel("This console's name").fill(name);
  await page.getByLabel('NATS user').fill(`${name}@vila`);
  await page.getByLabel('Password').fill(accounts.password(`${name}@vila`));
  await page.getByRole('button', { name: 'Save and switch' }).click();
  await expect(page.getByRole('status', { name: 'Team relay: Connected: events arrive' })).toBeVisible();
  // The password went to the main process: the field is empty and says one is kept.
  await expect(page.getByLabel('Password')).toHaveValue('');
  await expect(page.getByLabel('Password')).toHaveAttribute('placeholder', 'Kept on this computer; type to replace it');
  return { host, page };
}

test('two consoles on one relay show a customer’s message; with NATS stopped they say so and keep up by polling', async ({ browser }) => {
  test.setTimeout(180_000);
  const ana = await consoleOn(browser, 'ana');
  const bruno = await consoleOn(browser, 'bruno');
  try {
    await shot(ana.page, 'relay-live-source');
    const mine = (await ownOpenSessions(sb))[0]!;
    for (const { page } of [ana, bruno]) {
      await railButton(page, 'Sessions').click();
      await expect(page.getByRole('status', { name: 'Live · team relay' })).toBeVisible();
      await selectSession(page, mine);
      await expect(page.getByRole('log', { name: /Messages with/ })).toBeVisible();
    }
    await customerSays(sb.baseUrl, sb.tokens.admin, Number(mine.id), 'Meu pedido chegou amassado, o que faço?');
    for (const { page } of [ana, bruno])
      await expect(page.getByRole('log', { name: /Messages with/ }).getByText('Meu pedido chegou amassado')).toBeVisible();

    await nats.stop();
    try {
      for (const { page } of [ana, bruno])
        await expect(page.getByRole('status', { name: 'Team relay unreachable · checking every 30 to 60 s' })).toBeVisible();
      await shot(ana.page, 'relay-unreachable');
      // The safety-net poll carries on: what the customer writes now still shows.
      await customerSays(sb.baseUrl, sb.tokens.admin, Number(mine.id), 'Alguém aí? Enviei foto do pacote.');
      for (const { page } of [ana, bruno])
        await expect(page.getByRole('log', { name: /Messages with/ }).getByText('Enviei foto do pacote')).toBeVisible();
    } finally {
      await nats.start();
    }
    for (const { page } of [ana, bruno]) await expect(page.getByRole('status', { name: 'Live · team relay' })).toBeVisible();
    await customerSays(sb.baseUrl, sb.tokens.admin, Number(mine.id), 'Obrigada pela ajuda!');
    for (const { page } of [ana, bruno])
      await expect(page.getByRole('log', { name: /Messages with/ }).getByText('Obrigada pela ajuda!')).toBeVisible();
  } finally {
    for (const c of [ana, bruno]) {
      await c.page.context().close();
      await c.host.close();
    }
  }
});

test('the live source form says what is wrong, in the user’s words, and keeps nothing it refused', async ({ browser }) => {
  const host = await launchHost(freshProfile(), 'en-US');
  const page = await (await browser.newContext()).newPage();
  try {
    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent, userName: sb.demoAgent.userName });
    await expect(page.getByRole('tablist', { name: 'Sessions' })).toBeVisible();
    await openEvents(page);
    await page.getByRole('tab', { name: 'Live source' }).click();
    await expect(page.getByRole('radio', { name: "This computer's listener" })).toBeChecked();
    await page.getByRole('radio', { name: 'A team relay' }).check();
    await page.getByLabel('NATS address').fill('http://relay.example.com');
    await page.getByLabel('Operation').fill('vila');
    await page.getByLabel("This console's name").fill('ana');
    await page.getByLabel('NATS user').fill('ana@vila');
    await page.getByLabel('Password').fill('whatever');
    await page.getByRole('button', { name: 'Save and switch' }).click();
    await expect(page.getByRole('alert')).toContainText('A NATS address starts with nats:// or tls://, not http://.');
    await expect(page.getByLabel('NATS address')).toHaveAttribute('aria-invalid', 'true');
    // A wrong password: saved, and the relay's refusal shows where the user looks.
    await page.getByLabel('NATS address').fill(nats.address);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Save and switch' }).click();
    await expect(
      page.getByRole('status', { name: 'Team relay: Refused: the console checks the service every 30 to 60 s meanwhile' }),
    ).toBeVisible();
    await expect(page.getByText('NATS refused the user, password or token.')).toBeVisible();
    await railButton(page, 'Sessions').click();
    await expect(page.getByRole('status', { name: 'Team relay refused this console · checking every 30 to 60 s' })).toBeVisible();
    // Polling only: no relay, no listener; the indicator says the console polls.
    await openEvents(page);
    await page.getByRole('tab', { name: 'Live source' }).click();
    await page.getByRole('radio', { name: 'Polling only' }).check();
    await page.getByRole('button', { name: 'Save and switch' }).click();
    await expect(page.getByText('Saved. Live events now come from the source chosen.')).toBeVisible();
    await page.getByRole('tab', { name: 'Listener' }).click();
    await expect(page.getByText('This workspace takes its live events from another source')).toBeVisible();
    await railButton(page, 'Sessions').click();
    await expect(page.getByRole('status', { name: 'Checking every 30 to 60 s' })).toBeVisible();
  } finally {
    await page.context().close();
    await host.close();
  }
});
