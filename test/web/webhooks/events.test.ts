import { test, expect, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:net';
import { signedHeaders } from '../../support/webhooks';
import { openDemo, ownOpenSessions, selectSession, serviceApi, shot, type Rec, openEvents } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';

/** Posts an event to the listener as a sender would; signed when a secret is given. */
async function deliverOnce(url: string, event: Rec, secret?: string): Promise<number> {
  const body = JSON.stringify(event);
  const id = String(event.id);
  const ts = Math.floor(Date.now() / 1000);
  const identity = secret ? signedHeaders(secret, id, body, ts) : { 'webhook-id': id, 'webhook-timestamp': String(ts) };
  const headers = { 'content-type': 'application/json', ...identity };
  const res = await fetch(url, { method: 'POST', headers, body });
  await res.arrayBuffer();
  return res.status;
}

/**
 * Delivers as a service does: again while nothing answers (a settings change restarts the
 * listener on its address, and the page may still show it running), until the listener answers.
 */
async function deliver(url: string, event: Rec, secret?: string): Promise<number> {
  let status = 0;
  await expect.poll(async () => (status = await deliverOnce(url, event, secret).catch(() => 0))).toBeGreaterThan(0);
  return status;
}

const rail = (page: Page, name: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name, exact: true });

test("the stand-in's events and a signed event show in the event log, the signed one updates the thread, a bad signature only counts", async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);

    // From the first start the demo workspace delivers to the listener: a simulator tick shows up.
    await openEvents(page);
    await page.getByRole('tab', { name: 'Listener' }).click();
    await expect(page.getByText('The demo workspace delivers its events here.')).toBeVisible();
    await sb.simulator.step();
    await page.getByRole('tab', { name: 'Event log' }).click();
    const list = page.getByRole('list', { name: 'Events' });
    await expect(list.getByRole('button', { name: /\bSigned$/ }).first()).toBeVisible();

    // The listener's address and a new signing secret, shown once to copy to the service.
    await page.getByRole('tab', { name: 'Listener' }).click();
    const local = await page.getByRole('textbox', { name: 'Local address', exact: true }).inputValue();
    expect(local).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/[A-Za-z0-9_-]{8,}$/);
    await expect(page.getByRole('status', { name: 'Listener state: Running' })).toBeVisible();
    await page.getByRole('button', { name: 'New signing secret' }).click();
    const secretField = page.getByRole('textbox', { name: 'Signing secret', exact: true });
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    // The address stayed the same through the restart.
    expect(await page.getByRole('textbox', { name: 'Local address', exact: true }).inputValue()).toBe(local);
    await shot(page, 'events-listener');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await expect(secretField).toHaveCount(0);

    // Open one of the attendant's sessions.
    await rail(page, 'Sessions').click();
    const agent = serviceApi(sb.baseUrl, sb.tokens.agent);
    const mine = (await ownOpenSessions(sb))[0]!;
    await selectSession(page, mine);
    const thread = page.getByRole('log', { name: /Messages with/ });
    await expect(thread).toBeVisible();

    // The stand-in stops delivering: from here on only our own posts reach the listener.
    for (const h of (await agent.get('/chatapi/1.0/api/v2/hook')).results as Rec[]) {
      await agent.delete(`/chatapi/1.0/api/v2/hook/${String(h.id)}`);
    }
    const text = 'Consegui pagar pelo aplicativo, obrigado!';
    const saved = await serviceApi(sb.baseUrl, sb.tokens.admin).post('/chatapi/1.0/api/v2/messages/save', {
      session: { id: mine.id },
      message: text,
      fromUser: true,
    });
    const event = {
      id: 'evt_console_test_1',
      group: 'messages',
      type: 'message.created',
      occurredAt: new Date().toISOString(),
      data: { sessionId: mine.id, message: { id: saved.id, message: text, fromUser: true } },
    };
    expect(await deliver(local, event, secret)).toBe(200);
    await expect(thread).toContainText(text);

    // Signed with another secret: refused, and never an event.
    const forged = {
      ...event,
      id: 'evt_console_forged_1',
      data: { sessionId: mine.id, message: { id: 1, message: 'forged', fromUser: true } },
    };
    expect(await deliver(local, forged, `whsec_${Buffer.from('someone else').toString('base64')}`)).toBe(401);

    await openEvents(page);
    await page.getByRole('tab', { name: 'Event log' }).click();
    const counters = page.getByRole('region', { name: 'Listener counters' });
    // At least ours: deliveries the stand-in signed with the secret before the renewal (and its
    // retries of them) are refused the same way, as many as were on their way.
    await expect(counters).toContainText(/bad signature: [1-9]\d*/);
    await expect(counters).toContainText(/Last refused at .*: bad signature \(401\)/);
    const search = page.getByRole('searchbox', { name: 'Search events' });
    await search.fill('evt_console_forged_1');
    await expect(page.getByText('No events match these filters.')).toBeVisible();
    await search.fill('evt_console_test_1');
    const row = list.getByRole('button', { name: /\bmessages\s*message\.created\s*Signed$/ });
    await expect(row).toHaveCount(1);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    // Nothing arrived after our event: it is the newest row.
    await list.getByRole('button').first().click();
    const detail = page.getByRole('region', { name: 'Event details' });
    await expect(detail).toContainText('evt_console_test_1');
    await expect(detail.getByLabel('Raw JSON')).toContainText(`"message": "${text}"`);
    await expect(list.getByRole('button', { name: /\bSigned$/ })).not.toHaveCount(1);
    await shot(page, 'events-log');

    // Filtering by group reads the listener's log again.
    await page.getByRole('combobox', { name: 'Group' }).selectOption('bot');
    await expect(list.getByRole('button', { name: /message\.created/ })).toHaveCount(0);
  } finally {
    await host.close();
  }
});

test('signing off shows the standing warning and takes unsigned events; a taken port is reported', async ({ page }) => {
  const host = await launchHost(freshProfile());
  const blocker: Server = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const taken = (blocker.address() as { port: number }).port;
  try {
    await openDemo(page, host);
    await openEvents(page);
    await page.getByRole('tab', { name: 'Listener' }).click();
    const warning = page.getByRole('status').filter({ hasText: 'Signing is off' });
    await expect(warning).toHaveCount(0);

    const require = page.getByRole('checkbox', { name: 'Require signed events' });
    await expect(require).toBeChecked();
    await require.uncheck();
    await expect(warning).toBeVisible();
    await expect(page.getByText('Unsigned events are accepted.', { exact: false })).toBeVisible();

    // The listener takes the change as it restarts: deliveries wait until it says it runs.
    const running = page.getByRole('status', { name: 'Listener state: Running' });
    await expect(running).toBeVisible();
    const local = await page.getByRole('textbox', { name: 'Local address', exact: true }).inputValue();
    expect(
      await deliver(local, {
        id: 'evt_unsigned_1',
        group: 'bot',
        type: 'bot.tag',
        occurredAt: new Date().toISOString(),
        data: { sessionId: 1, tag: 'vip' },
      }),
    ).toBe(200);
    await page.getByRole('tab', { name: 'Event log' }).click();
    await page.getByRole('searchbox', { name: 'Search events' }).fill('evt_unsigned_1');
    await expect(page.getByRole('list', { name: 'Events' }).getByRole('button', { name: /\bbot\s*bot\.tag\s*Unsigned$/ })).toBeVisible();
    await shot(page, 'events-unsigned');

    // Back on: a new secret to copy, and the warning goes.
    await warning.getByRole('button', { name: 'Open signing settings' }).click();
    await require.check();
    await expect(page.getByRole('textbox', { name: 'Signing secret', exact: true })).toHaveValue(/^whsec_/);
    await expect(warning).toHaveCount(0);
    await expect(running).toBeVisible();
    expect(
      await deliver(local, { id: 'evt_unsigned_2', group: 'bot', type: 'bot.tag', occurredAt: new Date().toISOString(), data: {} }),
    ).toBe(401);

    // A port another program holds: the listener's own message.
    const port = page.getByRole('textbox', { name: 'Port', exact: true });
    await port.fill(String(taken));
    await page.getByRole('button', { name: 'Apply port' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: `Port ${taken} is in use by another program; choose another in Settings.` }),
    ).toBeVisible();
    await expect(page.getByRole('status', { name: 'Listener state: Not running' })).toBeVisible();
    await port.fill('0');
    await page.getByRole('button', { name: 'Apply port' }).click();
    await expect(running).toBeVisible();
    // The tunnel (test/web/webhooks/tunnel.test.ts) stays off.
    await expect(page.getByRole('status', { name: 'Tunnel state: Stopped' })).toBeVisible();
  } finally {
    blocker.close();
    await host.close();
  }
});
