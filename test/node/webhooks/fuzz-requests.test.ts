import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebhookListener, type WebhookListener } from '../../../src-main/webhooks';
import type { ReceivedEvent } from '../../../src-main/webhooks/types';
import { signWebhook } from '../../../src-shared/webhook-signature';
import { anyValue, bigString, nastyString, within } from '../../support/fuzz';

/**
 * Bad input from the network's side: the webhook listener takes thousands of malformed,
 * mis-signed, oversized and garbage requests. Each gets a 4xx with a reason (or 200 for a
 * well-signed event of odd shape, kept in the event log), the listener never stops answering,
 * and a good event still goes through at the end.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const SECRET = 'whsec_' + Buffer.from('fuzzing-secret-of-the-listener-0123').toString('base64');
const PATH_SECRET = 'fuzzPathSecret_0123456789';
const MAX_BODY = 64 * 1024;

interface Reply {
  status: number;
  body: string;
}

function send(port: number, o: { method: string; path: string; headers: Record<string, string>; body: Buffer | string }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: o.method, path: o.path, headers: o.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    // The listener may answer 413 and close before the whole body is written: that is its right.
    req.on('error', (e: NodeJS.ErrnoException) =>
      e.code === 'EPIPE' || e.code === 'ECONNRESET' ? resolve({ status: -1, body: e.code }) : reject(e),
    );
    req.end(o.body);
  });
}

/** Raw bytes on a socket: whatever comes back first (Node's parser answers 400 to garbage). */
function sendRaw(port: number, bytes: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    const done = () => resolve(got);
    socket.on('data', (c: Buffer) => (got += c.toString('latin1')));
    socket.on('error', done);
    socket.on('close', done);
    socket.write(bytes, () => socket.end());
    socket.setTimeout(5_000, () => socket.destroy());
  });
}

let listener: WebhookListener;
const received: ReceivedEvent[] = [];

test.beforeAll(async () => {
  listener = await startWebhookListener({
    port: 0,
    pathSecret: PATH_SECRET,
    signingSecret: SECRET,
    maxBodyBytes: MAX_BODY,
    stateDir: mkdtempSync(join(tmpdir(), 'console-hook-fuzz-')),
    onEvent: (e) => void received.push(e),
  });
});

test.afterAll(async () => {
  await listener?.close();
});

const nowSeconds = () => Math.floor(Date.now() / 1000);

test('thousands of malformed webhook requests each get a clear answer, and the listener keeps working', async () => {
  test.setTimeout(480_000);
  const port = listener.port;
  const statuses = new Map<number, number>();
  let cases = 0;

  const bodyArb = fc.oneof(
    anyValue.map((v) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? String(x) : x)) ?? 'null'),
    fc
      .record(
        {
          id: fc.oneof(fc.string(), nastyString),
          group: fc.oneof(fc.constantFrom('messages', 'sessions', 'status'), nastyString),
          type: fc.string(),
          occurredAt: fc.string(),
          data: anyValue,
        },
        { requiredKeys: [] },
      )
      .map((v) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? String(x) : x))),
    fc.uint8Array({ maxLength: 600 }).map((b) => Buffer.from(b).toString('latin1')),
    fc.constantFrom('{', '[', '{"id":', '\u0000\u0001', '', 'null', '{"__proto__":{"x":1},"id":"a"}'),
    bigString,
  );
  const signing = fc.constantFrom('good', 'none', 'wrong', 'stale', 'future', 'garbage', 'bad-ts');
  const pathArb = fc.oneof(
    { weight: 6, arbitrary: fc.constant(`/hooks/${PATH_SECRET}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '/',
        '/hooks/',
        '/hooks/wrong',
        `/hooks/${PATH_SECRET}/x`,
        `/hooks/${PATH_SECRET}?a=1`,
        '/../../etc/passwd',
        `//hooks/${PATH_SECRET}`,
        '/%ZZ',
      ),
    },
  );
  const methodArb = fc.oneof(
    { weight: 8, arbitrary: fc.constant('POST') },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD') },
  );
  const ctArb = fc.oneof(
    { weight: 6, arbitrary: fc.constant('application/json') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'text/plain',
        'application/json; charset=utf-8',
        '',
        'application/x-www-form-urlencoded',
        'application/jsonx',
      ),
    },
  );
  const idArb = fc.oneof(fc.uuid(), fc.string({ maxLength: 20 }), nastyString, fc.constant('x'.repeat(5_000)));

  const out = await fc.check(
    fc.asyncProperty(methodArb, pathArb, ctArb, bodyArb, signing, idArb, async (method, path, ct, body, sig, id) => {
      cases++;
      const ts = sig === 'stale' ? nowSeconds() - 3_600 : sig === 'future' ? nowSeconds() + 3_600 : nowSeconds();
      const headers: Record<string, string> = { host: `127.0.0.1:${port}` };
      if (ct) headers['content-type'] = ct;
      if (sig !== 'none') {
        headers['webhook-id'] = id.replace(/[^\x20-\x7e]/g, '?');
        headers['webhook-timestamp'] = sig === 'bad-ts' ? 'yesterday' : String(ts);
        headers['webhook-signature'] =
          sig === 'good' || sig === 'stale' || sig === 'future'
            ? signWebhook(SECRET, headers['webhook-id'], ts, body)
            : sig === 'wrong'
              ? signWebhook('whsec_b3RoZXI=', headers['webhook-id'], ts, body)
              : 'v1,' + 'A'.repeat(44);
      }
      const reply = await within(
        15_000,
        `${method} ${path}`,
        send(port, { method, path, headers, body: method === 'GET' || method === 'HEAD' ? '' : body }),
      );
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      if (reply.status === -1) return; // cut off mid-upload after a refusal (oversized)
      expect([200, 400, 401, 404, 405, 413, 415, 421, 503], `${method} ${path} ${sig}`).toContain(reply.status);
      if (method === 'HEAD') return;
      const answer = JSON.parse(reply.body) as { status: string; reason?: string; message?: string };
      if (reply.status === 200) {
        expect(['accepted', 'duplicate']).toContain(answer.status);
        // Only a well-signed, fresh request is ever taken.
        expect(sig).toBe('good');
      } else if (reply.status !== 503) {
        expect(answer.status).toBe('rejected');
        expect(answer.reason, reply.body).toBeTruthy();
        expect((answer.message ?? '').length).toBeGreaterThan(5);
        expect(answer.message).not.toMatch(/\n\s+at\s|node_modules|\/work\//);
      }
    }),
    { seed: SEED, numRuns: 2_000, endOnFailure: true },
  );
  if (out.failed) throw out.errorInstance instanceof Error ? out.errorInstance : new Error(String(out.errorInstance));

  // Garbage below HTTP: the parser refuses it, the listener survives.
  const garbage = fc.sample(fc.uint8Array({ minLength: 1, maxLength: 300 }), { seed: SEED, numRuns: 200 });
  for (const bytes of [
    ...garbage,
    Buffer.from('POST /hooks/x HTTP/1.1\r\nContent-Length: -5\r\n\r\n'),
    Buffer.from('GET / HTTP/1.1\r\n' + 'X: y\r\n'.repeat(5_000) + '\r\n'),
  ]) {
    const answer = await within(10_000, 'raw bytes', sendRaw(port, Buffer.from(bytes)));
    if (answer) expect(answer).toMatch(/^HTTP\/1\.1 4\d\d /);
    cases++;
  }

  test.info().annotations.push({
    type: 'fuzz',
    description: `${cases} cases, statuses ${JSON.stringify(Object.fromEntries(statuses))}, seed ${SEED}`,
  });
  expect(cases).toBeGreaterThan(2_000);
  expect(statuses.get(200) ?? 0).toBeGreaterThan(10);
  expect(statuses.get(401) ?? 0).toBeGreaterThan(10);

  // A good event still goes through and reaches the consumer.
  const id = `evt_after_fuzz_${Date.now()}`;
  const event = JSON.stringify({
    id,
    group: 'messages',
    type: 'message.created',
    occurredAt: new Date().toISOString(),
    data: { sessionId: 1 },
  });
  const ts = nowSeconds();
  const ok = await send(port, {
    method: 'POST',
    path: `/hooks/${PATH_SECRET}`,
    body: event,
    headers: {
      host: `127.0.0.1:${port}`,
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(ts),
      'webhook-signature': signWebhook(SECRET, id, ts, event),
    },
  });
  expect(ok).toEqual({ status: 200, body: '{"status":"accepted"}' });
  await expect.poll(() => received.some((e) => e.id === id)).toBe(true);
  expect(listener.stats().rejected).toBeGreaterThan(100);
});
