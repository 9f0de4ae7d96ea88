import { test, expect, type Page } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import {
  connectToService,
  demoAgentStatus,
  openDemo,
  ownOpenSessions,
  pauseReasonNames,
  railButton,
  serviceApi,
  type Rec,
} from '../../support/web';
import { startStandin } from '../../../src-standin/index';
import { bridgeCalls } from '../../support/console';
import type { Host } from '../../../src-main/host/start-host';
import { errorText } from '../../../src-shared/error-text';

/** Hosts the tests started, closed after each test. */
const hosts: Host[] = [];
test.afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
});

/**
 * The demo workspace open in a new console whose page clock is the test's (minutes pass at once,
 * nothing else is faked), and the attendant's status at the service.
 */
async function openDemoAway(page: Page): Promise<{ sb: Awaited<ReturnType<typeof openDemo>>; myStatus: () => Promise<unknown> }> {
  await page.clock.install();
  const host = await launchHost(freshProfile());
  hosts.push(host);
  const sb = await openDemo(page, host);
  return { sb, myStatus: demoAgentStatus(sb) };
}

/** Sets what the console does when the attendant is away, as they would in the settings. */
async function chooseAway(page: Page, mode: string, minutes: number, reason?: string): Promise<void> {
  await railButton(page, 'Settings').click();
  const box = page.getByRole('group', { name: 'When I am away' });
  await box.getByRole('radio', { name: mode }).check();
  await box.getByRole('spinbutton', { name: /Away after this many minutes/ }).fill(String(minutes));
  await box.getByRole('spinbutton', { name: /Away after this many minutes/ }).press('Tab');
  if (reason) await box.getByRole('combobox', { name: 'Pause reason' }).selectOption({ label: reason });
  await railButton(page, 'Sessions').click();
}

/**
 * The status says paused with `reason`; when it does not, the failure also tells what the page
 * shows as alerts and notices and what the service holds (why the console did not pause, or
 * whether it paused and shows otherwise).
 */
async function expectPaused(page: Page, reason: string, atService: () => Promise<unknown>): Promise<void> {
  try {
    await expect(page.getByRole('group', { name: 'Your status' })).toContainText(`Paused: ${reason}`);
  } catch (e) {
    const shown = [...(await page.getByRole('alert').allInnerTexts()), ...(await page.getByRole('status').allInnerTexts())];
    throw new Error(
      `${errorText(e)}\nAlerts and notices on the page: ${JSON.stringify(shown)}; the service has the attendant ${String(await atService())}`,
      { cause: e },
    );
  }
}

test('away for the chosen minutes pauses with the chosen reason at the service; coming back resumes it and names who wrote meanwhile', async ({
  page,
}) => {
  const { sb, myStatus } = await openDemoAway(page);
  const api = serviceApi(sb.baseUrl, sb.tokens.supervisor);
  const reason = (await pauseReasonNames(sb)).at(-1)!;
  const [mine] = await ownOpenSessions(sb);
  const customer = String((mine!.user as Rec).displayName ?? (mine!.user as Rec).name);

  await chooseAway(page, 'Pause me, and resume when I am back', 3, reason);
  await page.getByRole('tab', { name: /Mine/ }).click();
  const status = page.getByRole('group', { name: 'Your status' });
  await expect(status).toContainText('Available');

  // Two minutes without a key or the mouse: still here.
  await page.clock.fastForward('02:00');
  await expect(status).toContainText('Available');
  expect(await myStatus()).toBe('ONLINE');

  // Past three: paused at the service with the chosen reason.
  await page.clock.fastForward('01:10');
  await expectPaused(page, reason, myStatus);
  await expect.poll(myStatus).toBe('PAUSED');

  // A customer of the attendant writes while they are away.
  await api.post('/chatapi/1.0/api/v2/messages/save', {
    session: { id: mine!.id },
    message: 'Oi, voltei. Conseguiram ver meu pedido?',
    fromUser: true,
  });
  await expect(
    page.getByRole('list', { name: 'Mine' }).getByRole('button', { name: new RegExp(`^${customer}\\s*, 1 unread`) }),
  ).toHaveCount(1);

  // Back: one move of the mouse resumes, and one line says what happened.
  await page.mouse.move(400, 300);
  await page.mouse.move(420, 310);
  const notice = page.getByRole('status').filter({ hasText: 'Welcome back' });
  await expect(notice).toContainText(/you were away \d+m \d{2}s, paused meanwhile, and are available again\./);
  await expect(notice).toContainText(`One of your sessions got messages meanwhile: ${customer}`);
  await expect(status).toContainText('Available');
  await expect.poll(myStatus).toBe('ONLINE');
  await notice.getByRole('button', { name: customer }).click();
  await expect(page.getByRole('log', { name: `Messages with ${customer}` })).toContainText('Conseguiram ver meu pedido?');
});

test('back while the pause is still on its way: once it is in force it is ended, and the welcome line says so', async ({ page }) => {
  const { sb, myStatus } = await openDemoAway(page);
  await chooseAway(page, 'Pause me, and resume when I am back', 3);
  const status = page.getByRole('group', { name: 'Your status' });
  await expect(status).toContainText('Available');
  // The service takes its time with the attendant's status: the attendant is back before it answers.
  await sb.faults.set([{ match: { method: 'POST', path: '/chatapi/1.0/api/v2/agent/save' }, kind: 'latency', latencyMs: 3000, count: 1 }]);
  await page.clock.fastForward('03:10');
  // The pause is on its way (the status control is busy with it) when the attendant moves the mouse.
  await expect(status.getByRole('button', { name: 'Pause', exact: true })).toHaveAttribute('aria-busy', 'true');
  await page.mouse.move(400, 300);
  await page.mouse.move(420, 310);
  const notice = page.getByRole('status').filter({ hasText: 'Welcome back' });
  await expect(notice).toContainText('paused meanwhile, and are available again');
  await expect(status).toContainText('Available');
  await expect.poll(myStatus).toBe('ONLINE');
});

test('a pause the service refused is tried again while the attendant stays away; events a script sends are not the attendant coming back', async ({
  page,
}) => {
  const { sb, myStatus } = await openDemoAway(page);
  const reason = (await pauseReasonNames(sb)).at(-1)!;
  await chooseAway(page, 'Pause me, and resume when I am back', 3, reason);
  const status = page.getByRole('group', { name: 'Your status' });
  await expect(status).toContainText('Available');
  // The service refuses status changes for a while.
  await sb.faults.set([{ match: { method: 'POST', path: '/chatapi/1.0/api/v2/agent/save' }, kind: 'status', status: 503 }]);
  await page.clock.fastForward('03:10');
  await expect(page.getByRole('alert').first()).toBeVisible();
  expect(await myStatus()).toBe('ONLINE');
  await expect(status).toContainText('Available');
  // It takes them again; the attendant is still away at the next check: paused this time.
  await sb.faults.clear();
  await page.clock.fastForward('00:06');
  await expectPaused(page, reason, myStatus);
  await expect.poll(myStatus).toBe('PAUSED');
  // A script's focus, key or pointer event is not the attendant.
  await page.evaluate(() => {
    window.dispatchEvent(new FocusEvent('focus'));
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
    window.dispatchEvent(new PointerEvent('pointerdown'));
  });
  await page.clock.fastForward('00:06');
  await expectPaused(page, reason, myStatus);
  expect(await myStatus()).toBe('PAUSED');
  await expect(page.getByRole('status').filter({ hasText: 'Welcome back' })).toHaveCount(0);
});

test('away with "offer" asks first; a pause the attendant took is left alone on return', async ({ page }) => {
  const { myStatus } = await openDemoAway(page);
  await chooseAway(page, 'Offer to pause me', 2);
  const status = page.getByRole('group', { name: 'Your status' });

  await page.clock.fastForward('02:10');
  const offer = page.getByRole('alert').filter({ hasText: 'No activity for 2 min' });
  await expect(offer).toBeVisible();
  expect(await myStatus()).toBe('ONLINE');
  // Coming back does not take the question away: it waits for an answer.
  await page.mouse.move(500, 400);
  await expect(offer).toBeVisible();
  await offer.getByRole('button', { name: 'I am here' }).click();
  await expect(offer).toHaveCount(0);
  expect(await myStatus()).toBe('ONLINE');

  // Asked again after another spell away; this time the attendant accepts: the pause is theirs.
  await page.clock.fastForward('02:10');
  await expect(offer).toBeVisible();
  await offer.getByRole('button', { name: 'Pause now' }).click();
  await expect(status).toContainText('Paused:');
  await expect.poll(myStatus).toBe('PAUSED');

  // Away and back while paused by their own choice: still paused, nothing offered.
  await page.clock.fastForward('05:00');
  await expect(page.getByRole('alert').filter({ hasText: 'No activity' })).toHaveCount(0);
  await page.mouse.move(300, 300);
  await expect(page.getByRole('status').filter({ hasText: 'Welcome back: you were away' })).toBeVisible();
  await expect(status).toContainText('Paused:');
  expect(await myStatus()).toBe('PAUSED');
});

test('away with several workspaces: every workspace signed in is paused, each with its reason of that name, and each resumes on return', async ({
  page,
}) => {
  await page.clock.install();
  const other = await startStandin({ port: 0, sessions: 30, seed: 9 });
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    await page.getByRole('button', { name: 'Add a workspace' }).click();
    await connectToService(page, { baseUrl: other.baseUrl, token: other.tokens.agent });
    await expect(page.locator('.workspace-badge')).toContainText(other.baseUrl);
    // Back to the demo, where the attendant sets the away rule.
    await page
      .getByRole('group', { name: 'Workspaces' })
      .getByRole('button', { name: /Demo · / })
      .click();
    await expect(page.locator('.workspace-badge')).toHaveText('Demo workspace');
    const reason = (await pauseReasonNames(sb)).at(-1)!;
    expect(await pauseReasonNames(other)).toContain(reason);
    await chooseAway(page, 'Pause me, and resume when I am back', 3, reason);
    const here = demoAgentStatus(sb);
    const there = demoAgentStatus(other);
    expect([await here(), await there()]).toEqual(['ONLINE', 'ONLINE']);

    await page.clock.fastForward('03:10');
    await expectPaused(page, reason, here);
    await expect.poll(here).toBe('PAUSED');
    await expect.poll(there).toBe('PAUSED');
    // The other workspace took its own reason of that name (the service keeps the status only).
    const otherId = (await bridgeCalls(host.app).call('workspace:state', {})).workspaces.find((w) => w.baseUrl === other.baseUrl)!.id;
    expect((await bridgeCalls({ handlers: host.app.route(otherId) }).call('attendance:directory', {})).myPauseReason).toBe(reason);

    await page.mouse.move(400, 300);
    await page.mouse.move(420, 310);
    await expect(page.getByRole('status').filter({ hasText: 'Welcome back' })).toContainText('paused meanwhile, and are available again');
    await expect.poll(here).toBe('ONLINE');
    await expect.poll(there).toBe('ONLINE');
  } finally {
    await host.close();
    await other.close();
  }
});
