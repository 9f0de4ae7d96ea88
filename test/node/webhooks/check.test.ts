import { createHmac } from 'node:crypto';
import { test, expect } from '@playwright/test';
import { checkHead, checkRequest, type CheckContext, type RequestFacts } from '../../../src-main/webhooks/check-request';
import { signWebhook } from '../../../src-shared/webhook-signature';

const SECRET = 'whsec_' + Buffer.from('a shared secret of the listener').toString('base64');
const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const NOW_S = NOW / 1000;
const PORT = 8787;

const envelope = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: 'evt_1',
    group: 'messages',
    type: 'message.created',
    occurredAt: '2025-01-15T12:00:00Z',
    data: { text: 'hi' },
    ...over,
  });

function facts(body: string | Buffer, over: Partial<RequestFacts> = {}): RequestFacts {
  return {
    method: 'POST',
    url: '/hooks/path-secret-1',
    host: `127.0.0.1:${PORT}`,
    contentType: 'application/json',
    contentLength: undefined,
    body: body === 'too-large' || Buffer.isBuffer(body) ? body : Buffer.from(body),
    webhookId: undefined,
    webhookTimestamp: undefined,
    webhookSignature: undefined,
    ...over,
  };
}

function signed(body: string, id = 'msg_1', ts = NOW_S, secret = SECRET, over: Partial<RequestFacts> = {}): RequestFacts {
  return facts(body, {
    webhookId: id,
    webhookTimestamp: String(ts),
    webhookSignature: signWebhook(secret, id, ts, Buffer.from(body)),
    ...over,
  });
}

function ctx(over: Partial<CheckContext> = {}): CheckContext {
  return { pathSecret: 'path-secret-1', port: PORT, maxBodyBytes: 1024, signingSecret: SECRET, nowMs: NOW, isSeen: () => false, ...over };
}

test.describe('request head', () => {
  test('answers 404 for any other path, whatever the method', () => {
    for (const url of ['/', '/hooks/', '/hooks/path-secret-2', '/hooks/path-secret-1/', '/Hooks/path-secret-1']) {
      expect(checkHead(facts(''), { ...ctx() }).outcome).toBe('read-body');
      expect(checkHead({ ...facts(''), url, method: 'GET' }, ctx())).toMatchObject({ status: 404, reason: 'not-found' });
    }
  });

  test('ignores a query string on the right path', () => {
    expect(checkHead({ ...facts(''), url: '/hooks/path-secret-1?attempt=2' }, ctx())).toEqual({ outcome: 'read-body' });
  });

  test('answers 405 for other methods on the right path', () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'OPTIONS']) {
      expect(checkHead({ ...facts(''), method }, ctx())).toMatchObject({ status: 405, reason: 'method' });
    }
  });

  test('refuses a Host that is not this listener (421)', () => {
    for (const host of [undefined, 'evil.example:8787', '127.0.0.1:9999', 'abc.trycloudflare.com']) {
      expect(checkHead({ ...facts(''), host }, ctx())).toMatchObject({ status: 421, reason: 'host' });
    }
    expect(checkHead({ ...facts(''), host: 'localhost:8787' }, ctx()).outcome).toBe('read-body');
  });

  test('wants a JSON content type (415 otherwise)', () => {
    for (const contentType of [undefined, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
      expect(checkHead({ ...facts(''), contentType }, ctx())).toMatchObject({ status: 415 });
    }
    for (const contentType of ['application/json; charset=utf-8', 'Application/JSON', 'application/cloudevents+json']) {
      expect(checkHead({ ...facts(''), contentType }, ctx()).outcome).toBe('read-body');
    }
  });

  test('refuses an announced body over the limit before reading it (413)', () => {
    expect(checkHead({ ...facts(''), contentLength: '1025' }, ctx())).toMatchObject({ status: 413, reason: 'too-large' });
    expect(checkHead({ ...facts(''), contentLength: '1024' }, ctx()).outcome).toBe('read-body');
    expect(checkHead({ ...facts(''), contentLength: '12abc' }, ctx())).toMatchObject({ status: 400, reason: 'bad-length' });
  });
});

test.describe('signature', () => {
  test('accepts a valid signature over the raw bytes and marks it valid', () => {
    const v = checkRequest(signed(envelope()), ctx());
    expect(v).toMatchObject({ outcome: 'accept', status: 200, id: 'msg_1', signature: 'valid', known: true });
  });

  test('refuses a changed body, a wrong secret or a re-serialised body (401)', () => {
    const body = envelope();
    const good = signed(body);
    expect(checkRequest({ ...good, body: Buffer.from(body.replace('hi', 'ho')) }, ctx())).toMatchObject({
      status: 401,
      reason: 'bad-signature',
    });
    expect(checkRequest(signed(body, 'msg_1', NOW_S, 'another secret'), ctx())).toMatchObject({ status: 401, reason: 'bad-signature' });
    const spaced = JSON.stringify(JSON.parse(body), null, 1);
    expect(checkRequest({ ...good, body: Buffer.from(spaced) }, ctx())).toMatchObject({ status: 401, reason: 'bad-signature' });
    expect(checkRequest({ ...good, webhookId: 'msg_2' }, ctx())).toMatchObject({ status: 401, reason: 'bad-signature' });
  });

  test('refuses a timestamp more than 5 minutes away, either side (401)', () => {
    expect(checkRequest(signed(envelope(), 'm', NOW_S - 301), ctx())).toMatchObject({ status: 401, reason: 'stale-signature' });
    expect(checkRequest(signed(envelope(), 'm', NOW_S + 301), ctx())).toMatchObject({ status: 401, reason: 'stale-signature' });
    expect(checkRequest(signed(envelope(), 'm', NOW_S - 299), ctx()).outcome).toBe('accept');
    expect(checkRequest(signed(envelope(), 'm', NOW_S + 299), ctx()).outcome).toBe('accept');
  });

  test('refuses missing or malformed signature headers (401)', () => {
    expect(checkRequest(facts(envelope()), ctx())).toMatchObject({ status: 401, reason: 'missing-signature' });
    const s = signed(envelope());
    expect(checkRequest({ ...s, webhookTimestamp: '2025-01-15T12:00:00Z' }, ctx())).toMatchObject({ status: 401, reason: 'bad-timestamp' });
    expect(checkRequest({ ...s, webhookSignature: 'v2,abc' }, ctx())).toMatchObject({ status: 401, reason: 'bad-signature' });
  });

  test('accepts when one of several listed signatures matches (secret rotation)', () => {
    const s = signed(envelope());
    const old = signWebhook('the previous secret', 'msg_1', NOW_S, Buffer.from(envelope()));
    expect(checkRequest({ ...s, webhookSignature: `${old} ${s.webhookSignature}` }, ctx()).outcome).toBe('accept');
  });

  test('accepts the signature spelled without padding or in URL-safe base64, and nothing else', () => {
    // An id whose digest has letters that URL-safe base64 spells otherwise.
    const s = Array.from({ length: 50 }, (_, i) => signed(envelope(), `msg_${i}`)).find((f) => /[+/]/.test(f.webhookSignature!))!;
    const digest = s.webhookSignature!.slice(3);
    expect(digest.endsWith('=')).toBe(true);
    const unpadded = `v1,${digest.replace(/=+$/, '')}`;
    const urlSafe = `v1,${digest.replace(/\+/g, '-').replace(/\//g, '_')}`;
    expect(checkRequest({ ...s, webhookSignature: unpadded }, ctx()).outcome).toBe('accept');
    expect(checkRequest({ ...s, webhookSignature: urlSafe }, ctx()).outcome).toBe('accept');
    // One character changed, or the digest cut short, is still a mismatch.
    const flipped = `v1,${(digest[0] === 'A' ? 'B' : 'A') + digest.slice(1)}`;
    expect(checkRequest({ ...s, webhookSignature: flipped }, ctx())).toMatchObject({ status: 401, reason: 'bad-signature' });
    expect(checkRequest({ ...s, webhookSignature: `v1,${digest.slice(0, 40)}` }, ctx())).toMatchObject({
      status: 401,
      reason: 'bad-signature',
    });
  });

  test('checks the signature before parsing: a signed non-JSON body is 400, an unsigned one 401', () => {
    expect(checkRequest(signed('not json'), ctx())).toMatchObject({ status: 400, reason: 'not-json' });
    expect(checkRequest(facts('not json'), ctx())).toMatchObject({ status: 401 });
  });

  test('signs as Standard Webhooks does: its published example, and HMAC-SHA256 for any key and body', () => {
    // The example from the Standard Webhooks specification.
    const example = '{"test": 2432232314}';
    expect(signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, example)).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
    // Keys shorter than, equal to and longer than the hash block; bodies empty, small, large and
    // past the size hashed in one piece; text with non-ASCII characters; secrets taking turns.
    const keys = [1, 32, 64, 65, 200].map((n) => Buffer.from(Array.from({ length: n }, (_, i) => (n + i * 7) & 0xff)));
    const bodies: (Buffer | string)[] = [
      Buffer.alloc(0),
      Buffer.from(envelope()),
      Buffer.alloc(5000, 0x61),
      Buffer.alloc(70_000, 0x62),
      'Olá, atendimento ✓',
    ];
    for (const key of keys) {
      for (const body of bodies) {
        const secret = 'whsec_' + key.toString('base64');
        const expected = createHmac('sha256', key).update(`msg_é.${NOW_S}.`).update(body).digest('base64');
        expect(signWebhook(secret, 'msg_é', NOW_S, body)).toBe(`v1,${expected}`);
        expect(signWebhook('plain text secret', 'msg_é', NOW_S, body)).toBe(
          `v1,${createHmac('sha256', 'plain text secret').update(`msg_é.${NOW_S}.`).update(body).digest('base64')}`,
        );
      }
    }
  });

  test('without a signing secret accepts and marks the event unsigned', () => {
    const v = checkRequest(facts(envelope()), ctx({ signingSecret: undefined }));
    expect(v).toMatchObject({ outcome: 'accept', signature: 'unsigned', id: 'evt_1', known: true });
  });
});

test.describe('body', () => {
  const open = ctx({ signingSecret: undefined });

  test('a body past the limit is 413', () => {
    expect(checkRequest(facts('too-large'), open)).toMatchObject({ status: 413 });
    expect(checkRequest(facts('x'.repeat(1025)), open)).toMatchObject({ status: 413 });
  });

  test('non-JSON is 400', () => {
    for (const body of ['', '{', 'hello', '{"id": 1,}']) {
      expect(checkRequest(facts(body), open)).toMatchObject({ status: 400, reason: 'not-json' });
    }
  });

  test('a body nested deeper than the console reads is 400, refused before it is parsed', () => {
    const deep = `{"id":"e1","group":"messages","type":"x","data":${'['.repeat(300)}${']'.repeat(300)}}`;
    expect(checkRequest(facts(deep), open)).toMatchObject({ status: 400, reason: 'too-deep' });
    const fine = `{"id":"e2","group":"messages","type":"x","data":${'['.repeat(20)}${']'.repeat(20)}}`;
    expect(checkRequest(facts(fine), open)).toMatchObject({ outcome: 'accept' });
  });

  test('an unknown group is accepted with the envelope and known=false', () => {
    const v = checkRequest(facts(envelope({ group: 'payments', type: 'payment.made' })), open);
    expect(v).toMatchObject({ outcome: 'accept', known: false, group: 'payments', type: 'payment.made' });
    expect(v.outcome === 'accept' && v.event?.id).toBe('evt_1');
  });

  test('an unknown shape is accepted without an envelope, keyed by a hash of the body', () => {
    const a = checkRequest(facts('[1,2,3]'), open);
    expect(a).toMatchObject({ outcome: 'accept', known: false, raw: '[1,2,3]' });
    expect(a.outcome === 'accept' && a.event).toBeUndefined();
    expect(a.outcome === 'accept' && a.id).toMatch(/^sha256:[0-9a-f]{64}$/);
    const b = checkRequest(facts('{"group":"messages","note":"no id, no type"}'), open);
    expect(b).toMatchObject({ outcome: 'accept', known: false, group: 'messages' });
    expect(b.outcome === 'accept' && b.id).not.toBe(a.outcome === 'accept' && a.id);
    // The same bytes again give the same key, so a resend is caught as a duplicate.
    const again = checkRequest(facts('[1,2,3]'), open);
    expect(again.outcome === 'accept' && again.id).toBe(a.outcome === 'accept' && a.id);
  });

  test('the webhook-id header is the idempotency key, then the envelope id', () => {
    expect(checkRequest(facts(envelope(), { webhookId: 'hdr_9' }), open)).toMatchObject({ id: 'hdr_9' });
    expect(checkRequest(facts(envelope()), open)).toMatchObject({ id: 'evt_1' });
    const long = 'x'.repeat(500);
    expect(checkRequest(facts(envelope({ id: long })), open)).toMatchObject({ id: expect.stringMatching(/^sha256:/) });
  });

  test('a seen id is a duplicate (200), checked after the signature', () => {
    const seen = ctx({ isSeen: (id) => id === 'msg_1' });
    expect(checkRequest(signed(envelope()), seen)).toEqual({ outcome: 'duplicate', status: 200, id: 'msg_1' });
    expect(checkRequest(signed(envelope(), 'msg_1', NOW_S - 1000), seen)).toMatchObject({ status: 401 });
    expect(checkRequest(signed(envelope(), 'msg_2'), seen).outcome).toBe('accept');
  });
});

test('the seen-id window forgets ids older than its age first, and past its count cap the oldest', async () => {
  const { SeenWindow } = await import('../../../src-main/webhooks/seen-window');
  const w = new SeenWindow(3, 1_000);
  for (let i = 1; i <= 5; i++) w.add(`e${i}`, i, i);
  expect(['e1', 'e2', 'e3', 'e4', 'e5'].map((id) => w.has(id, 5))).toEqual([false, false, true, true, true]);
  // At 1,004 ms e3 is older than a second: no longer a duplicate, and gone at the next add.
  expect([w.has('e3', 1_004), w.has('e4', 1_004), w.has('e5', 1_004)]).toEqual([false, true, true]);
  w.add('e6', 1_004, 1_004);
  expect([w.size, w.entries().map(([id]) => id)]).toEqual([3, ['e4', 'e5', 'e6']]);
  // An expired id seen again counts from its new time, after the others (e5 has expired too).
  w.add('e4', 1_010, 1_010);
  expect(w.entries()).toEqual([
    ['e6', 1_004],
    ['e4', 1_010],
  ]);
});

test('the seen-id window answers as a list of the newest ids would, through any mix of adds and evictions', async () => {
  const { SeenWindow } = await import('../../../src-main/webhooks/seen-window');
  // A seeded generator, so a failure can be replayed.
  let state = 12345;
  const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  for (const max of [1, 2, 3, 7, 100, 1000]) {
    const w = new SeenWindow(max, 50);
    const model: Array<{ id: string; at: number }> = [];
    let mismatches = 0;
    for (let step = 0; step < 20_000; step++) {
      const now = Math.floor(step / 10);
      const id = `evt_${Math.floor(random() * (max * 3 + 5))}`;
      // The model: the newest `max` ids no older than 50 ms.
      while (model.length > 0 && now - model[0]!.at > 50) model.shift();
      const expected = model.some((e) => e.id === id);
      if (w.has(id, now) !== expected) mismatches++;
      if (!expected) {
        w.add(id, now, now);
        model.push({ id, at: now });
        if (model.length > max) model.shift();
        if (w.size !== model.length) mismatches++;
      }
    }
    expect(mismatches, `window of ${max}`).toBe(0);
  }
});
