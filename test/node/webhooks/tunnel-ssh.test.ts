import { test, expect } from '@playwright/test';
import { deliverSigned } from '../../support/webhooks';
import {
  checkThroughTunnel,
  parseCommandLine,
  startTunnel,
  startWebhookListener,
  superviseTunnel,
  type ReceivedEvent,
  type SupervisedTunnelState,
} from '../../../src-main/webhooks';
import { openDemoConsole } from '../../support/console';
import { serviceApi, type Rec } from '../../support/web';
import { freePort, sshMissing, startSshd, type Sshd } from '../../support/sshd';
import { alive } from '../../support/processes';
import { tempDirs } from '../../support/temp-dirs';

/**
 * The tunnel with a real tunnel program: OpenSSH's reverse forward on loopback, through a
 * throwaway sshd, into the listener.
 */
const missing = sshMissing();
test.skip(missing !== null, `No real ssh tunnel here: ${missing}`);

const fresh = tempDirs('webhooks-ssh-');
const SECRET = `whsec_${Buffer.from('tunnel test secret, 32 bytes long!').toString('base64')}`;

let sshd: Sshd;
test.beforeAll(async () => {
  sshd = await startSshd(await fresh());
});
test.afterAll(async () => {
  await sshd?.stop();
});

function post(url: string, id: string, secret = SECRET, group = 'bot', type = 'bot.tag') {
  return deliverSigned(url, secret, { id, group, type, occurredAt: new Date().toISOString(), data: { sessionId: 1, tag: 'vip' } });
}

test('signed events go through ssh -R into the listener; a killed ssh is noticed, restarted, and carries events again', async () => {
  const received: ReceivedEvent[] = [];
  const listener = await startWebhookListener({
    port: 0,
    pathSecret: 'tunnel-test-path-1',
    signingSecret: SECRET,
    stateDir: await fresh(),
    onEvent: (e) => void received.push(e),
  });
  const far = await freePort();
  const command = parseCommandLine(sshd.command(far), listener.port);
  const states: SupervisedTunnelState[] = [];
  const tunnel = superviseTunnel({
    start: () => startTunnel({ command, urlTemplate: `http://127.0.0.1:${far}` }),
    check: (url) => {
      listener.allowHost(new URL(url).host);
      return checkThroughTunnel(`${url}${listener.path}`, SECRET);
    },
    checkEveryMs: 2000,
  });
  tunnel.onState((s) => states.push(s));
  try {
    await expect.poll(() => tunnel.state.status, { timeout: 15_000 }).toBe('running');
    expect(tunnel.state).toMatchObject({ url: `http://127.0.0.1:${far}` });
    const publicUrl = `http://127.0.0.1:${far}${listener.path}`;

    // Through the tunnel: verified, stored, handed on once; a repeat is a duplicate.
    const first = await post(publicUrl, 'evt_ssh_1');
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ status: 'accepted' });
    expect(await (await post(publicUrl, 'evt_ssh_1')).json()).toEqual({ status: 'duplicate' });
    expect((await post(publicUrl, 'evt_ssh_forged', `whsec_${Buffer.from('another secret').toString('base64')}`)).status).toBe(401);
    await expect.poll(() => received.map((e) => e.id)).toEqual(['evt_ssh_1']);
    expect(received[0]).toMatchObject({ signature: 'valid', known: true });

    // The self-checks went through too (the state's checkedAt moves) but are no customer events.
    const checked = tunnel.state.status === 'running' ? tunnel.state.checkedAt : 0;
    await expect.poll(() => (tunnel.state.status === 'running' ? tunnel.state.checkedAt : 0), { timeout: 10_000 }).toBeGreaterThan(checked);
    expect(listener.eventLog().map((e) => e.id)).toEqual(['evt_ssh_1']);
    expect(listener.stats()).toMatchObject({ accepted: 1, duplicates: 1 });

    // The tunnel program dies: noticed within 10 s, started again, and events flow again.
    const pid = tunnel.pid!;
    expect(alive(pid)).toBe(true);
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    await expect.poll(() => tunnel.state.status, { timeout: 10_000 }).not.toBe('running');
    const noticedMs = Date.now() - killedAt;
    expect(noticedMs).toBeLessThan(10_000);
    const restarting = states.find((s) => s.status === 'restarting');
    expect(restarting).toMatchObject({ reason: expect.stringContaining('signal SIGKILL') });
    await expect.poll(() => tunnel.state.status, { timeout: 15_000 }).toBe('running');
    expect(tunnel.pid).not.toBe(pid);
    expect((await post(publicUrl, 'evt_ssh_2')).status).toBe(200);
    await expect.poll(() => received.map((e) => e.id)).toEqual(['evt_ssh_1', 'evt_ssh_2']);
    console.log(`tunnel: ssh killed, noticed after ${noticedMs} ms, live again after ${Date.now() - killedAt} ms`);

    // A wake from sleep starts it again at once, whatever the last check said.
    const beforeWake = tunnel.pid!;
    tunnel.wake();
    expect(tunnel.state).toMatchObject({ status: 'restarting', reason: 'The computer woke from sleep; the tunnel starts again.' });
    await expect.poll(() => tunnel.state.status, { timeout: 15_000 }).toBe('running');
    expect(tunnel.pid).not.toBe(beforeWake);
    expect(alive(beforeWake)).toBe(false);
    expect((await post(publicUrl, 'evt_ssh_3')).status).toBe(200);
    await expect.poll(() => received.map((e) => e.id)).toEqual(['evt_ssh_1', 'evt_ssh_2', 'evt_ssh_3']);
  } finally {
    await tunnel.stop();
    await listener.close();
  }
  expect(tunnel.state).toEqual({ status: 'stopped' });
  expect(await sshd.clients()).toEqual([]);
});

test('a tunnel that stops forwarding while ssh still runs (the far end frozen) is caught by the self-check and restarted', async () => {
  const listener = await startWebhookListener({
    port: 0,
    pathSecret: 'tunnel-test-path-2',
    signingSecret: SECRET,
    stateDir: await fresh(),
    onEvent: () => undefined,
  });
  // The frozen end keeps its far port: each run asks sshd for a new one.
  const tunnel = superviseTunnel({
    start: () => startTunnel({ command: parseCommandLine(sshd.command(0), listener.port), urlTemplate: 'http://127.0.0.1:{remotePort}' }),
    check: (url) => {
      listener.allowHost(new URL(url).host);
      return checkThroughTunnel(`${url}${listener.path}`, SECRET, 1000);
    },
    checkEveryMs: 1000,
    recheckMs: 300,
  });
  const frozen: number[] = [];
  try {
    await expect.poll(() => tunnel.state.status, { timeout: 15_000 }).toBe('running');
    const pid = tunnel.pid!;
    // The server side of the connection stops: the far port still accepts, nothing comes back.
    frozen.push(...(await sshd.sessions()));
    expect(frozen.length).toBeGreaterThan(0);
    for (const p of frozen) process.kill(p, 'SIGSTOP');
    expect(alive(pid)).toBe(true);
    await expect.poll(() => tunnel.state.status, { timeout: 10_000 }).toBe('restarting');
    expect(tunnel.state.status === 'restarting' && tunnel.state.reason).toMatch(
      /^The tunnel stopped forwarding\. The self-check through the tunnel got no answer/,
    );
    // The old program is ended before the new one starts, and the new one forwards.
    await expect.poll(() => alive(pid)).toBe(false);
    await expect.poll(() => tunnel.state.status, { timeout: 15_000 }).toBe('running');
    expect(tunnel.pid).not.toBe(pid);
  } finally {
    for (const p of frozen) process.kill(p, 'SIGKILL');
    await tunnel.stop();
    await listener.close();
  }
});

test('the console runs a confirmed ssh command, registers its URL with the stand-in, and registers the new URL after a restart', async () => {
  const c = await openDemoConsole();
  const sb = c.standin;
  try {
    const admin = serviceApi(sb.baseUrl, sb.tokens.admin);
    const hooks = async () => ((await admin.get('/chatapi/1.0/api/v2/hook')).results as Rec[]).map((h) => String(h.url));
    const local = (await c.call('webhooks:status', {})).localUrl!;
    expect(await hooks()).toEqual([local]);

    // sshd picks the far port (-R 127.0.0.1:0:...): the URL comes from ssh's "Allocated port" line.
    const command = sshd.command(0);
    const saved = await c.call('webhooks:setTunnel', { provider: 'custom', command, urlTemplate: 'http://127.0.0.1:{remotePort}' });
    expect(saved.tunnel).toMatchObject({ confirmed: false, urlTemplate: 'http://127.0.0.1:{remotePort}' });
    expect(saved.tunnel.preview).toEqual({ program: '/usr/bin/ssh', args: parseCommandLine(command, saved.port!).args });
    expect(saved.tunnel.programs.map((p) => [p.provider, p.program])).toEqual([
      ['cloudflared', 'cloudflared'],
      ['ngrok', 'ngrok'],
      ['ssh', 'ssh'],
    ]);
    expect((await c.fail('webhooks:startTunnel', {})).message).toMatch(/Confirm the tunnel command/);
    expect((await c.fail('webhooks:startTunnel', { confirm: 'something else' })).message).toMatch(/Confirm the tunnel command/);
    await c.call('webhooks:startTunnel', { confirm: command });

    const live = async () => {
      await expect.poll(async () => (await c.call('webhooks:status', {})).tunnel.status, { timeout: 15_000 }).toBe('running');
      return (await c.call('webhooks:status', {})).tunnel;
    };
    const first = await live();
    expect(first.confirmed).toBe(true);
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.publicUrl).toBe(`${first.url}${new URL(local).pathname}`);
    // Registered with the tunnel's address instead of the local one.
    await expect.poll(hooks).toEqual([first.publicUrl]);

    // The stand-in's events arrive through the tunnel.
    const ids = () =>
      c
        .events('webhooks:events')
        .flatMap((b) => b.entries)
        .map((r) => r.id);
    const before = ids().length;
    await sb.simulator.step();
    await expect.poll(() => ids().length, { timeout: 10_000 }).toBeGreaterThan(before);

    // ssh dies: noticed, restarted on a new far port, and the new address registered.
    const [pid] = await sshd.clients();
    expect(pid).toBeDefined();
    const killedAt = Date.now();
    process.kill(pid!, 'SIGKILL');
    await expect.poll(async () => (await c.call('webhooks:status', {})).tunnel.status, { timeout: 10_000 }).not.toBe('running');
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    const second = await live();
    expect(second.url).not.toBe(first.url);
    await expect.poll(hooks).toEqual([second.publicUrl]);
    const after = ids().length;
    await sb.simulator.step();
    await expect.poll(() => ids().length, { timeout: 10_000 }).toBeGreaterThan(after);
    // And a sender's own event through the new address.
    const secret = (await c.call('webhooks:newSecret', {})).newSecret!;
    // A new secret restarts the listener on the same port; the tunnel keeps forwarding to it.
    await live();
    // Sent as a service sends: what was not taken is sent again (under load the tunnel may still be
    // re-checking the restarted listener); the same event id is counted once.
    const sent = async () =>
      (await post((await c.call('webhooks:status', {})).tunnel.publicUrl!, 'evt_console_ssh_1', secret).catch(() => ({ status: 0 })))
        .status;
    await expect.poll(sent, { timeout: 15_000 }).toBe(200);
    await expect.poll(ids).toContain('evt_console_ssh_1');

    // Stopped: the local address is registered again and ssh is gone.
    const stopped = await c.call('webhooks:stopTunnel', {});
    expect(stopped.tunnel).toMatchObject({ status: 'stopped', url: null, publicUrl: null });
    await expect.poll(hooks).toEqual([local]);
    await expect.poll(() => sshd.clients()).toEqual([]);

    // The same command saved again stays confirmed; a changed one needs confirming again.
    expect(
      (await c.call('webhooks:setTunnel', { provider: 'custom', command, urlTemplate: 'http://127.0.0.1:{remotePort}' })).tunnel.confirmed,
    ).toBe(true);
    expect((await c.call('webhooks:setTunnel', { provider: 'custom', command: `${command} -v`, urlTemplate: '' })).tunnel.confirmed).toBe(
      false,
    );
    // The built-in ssh provider shows what it would run (not started here: it reaches localhost.run).
    const builtIn = await c.call('webhooks:setTunnel', { provider: 'ssh', command: '' });
    expect(builtIn.tunnel.confirmed).toBe(true);
    expect(builtIn.tunnel.preview?.program).toBe(builtIn.tunnel.programs.find((p) => p.provider === 'ssh')?.path);
    expect(builtIn.tunnel.preview?.args.slice(-3)).toEqual(['-R', `80:127.0.0.1:${builtIn.port}`, 'nokey@localhost.run']);
  } finally {
    await c.app.close();
  }
});

test('after the process was frozen as long as a sleep, the console starts the tunnel again and registers its new address', async () => {
  test.setTimeout(90_000);
  const c = await openDemoConsole();
  try {
    const command = sshd.command(0);
    await c.call('webhooks:setTunnel', { provider: 'custom', command, urlTemplate: 'http://127.0.0.1:{remotePort}' });
    await c.call('webhooks:startTunnel', { confirm: command });
    await expect.poll(async () => (await c.call('webhooks:status', {})).tunnel.status, { timeout: 15_000 }).toBe('running');
    const before = (await c.call('webhooks:status', {})).tunnel.url;
    const [pid] = await sshd.clients();

    // What a sleep looks like from inside: the event loop does not run for longer than the gap
    // the console's sleep detector looks for (20 s); the tunnel program itself is fine.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 21_000);

    // The program that was fine is replaced at once (not after a failed check), at a new address.
    await expect.poll(() => alive(pid!), { timeout: 5_000 }).toBe(false);
    await expect
      .poll(async () => (await c.call('webhooks:status', {})).tunnel, { timeout: 15_000 })
      .toMatchObject({ status: 'running', url: expect.not.stringMatching(`^${before}$`) });
    const after = await c.call('webhooks:status', {});
    const admin = serviceApi(c.standin.baseUrl, c.standin.tokens.admin);
    await expect
      .poll(async () => ((await admin.get('/chatapi/1.0/api/v2/hook')).results as Rec[]).map((h) => h.url))
      .toEqual([after.tunnel.publicUrl]);
    await c.call('webhooks:stopTunnel', {});
  } finally {
    await c.app.close();
  }
});

test("the far end's Host is accepted only once the listener is told the tunnel's host", async () => {
  const listener = await startWebhookListener({
    port: 0,
    pathSecret: 'tunnel-test-path-3',
    signingSecret: SECRET,
    stateDir: await fresh(),
    onEvent: () => undefined,
  });
  const far = await freePort();
  const t = startTunnel({ command: parseCommandLine(sshd.command(far), listener.port), urlTemplate: `http://127.0.0.1:${far}` });
  try {
    const url = `http://127.0.0.1:${far}${listener.path}`;
    // Until ssh forwards, the check finds nothing there; then the listener refuses the foreign Host.
    await expect.poll(() => checkThroughTunnel(url, SECRET), { timeout: 10_000 }).toMatch(/answered 421/);
    listener.allowHost(`127.0.0.1:${far}`);
    expect(await checkThroughTunnel(url, SECRET)).toBeNull();
    // Signed with another secret, the check does not pass.
    expect(await checkThroughTunnel(url, `whsec_${Buffer.from('not it').toString('base64')}`)).toMatch(/answered 401/);
  } finally {
    await t.stop();
    await listener.close();
  }
});
