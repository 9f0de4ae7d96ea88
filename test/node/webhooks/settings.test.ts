import { test, expect } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signedHeaders } from '../../support/webhooks';
import { openDemoConsole as openConsole } from '../../support/console';

function post(url: string, body: string, headers: Record<string, string>) {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
}

const signed = (secret: string, id: string, body: string) => signedHeaders(secret, id, body);

const envelope = (id: string, group = 'bot', type = 'bot.tag') =>
  JSON.stringify({ id, group, type, occurredAt: new Date().toISOString(), data: { sessionId: 1, tag: 'x' } });

test('signing: a new secret is returned once, signed events reach the log as rows, bad signatures only count', async () => {
  const { app, call, events } = await openConsole();
  try {
    const before = await call('webhooks:status', {});
    expect(before.signing).toBe(true);
    expect(before.registered).toBe(true);
    expect(before.localUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/[A-Za-z0-9_-]+$/);

    const { newSecret, status } = await call('webhooks:newSecret', {});
    expect(newSecret).toMatch(/^whsec_/);
    // The address stays the same across the restart ("any free port" reuses the last one).
    expect(status.localUrl).toBe(before.localUrl);
    expect(status.registered).toBe(true);
    // The secret is never pushed, nor returned by the status.
    expect(JSON.stringify(await call('webhooks:status', {}))).not.toContain(newSecret!);

    const url = status.localUrl!;
    const good = envelope('evt_good_1');
    expect((await post(url, good, signed(newSecret!, 'evt_good_1', good))).status).toBe(200);
    const bad = envelope('evt_bad_1');
    expect((await post(url, bad, signed('whsec_' + Buffer.from('not the secret').toString('base64'), 'evt_bad_1', bad))).status).toBe(401);

    await expect
      .poll(() =>
        events('webhooks:events')
          .flatMap((b) => b.entries)
          .map((r) => r.id),
      )
      .toContain('evt_good_1');
    const row = events('webhooks:events')
      .flatMap((b) => b.entries)
      .find((r) => r.id === 'evt_good_1')!;
    expect(row).toMatchObject({ signature: 'valid', known: true, group: 'bot', type: 'bot.tag', cut: false });
    expect(JSON.parse(row.raw)).toMatchObject({ id: 'evt_good_1' });
    expect(
      events('webhooks:events')
        .flatMap((b) => b.entries)
        .map((r) => r.id),
    ).not.toContain('evt_bad_1');

    const after = await call('webhooks:status', {});
    expect(after.refusals['bad-signature']).toBe(1);
    expect(after.lastRefusal).toMatchObject({ reason: 'bad-signature', status: 401 });
    expect(after.counts.refused).toBeGreaterThanOrEqual(1);
    expect((await call('webhooks:log', { text: 'evt_bad_1' })).entries).toEqual([]);
    expect((await call('webhooks:log', { group: 'bot', type: 'bot.tag' })).entries.map((e) => e.id)).toContain('evt_good_1');
    expect((await call('webhooks:entry', { id: 'evt_good_1' })).entry?.raw).toBe(good);
    for (const e of events('webhooks:status')) expect(JSON.stringify(e)).not.toContain(newSecret!);

    // Off: unsigned events are accepted and marked so; the stand-in is registered without a secret.
    const off = await call('webhooks:setSigning', { enabled: false });
    expect(off.newSecret).toBeNull();
    expect(off.status.signing).toBe(false);
    const plain = envelope('evt_plain_1', 'status', 'session.status');
    expect((await post(off.status.localUrl!, plain, {})).status).toBe(200);
    await expect.poll(async () => (await call('webhooks:log', { text: 'evt_plain_1' })).entries[0]?.signature).toBe('unsigned');
    expect(app.standin).not.toBeNull();
  } finally {
    await app.close();
  }
});

test("a taken port fails with the listener's message; a tunnel command is confirmed, checked through its URL, and follows the listener", async () => {
  const { app, call } = await openConsole();
  const blocker: Server = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const taken = (blocker.address() as { port: number }).port;
  const dir = mkdtempSync(join(tmpdir(), 'fake-tunnel-'));
  const script = join(dir, 'tunnel.mjs');
  // A "tunnel" whose public URL is the listener itself: the plumbing without a network.
  writeFileSync(script, `console.log('forwarding nothing for port ' + process.argv[2]);\nsetInterval(() => {}, 1000);\n`);
  try {
    const failed = await call('webhooks:setPort', { port: taken });
    expect(failed.state).toBe('failed');
    expect(failed.detail).toBe(`Port ${taken} is in use by another program; choose another in Settings.`);
    expect(failed.portSetting).toBe(taken);

    const back = await call('webhooks:setPort', { port: 0 });
    expect(back.state).toBe('running');
    const port = back.port!;

    await expect(call('webhooks:startTunnel', {})).rejects.toThrow(/Choose a tunnel program/);
    const command = `"${process.execPath}" "${script}" {port}`;
    const saved = await call('webhooks:setTunnel', { provider: 'custom', command, urlTemplate: 'http://127.0.0.1:{port}' });
    expect(saved.tunnel.preview).toEqual({ program: process.execPath, args: [script, String(port)] });
    await expect(call('webhooks:startTunnel', {})).rejects.toThrow(/Confirm the tunnel command/);
    const started = await call('webhooks:startTunnel', { confirm: command });
    expect(['starting', 'running']).toContain(started.tunnel.status);
    await expect.poll(async () => (await call('webhooks:status', {})).tunnel.status).toBe('running');
    const running = await call('webhooks:status', {});
    expect(running.tunnel.url).toBe(`http://127.0.0.1:${port}`);
    expect(running.tunnel.publicUrl).toBe(running.localUrl);

    // A new explicit port restarts the listener, and the tunnel follows it.
    blocker.close();
    await new Promise<void>((resolve) => blocker.once('close', () => resolve()));
    const moved = await call('webhooks:setPort', { port: taken });
    expect(moved.port).toBe(taken);
    await expect
      .poll(async () => (await call('webhooks:status', {})).tunnel)
      .toMatchObject({ status: 'running', url: `http://127.0.0.1:${taken}` });

    const stopped = await call('webhooks:stopTunnel', {});
    expect(stopped.tunnel).toMatchObject({ status: 'stopped', url: null, publicUrl: null });
  } finally {
    blocker.close();
    await app.close();
  }
});
