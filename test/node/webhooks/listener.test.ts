import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import net from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { request } from 'undici';
import { startWebhookListener, type WebhookListener, type WebhookListenerOptions } from '../../../src-main/webhooks/listener';
import type { ReceivedEvent } from '../../../src-main/webhooks/types';
import { signedHeaders } from '../../support/webhooks';
import { tempDirs } from '../../support/temp-dirs';
import { ROOT } from '../../support/root';

const SECRET = 'whsec_' + Buffer.from('listener test secret, 32 bytes!!').toString('base64');
const PATH_SECRET = 'test-path-secret-123';

const stateDir = tempDirs('webhooks-test-');

type Opts = Partial<WebhookListenerOptions> & { stateDir: string };
async function start(o: Opts): Promise<{ l: WebhookListener; got: ReceivedEvent[] }> {
  const got: ReceivedEvent[] = [];
  const l = await startWebhookListener({
    port: 0,
    pathSecret: PATH_SECRET,
    signingSecret: SECRET,
    onEvent: (e) => {
      got.push(e);
    },
    ...o,
  });
  return { l, got };
}

const envelope = (id: string, group = 'messages', type = 'message.created') =>
  JSON.stringify({ id, group, type, occurredAt: '2025-01-15T12:00:00Z', data: { sessionId: 42, text: `text of ${id}` } });

const sign = (id: string, body: string, ts = Math.floor(Date.now() / 1000), secret = SECRET) => signedHeaders(secret, id, body, ts);

async function post(url: string, body: string, headers: Record<string, string> = {}) {
  const r = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  const json = (await r.body.json()) as { status: string; reason?: string; message?: string };
  return { status: r.statusCode, headers: r.headers, json };
}

const sendSigned = (l: WebhookListener, id: string, body = envelope(id)) => post(l.url, body, sign(id, body));

test('accepts a valid signature and refuses a wrong, an expired or a missing one', async () => {
  const { l, got } = await start({ stateDir: await stateDir() });
  try {
    expect(l.signatureMode).toBe('required');
    const body = envelope('evt_a');
    const ok = await post(l.url, body, sign('evt_a', body));
    expect(ok.status).toBe(200);
    expect(ok.json.status).toBe('accepted');

    const wrong = await post(l.url, envelope('evt_b').replace('text of', 'TEXT OF'), sign('evt_b', envelope('evt_b')));
    expect(wrong.status).toBe(401);
    expect(wrong.json.reason).toBe('bad-signature');
    const expired = await post(l.url, envelope('evt_c'), sign('evt_c', envelope('evt_c'), Math.floor(Date.now() / 1000) - 6 * 60));
    expect(expired.status).toBe(401);
    expect(expired.json.reason).toBe('stale-signature');
    const otherSecret = await post(l.url, envelope('evt_d'), sign('evt_d', envelope('evt_d'), undefined, 'not the secret'));
    expect(otherSecret.status).toBe(401);
    const unsigned = await post(l.url, envelope('evt_e'));
    expect(unsigned.status).toBe(401);
    expect(unsigned.json.reason).toBe('missing-signature');

    expect((await sendSigned(l, 'evt_f')).status).toBe(200);
    await expect.poll(() => got.map((e) => e.id)).toEqual(['evt_a', 'evt_f']);
    expect(got[0]).toMatchObject({ signature: 'valid', known: true, raw: body, event: { group: 'messages', type: 'message.created' } });
    expect(l.stats()).toMatchObject({ accepted: 2, rejected: 4, duplicates: 0 });
  } finally {
    await l.close();
  }
});

test('without a signing secret accepts events and marks them unsigned', async () => {
  const { l, got } = await start({ stateDir: await stateDir(), signingSecret: undefined });
  try {
    expect(l.signatureMode).toBe('off');
    expect((await post(l.url, envelope('u1'))).status).toBe(200);
    await expect.poll(() => got.length).toBe(1);
    expect(got[0]).toMatchObject({ id: 'u1', signature: 'unsigned', known: true });
    expect(l.eventLog()[0]).toMatchObject({ id: 'u1', signature: 'unsigned' });
  } finally {
    await l.close();
  }
});

/** Raw HTTP over a socket, so the test sees exactly what the server does with the connection. */
function rawConnection(port: number) {
  const sock = net.connect(port, '127.0.0.1');
  let received = '';
  let closed = false;
  sock.setEncoding('latin1');
  sock.on('data', (d: string) => (received += d));
  sock.on('error', () => undefined);
  sock.on('close', () => (closed = true));
  return {
    sock,
    get received() {
      return received;
    },
    get closed() {
      return closed;
    },
  };
}

test('an announced oversize body is refused with 413 without being read', async () => {
  const { l } = await start({ stateDir: await stateDir(), maxBodyBytes: 64 * 1024 });
  try {
    const c = rawConnection(l.port);
    c.sock.write(
      `POST ${l.path} HTTP/1.1\r\nHost: 127.0.0.1:${l.port}\r\nContent-Type: application/json\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n`,
    );
    await expect.poll(() => c.closed).toBe(true);
    expect(c.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(l.stats().rejected).toBe(1);
  } finally {
    await l.close();
  }
});

test('a chunked body that never ends gets 413 and stops being read', async () => {
  const max = 64 * 1024;
  const { l, got } = await start({ stateDir: await stateDir(), maxBodyBytes: max });
  try {
    const c = rawConnection(l.port);
    c.sock.write(
      `POST ${l.path} HTTP/1.1\r\nHost: 127.0.0.1:${l.port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const chunk = Buffer.from(`4000\r\n${'['.repeat(0x4000)}\r\n`);
    const limit = 256 * 1024 * 1024;
    let written = 0;
    // A sender that never stops: it writes until the server answers and closes, or the limit.
    while (written < limit && !c.closed && !c.received.includes('\r\n\r\n')) {
      written += chunk.length;
      if (!c.sock.write(chunk)) {
        await Promise.race([once(c.sock, 'drain'), once(c.sock, 'close'), once(c.sock, 'data')]);
      }
    }
    expect(c.received).toMatch(/^HTTP\/1\.1 413 /);
    await expect.poll(() => c.closed).toBe(true);
    // Had the server kept reading, the loop would have pushed the whole 256 MiB through.
    expect(written).toBeLessThan(32 * 1024 * 1024);
    expect(got).toHaveLength(0);
    expect(l.stats()).toMatchObject({ rejected: 1, accepted: 0 });
  } finally {
    await l.close();
  }
});

test('malformed JSON is 400; an unknown group and an unknown shape are accepted and kept', async () => {
  const { l, got } = await start({ stateDir: await stateDir() });
  try {
    const bad = await post(l.url, '{"id": "x",', sign('m0', '{"id": "x",'));
    expect(bad.status).toBe(400);
    expect(bad.json.reason).toBe('not-json');

    expect((await sendSigned(l, 'm1', envelope('m1', 'payments', 'payment.made'))).status).toBe(200);
    expect((await sendSigned(l, 'm2', '[{"something":"else"}]')).status).toBe(200);
    expect((await sendSigned(l, 'm3', envelope('m3', 'sessions', 'session.closed'))).status).toBe(200);
    await expect.poll(() => got.length).toBe(3);
    expect(got[0]).toMatchObject({ id: 'm1', known: false, event: { group: 'payments' } });
    expect(got[1]).toMatchObject({ id: 'm2', known: false, raw: '[{"something":"else"}]' });
    expect(got[1]!.event).toBeUndefined();

    const log = l.eventLog();
    expect(log.map((e) => e.id)).toEqual(['m3', 'm2', 'm1']);
    expect(log.find((e) => e.id === 'm2')).toMatchObject({ known: false, signature: 'valid', raw: '[{"something":"else"}]' });
    expect(l.eventLog({ group: 'payments' }).map((e) => e.id)).toEqual(['m1']);
    expect(l.eventLog({ type: 'session.closed' }).map((e) => e.id)).toEqual(['m3']);
    expect(l.eventLog({ text: 'SOMETHING' }).map((e) => e.id)).toEqual(['m2']);
    expect(l.eventLog({ limit: 2 }).map((e) => e.id)).toEqual(['m3', 'm2']);
  } finally {
    await l.close();
  }
});

test('answers only on its path, for POST, with its own Host', async () => {
  const { l, got } = await start({ stateDir: await stateDir() });
  try {
    const base = `http://127.0.0.1:${l.port}`;
    expect((await post(`${base}/hooks/another-secret-123`, envelope('p1'), sign('p1', envelope('p1')))).status).toBe(404);
    expect((await request(`${base}/`, { method: 'GET' })).statusCode).toBe(404);
    expect((await request(l.url, { method: 'GET' })).statusCode).toBe(405);

    const withHost = (host: string) =>
      new Promise<number>((done, fail) => {
        const body = envelope(`h-${host}`);
        const req = httpRequest(
          l.url,
          { method: 'POST', headers: { host, 'content-type': 'application/json', ...sign(`h-${host}`, body) } },
          (res) => {
            res.resume();
            done(res.statusCode ?? 0);
          },
        );
        req.on('error', fail);
        req.end(body);
      });
    expect(await withHost(`evil.example:${l.port}`)).toBe(421);
    expect(await withHost(`localhost:${l.port}`)).toBe(200);
    await expect.poll(() => got.map((e) => e.id)).toEqual([`h-localhost:${l.port}`]);
  } finally {
    await l.close();
  }
});

test('a duplicate is acknowledged without a second delivery, also after a restart', async () => {
  const dir = await stateDir();
  const first = await start({ stateDir: dir });
  try {
    expect((await sendSigned(first.l, 'd1')).json.status).toBe('accepted');
    const again = await sendSigned(first.l, 'd1');
    expect(again.status).toBe(200);
    expect(again.json.status).toBe('duplicate');
    expect((await sendSigned(first.l, 'd2')).status).toBe(200);
    await expect.poll(() => first.got.map((e) => e.id)).toEqual(['d1', 'd2']);
    expect(first.l.stats()).toMatchObject({ accepted: 2, duplicates: 1 });
  } finally {
    await first.l.close();
  }

  const second = await start({ stateDir: dir });
  try {
    const afterRestart = await sendSigned(second.l, 'd1');
    expect(afterRestart.status).toBe(200);
    expect(afterRestart.json.status).toBe('duplicate');
    expect((await sendSigned(second.l, 'd3')).json.status).toBe('accepted');
    await expect.poll(() => second.got.map((e) => e.id)).toEqual(['d3']);
    // The event log was persisted too.
    expect(second.l.eventLog().map((e) => e.id)).toEqual(['d3', 'd2', 'd1']);
  } finally {
    await second.l.close();
  }
});

test('accepted events not yet processed are replayed in order after a restart', async () => {
  const dir = await stateDir();
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const firstGot: string[] = [];
  const first = await start({
    stateDir: dir,
    onEvent: async (e) => {
      firstGot.push(e.id);
      await gate;
    },
  });
  for (const id of ['r1', 'r2', 'r3']) expect((await sendSigned(first.l, id)).status).toBe(200);
  await expect.poll(() => firstGot).toEqual(['r1']);
  expect(first.l.stats().queued).toBe(3);
  const closing = first.l.close();
  release();
  await closing;
  expect(firstGot).toEqual(['r1']);

  const second = await start({ stateDir: dir });
  try {
    await expect.poll(() => second.got.map((e) => e.id)).toEqual(['r2', 'r3']);
    // Replayed events carry what the live ones carry.
    expect(second.got[0]).toMatchObject({ signature: 'valid', known: true, event: { id: 'r2', type: 'message.created' } });
  } finally {
    await second.l.close();
  }

  const third = await start({ stateDir: dir });
  try {
    expect((await sendSigned(third.l, 'r4')).status).toBe(200);
    await expect.poll(() => third.got.map((e) => e.id)).toEqual(['r4']);
  } finally {
    await third.l.close();
  }
});

test('every acknowledged event survives a crash of the process', async () => {
  const dir = await stateDir();
  const script = join(dir, 'crash-child.mjs');
  const listenerUrl = pathToFileURL(join(ROOT, 'src-main/webhooks/listener.ts')).href;
  await writeFile(
    script,
    `import { startWebhookListener } from ${JSON.stringify(listenerUrl)};
const l = await startWebhookListener({
  port: 0, pathSecret: ${JSON.stringify(PATH_SECRET)}, signingSecret: ${JSON.stringify(SECRET)},
  stateDir: ${JSON.stringify(join(dir, 'state'))},
  onEvent: () => new Promise(() => {}), // busy forever: everything after the first stays queued
});
process.stdout.write(JSON.stringify({ url: l.url }) + '\\n');
`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [line] = (await once(child.stdout, 'data')) as [Buffer];
    const { url } = JSON.parse(line.toString()) as { url: string };
    const ids = ['c1', 'c2', 'c3', 'c4', 'c5'];
    const results = await Promise.all(ids.map((id) => post(url, envelope(id), sign(id, envelope(id)))));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  } finally {
    child.kill('SIGKILL');
    if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
  }

  const after = await start({ stateDir: join(dir, 'state') });
  try {
    // All five come back (the one being processed at the crash included: at least once).
    await expect.poll(() => after.got.map((e) => e.id).sort()).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    expect((await sendSigned(after.l, 'c3')).json.status).toBe('duplicate');
  } finally {
    await after.l.close();
  }
});

test('a flood beyond the queue bound gets 503, and every accepted event is delivered exactly once', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const delivered: string[] = [];
  const { l } = await start({
    stateDir: await stateDir(),
    queueLimit: 5,
    onEvent: async (e) => {
      await gate;
      delivered.push(e.id);
    },
  });
  try {
    const ids = Array.from({ length: 40 }, (_, i) => `f${i}`);
    const flood = await Promise.all(ids.map((id) => sendSigned(l, id)));
    const ok = flood.filter((r) => r.status === 200);
    const busy = flood.filter((r) => r.status === 503);
    expect(ok).toHaveLength(5);
    expect(busy).toHaveLength(35);
    expect(busy.every((r) => r.headers['retry-after'] === '2')).toBe(true);
    expect(l.stats()).toMatchObject({ accepted: 5, busy: 35, queued: 5 });

    release();
    // The sender retries what was refused, and (as senders do) some of what was accepted too.
    let remaining = ids.filter((_, i) => flood[i]!.status !== 200);
    for (let round = 0; round < 30 && remaining.length > 0; round++) {
      await expect.poll(() => l.stats().queued).toBe(0);
      const retry = await Promise.all(remaining.map((id) => sendSigned(l, id)));
      remaining = remaining.filter((_, i) => retry[i]!.status !== 200);
    }
    expect(remaining).toEqual([]);
    const resend = await Promise.all(ids.map((id) => sendSigned(l, id)));
    expect(resend.every((r) => r.status === 200 && r.json.status === 'duplicate')).toBe(true);

    expect((await sendSigned(l, 'last')).status).toBe(200);
    await expect.poll(() => delivered.at(-1)).toBe('last');
    expect(delivered).toHaveLength(41);
    expect(new Set(delivered).size).toBe(41);
  } finally {
    release();
    await l.close();
  }
});

test('binds 127.0.0.1 only: no other address of this machine reaches it', async () => {
  const { l } = await start({ stateDir: await stateDir() });
  const connects = (host: string, port: number) =>
    new Promise<boolean>((done) => {
      const s = net.connect({ host, port });
      s.once('connect', () => {
        s.destroy();
        done(true);
      });
      s.once('error', () => done(false));
    });
  const others = Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && !a.internal && !a.address.startsWith('fe80'))
    .map((a) => a!.address);
  // Control: something bound to every address is reachable this way, so a refusal below means
  // the listener is not bound there, not that the probe cannot work.
  const control = net.createServer((s) => s.destroy());
  control.listen(0, '::');
  await once(control, 'listening');
  const controlPort = (control.address() as net.AddressInfo).port;
  try {
    expect(l.host).toBe('127.0.0.1');
    expect(await connects('127.0.0.1', l.port)).toBe(true);
    expect(await connects('::1', l.port)).toBe(false);
    test.skip(others.length === 0, 'this machine has no non-loopback address to probe');
    for (const address of others) {
      expect(await connects(address, controlPort), `control reachable on ${address}`).toBe(true);
      expect(await connects(address, l.port), `listener reachable on ${address}`).toBe(false);
    }
  } finally {
    control.close();
    await l.close();
  }
});

test('a port already taken gives a plain message', async () => {
  const blocker = net.createServer();
  blocker.listen(0, '127.0.0.1');
  await once(blocker, 'listening');
  const port = (blocker.address() as net.AddressInfo).port;
  const dir = await stateDir();
  try {
    await expect(start({ stateDir: dir, port })).rejects.toThrow(`Port ${port} is in use by another program; choose another in Settings.`);
  } finally {
    blocker.close();
  }
  // The failed start released its state: the same directory opens again.
  const { l } = await start({ stateDir: dir });
  await l.close();
});

test('compaction keeps the state small and loses nothing', async () => {
  const dir = await stateDir();
  const first = await start({ stateDir: dir, compactBytes: 2048 });
  try {
    for (let i = 0; i < 30; i++) expect((await sendSigned(first.l, `k${i}`)).status).toBe(200);
    await expect.poll(() => first.got.length).toBe(30);
    // One journal left, of a later generation than the first: it was compacted, repeatedly.
    const journals = async () => (await readdir(dir)).filter((f) => f.startsWith('journal-'));
    await expect.poll(async () => (await journals()).length).toBe(1);
    const [journal] = await journals();
    expect(Number(/journal-(\d+)/.exec(journal!)![1])).toBeGreaterThan(3);
  } finally {
    await first.l.close();
  }
  const second = await start({ stateDir: dir, compactBytes: 2048 });
  try {
    for (const id of ['k0', 'k17', 'k29']) expect((await sendSigned(second.l, id)).json.status).toBe('duplicate');
    expect(second.l.eventLog()).toHaveLength(30);
    expect(second.got).toHaveLength(0);
  } finally {
    await second.l.close();
  }
});

test('the same event sent twice at once is acknowledged twice and delivered once', async () => {
  const { l, got } = await start({ stateDir: await stateDir() });
  try {
    const answers = await Promise.all(Array.from({ length: 6 }, () => sendSigned(l, 'twin')));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.map((a) => a.json.status).sort()).toEqual(['accepted', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate']);
    expect((await sendSigned(l, 'after-twin')).status).toBe(200);
    await expect.poll(() => got.map((e) => e.id)).toEqual(['twin', 'after-twin']);
  } finally {
    await l.close();
  }
});

test('concurrent events are all kept and survive a restart', async () => {
  const dir = await stateDir();
  const first = await start({ stateDir: dir });
  const ids = Array.from({ length: 20 }, (_, i) => `s${i}`);
  try {
    const answers = await Promise.all(ids.map((id) => sendSigned(first.l, id)));
    expect(answers.every((a) => a.status === 200 && a.json.status === 'accepted')).toBe(true);
    await expect.poll(() => first.got.length).toBe(20);
  } finally {
    await first.l.close();
  }
  const second = await start({ stateDir: dir });
  try {
    const again = await Promise.all(ids.map((id) => sendSigned(second.l, id)));
    expect(again.every((a) => a.json.status === 'duplicate')).toBe(true);
    expect(second.l.eventLog({ limit: 1000 })).toHaveLength(20);
  } finally {
    await second.l.close();
  }
});

test('an id seen within 24 hours is a duplicate, one seen longer ago is a new event', async () => {
  const dir = await stateDir();
  let clock = Date.UTC(2025, 0, 15, 12, 0, 0);
  const { l, got } = await start({ stateDir: dir, signingSecret: undefined, now: () => clock });
  try {
    expect((await post(l.url, envelope('day-1'))).json.status).toBe('accepted');
    clock += 24 * 60 * 60 * 1000;
    expect((await post(l.url, envelope('day-1'))).json.status).toBe('duplicate');
    clock += 1;
    expect((await post(l.url, envelope('day-1'))).json.status).toBe('accepted');
    await expect.poll(() => got.map((e) => e.id)).toEqual(['day-1', 'day-1']);
  } finally {
    await l.close();
  }
});

test('every webhook file is readable by this user only, in a folder only this user may open', async () => {
  test.skip(process.platform === 'win32', 'POSIX modes');
  const dir = join(await stateDir(), 'webhooks');
  // As a folder made before this rule would be.
  await mkdir(dir, { mode: 0o755 });
  await chmod(dir, 0o755);
  const { l } = await start({ stateDir: dir, compactBytes: 512 });
  try {
    for (let i = 0; i < 5; i++) expect((await sendSigned(l, `p${i}`)).status).toBe(200);
  } finally {
    await l.close();
  }
  const names = await readdir(dir);
  // The snapshot and the journal at least; nothing left over from writing them.
  expect(names).toContain('state.json');
  expect(names.some((n) => n.startsWith('journal-'))).toBe(true);
  expect(names.filter((n) => n.endsWith('.tmp'))).toEqual([]);
  expect((await stat(dir)).mode & 0o777).toBe(0o700);
  for (const name of names) expect([name, (await stat(join(dir, name))).mode & 0o777]).toEqual([name, 0o600]);
});
