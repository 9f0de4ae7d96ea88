import { test, expect, type Page } from '@playwright/test';
import { openDemo, serviceApi, shot, type Rec, openEvents } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import { sshMissing, startSshd, type Sshd } from '../../support/sshd';
import { tempDirs } from '../../support/temp-dirs';

/** The tunnel as the user runs it, with a real `ssh -R` through a throwaway sshd on loopback. */
const missing = sshMissing();
test.skip(missing !== null, `No real ssh tunnel here: ${missing}`);

const fresh = tempDirs('web-tunnel-');
let sshd: Sshd;
test.beforeAll(async () => {
  sshd = await startSshd(await fresh());
});
test.afterAll(async () => {
  await sshd?.stop();
});

const rail = (page: Page, name: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name, exact: true });

test('the event log shows the tunnel live, failing with a restart countdown, and live again at its new address', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const admin = serviceApi(sb.baseUrl, sb.tokens.admin);
    const hooks = async () => ((await admin.get('/chatapi/1.0/api/v2/hook')).results as Rec[]).map((h) => String(h.url));

    await openEvents(page);
    await page.getByRole('tab', { name: 'Listener' }).click();
    // What each built-in provider runs, and whether it is here.
    const programs = page.getByRole('table', { name: 'Tunnel programs the console can run' });
    await expect(programs.getByRole('row', { name: /^ssh / })).toContainText('/usr/bin/ssh');
    await expect(programs.getByRole('row', { name: /^ssh / })).toContainText('sudo apt install openssh-client');

    // A custom command: what it runs is shown, and it runs only once confirmed.
    const command = sshd.command(0);
    await page.getByRole('combobox', { name: 'Tunnel program' }).selectOption('custom');
    await page.getByRole('textbox', { name: 'Tunnel command', exact: true }).fill(command);
    await page.getByRole('textbox', { name: 'Public URL (optional)' }).fill('http://127.0.0.1:{remotePort}');
    await page.getByRole('button', { name: 'Save tunnel choice' }).click();
    const preview = page.getByRole('group', { name: 'Runs without a shell' });
    await expect(preview).toContainText('Program: /usr/bin/ssh');
    await expect(preview.getByRole('listitem')).toHaveCount(command.split(' ').length - 1);
    await expect(preview.getByRole('listitem').last()).toHaveText('root@127.0.0.1');
    await expect(page.getByRole('button', { name: 'Start tunnel' })).toHaveCount(0);
    await shot(page, 'tunnel-confirm');
    await page.getByRole('button', { name: 'Confirm and start' }).click();

    await page.getByRole('tab', { name: 'Event log' }).click();
    const line = page.getByRole('status', { name: 'Tunnel', exact: true });
    await expect(line).toContainText(/Tunnel live at http:\/\/127\.0\.0\.1:\d+ \(checked /);
    const first = /http:\/\/127\.0\.0\.1:\d+/.exec((await line.textContent()) ?? '')![0];
    await expect.poll(hooks).toEqual([expect.stringMatching(new RegExp(`^${first}/hooks/`))]);
    // The stand-in's events come in through it.
    await sb.simulator.step();
    const list = page.getByRole('list', { name: 'Events' });
    await expect(list.getByRole('button', { name: /\bSigned$/ }).first()).toBeVisible();
    await shot(page, 'tunnel-live');

    // The far end goes away and the tunnel program with it: the reason, and a countdown.
    await sshd.stop();
    for (const pid of await sshd.clients()) process.kill(pid, 'SIGKILL');
    await expect(line).toContainText(/Tunnel restarting in \d+ s: .*Connection refused/);
    await shot(page, 'tunnel-restarting');

    // The far end is back: live again, at a new address, registered again.
    await sshd.start();
    await expect(line).toContainText(/Tunnel live at http:\/\/127\.0\.0\.1:\d+/);
    const second = /http:\/\/127\.0\.0\.1:\d+/.exec((await line.textContent()) ?? '')![0];
    expect(second).not.toBe(first);
    await expect.poll(hooks).toEqual([expect.stringMatching(new RegExp(`^${second}/hooks/`))]);
    // The counter of accepted events moves (the list shows only the rows in view).
    const accepted = page.getByRole('region', { name: 'Listener counters' }).getByRole('definition').first();
    const before = Number(await accepted.textContent());
    await sb.simulator.step();
    await expect.poll(async () => Number(await accepted.textContent())).toBeGreaterThan(before);

    // Quietly beside the live indicator.
    await rail(page, 'Sessions').click();
    await expect(page.getByRole('status', { name: 'Tunnel live' })).toBeVisible();
    await shot(page, 'tunnel-indicator');

    await openEvents(page);
    await page.getByRole('tab', { name: 'Listener' }).click();
    await page.getByRole('button', { name: 'Stop tunnel' }).click();
    await expect(page.getByRole('status', { name: 'Tunnel state: Stopped' })).toBeVisible();
    await page.getByRole('tab', { name: 'Event log' }).click();
    await expect(line).toHaveText('Tunnel stopped.');
    await rail(page, 'Sessions').click();
    await expect(page.getByRole('status', { name: /^Tunnel / })).toHaveCount(0);
    await expect.poll(() => sshd.clients()).toEqual([]);
  } finally {
    await host.close();
  }
});
