import { test, expect } from '@playwright/test';
import { startRelay, type Relay, type RelayOptions } from '../../../src-main/relay/relay';
import { jetstreamManager } from '@nats-io/jetstream';
import { MSG_ID_HEADER } from '../../../src-main/relay/subjects';
import { relayUser } from '../../../src-main/relay/permissions';
import { makeStreams, natsMissing, startNats, testUsers, type NatsServer } from '../../support/nats';
import { asConsole, asRelay, delivery, post, readAll, storedCount } from '../../support/relay';
import { tempDirs } from '../../support/temp-dirs';

test.skip(natsMissing() !== null, natsMissing() ?? '');

const tempDir = tempDirs('relay-');
const SECRET = 'whsec_dGVzdC1zaWduaW5nLXNlY3JldC1mb3ItdGhlLXJlbGF5';
const PATH_SECRET = 'relay-path-secret-0123456789';
const accounts = testUsers({ vila: ['ana', 'bruno'], acme: ['carla'] });

let nats: NatsServer;
test.beforeAll(async () => {
  nats = await startNats(await tempDir(), { users: accounts.users });
});
test.afterAll(async () => {
  await nats?.stop();
});

const relays: Relay[] = [];
test.afterEach(async () => {
  await Promise.all(relays.splice(0).map((r) => r.close()));
});

async function relay(operation: string, extra: Partial<RelayOptions> = {}): Promise<Relay> {
  const r = await startRelay({
    operation,
    port: 0,
    pathSecret: PATH_SECRET,
    signingSecret: SECRET,
    nats: {
      address: nats.address,
      credentials: { kind: 'user', user: relayUser(operation), password: accounts.password(relayUser(operation)) },
    },
    ...extra,
  });
  relays.push(r);
  return r;
}

test('a signed delivery is stored once, on its operation and group, byte for byte with its id as the message id', async () => {
  const first = await relay('vila');
  const second = await relay('vila');
  const d = delivery(SECRET, { id: 'evt_one', group: 'messages', data: { sessionId: 7, message: { id: 70, message: 'Oi, tudo bem?' } } });
  expect(await post(first.url, d)).toEqual({ status: 200, body: { status: 'accepted' } });
  // The service delivers again (its answer was lost), to this relay and to the one beside it.
  expect(await post(first.url, d)).toEqual({ status: 200, body: { status: 'duplicate' } });
  expect(await post(second.url, d)).toEqual({ status: 200, body: { status: 'duplicate' } });
  const status = delivery(SECRET, { id: 'evt_two', group: 'status', type: 'session.status', data: { sessionId: 7, status: 'OPEN' } });
  const odd = delivery(SECRET, { id: 'evt_three', group: 'billing.*', type: 'invoice.paid' });
  expect((await post(second.url, status)).status).toBe(200);
  expect((await post(second.url, odd)).status).toBe(200);
  expect(first.stats()).toMatchObject({ published: 1, duplicates: 1 });
  expect(second.stats()).toMatchObject({ published: 2, duplicates: 1 });

  const rc = await asRelay(nats.address, 'vila', accounts.password(relayUser('vila')));
  const ana = await asConsole(nats.address, 'vila', 'ana', accounts.password('ana@vila'));
  try {
    expect(await storedCount(rc, 'vila')).toBe(3);
    const got = await readAll(ana, 'vila', 'ana');
    expect(got.map((m) => m.subject)).toEqual(['relay.vila.messages', 'relay.vila.status', 'relay.vila.other']);
    expect(got.map((m) => m.string())).toEqual([d.body, status.body, odd.body]);
    // Nothing rides along but the delivery's id: no signature, no address, no relay's own data.
    for (const [m, id] of got.map((m, i) => [m, ['evt_one', 'evt_two', 'evt_three'][i]] as const)) {
      expect(m.headers?.get(MSG_ID_HEADER)).toBe(id);
      expect([...(m.headers?.keys() ?? [])]).toEqual([MSG_ID_HEADER]);
    }
  } finally {
    await Promise.all([rc.close(), ana.close()]);
  }
});

test('the listener’s checks refuse what the service did not sign, and nothing of it is stored', async () => {
  const r = await relay('acme');
  const good = delivery(SECRET, { id: 'evt_good', group: 'messages' });
  const forged = delivery('whsec_b3RoZXItc2VjcmV0LW5vdC10aGUtcmVsYXlz', { id: 'evt_forged', group: 'messages' });
  const base = r.url.slice(0, -r.path.length);
  const cases: Array<[string, Promise<Response>, number]> = [
    ['unsigned', fetch(r.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: good.body }), 401],
    ['signed with another secret', fetch(r.url, { method: 'POST', headers: forged.headers(), body: forged.body }), 401],
    ['signed 10 minutes ago', fetch(r.url, { method: 'POST', headers: good.headers(Date.now() - 600_000), body: good.body }), 401],
    [
      'another body under the signature',
      fetch(r.url, { method: 'POST', headers: good.headers(), body: good.body.replace('messages', 'status') }),
      401,
    ],
    ['a wrong path', fetch(`${base}/hooks/not-the-path-secret`, { method: 'POST', headers: good.headers(), body: good.body }), 404],
    ['GET', fetch(r.url), 405],
    ['over 1 MiB', fetch(r.url, { method: 'POST', headers: good.headers(), body: 'x'.repeat(1024 * 1024 + 1) }), 413],
  ];
  for (const [what, answer, status] of cases) expect((await answer).status, what).toBe(status);
  expect(r.stats()).toMatchObject({ published: 0, refused: cases.length });
  // An event at the body limit is carried whole.
  const big = delivery(SECRET, { id: 'evt_big', group: 'messages', data: { text: 'a'.repeat(1024 * 1024 - 200) } });
  expect(big.body.length).toBeLessThanOrEqual(1024 * 1024);
  expect((await post(r.url, big)).status).toBe(200);
  expect((await post(r.url, good)).status).toBe(200);
  const rc = await asRelay(nats.address, 'acme', accounts.password(relayUser('acme')));
  try {
    expect(await storedCount(rc, 'acme')).toBe(2);
  } finally {
    await rc.close();
  }
});

test('the stream is file-backed with the stated retention and duplicate window; the operator’s step run with other limits updates it', async () => {
  await relay('vila');
  const rc = await asRelay(nats.address, 'vila', accounts.password(relayUser('vila')));
  try {
    const jsm = await jetstreamManager(rc, { checkAPI: false });
    const info = await jsm.streams.info('RELAY_vila');
    expect(info.config).toMatchObject({
      subjects: ['relay.vila.>'],
      storage: 'file',
      retention: 'limits',
      discard: 'old',
      max_age: 7 * 24 * 3600 * 1e9,
      duplicate_window: 24 * 3600 * 1e9,
      max_bytes: 8 * 1024 ** 3,
    });
    await makeStreams(nats.address, accounts.users, {
      maxAgeMs: 3 * 24 * 3600_000,
      duplicateWindowMs: 2 * 3600_000,
      maxBytes: 1024 ** 3,
      replicas: 1,
    });
    await relay('vila');
    expect((await jsm.streams.info('RELAY_vila')).config).toMatchObject({
      max_age: 3 * 24 * 3600 * 1e9,
      duplicate_window: 2 * 3600 * 1e9,
      max_bytes: 1024 ** 3,
    });
    await expect(
      makeStreams(nats.address, accounts.users, { maxAgeMs: 3600_000, duplicateWindowMs: 2 * 3600_000, maxBytes: 1024 ** 3, replicas: 1 }),
    ).rejects.toThrow(/duplicate window cannot be longer than the retention/);
  } finally {
    await rc.close();
  }
});

test('while NATS is down the relay answers 503 with Retry-After, and stores the delivery again once it is back', async () => {
  const r = await relay('acme', { publishTimeoutMs: 1_000 });
  const d = delivery(SECRET, { id: 'evt_while_down', group: 'sessions', type: 'session.created' });
  await nats.stop();
  try {
    const res = await fetch(r.url, { method: 'POST', headers: d.headers(), body: d.body });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
  } finally {
    await nats.start();
  }
  // The service's next attempt, once the relay's client is connected again.
  await expect.poll(async () => (await post(r.url, d)).status, { timeout: 20_000 }).toBe(200);
  const rc = await asRelay(nats.address, 'acme', accounts.password(relayUser('acme')));
  try {
    const ana = await asConsole(nats.address, 'acme', 'carla', accounts.password('carla@acme'));
    const ids = (await readAll(ana, 'acme', 'carla')).map((m) => m.headers?.get(MSG_ID_HEADER));
    await ana.close();
    expect(ids.filter((id) => id === 'evt_while_down')).toHaveLength(1);
  } finally {
    await rc.close();
  }
});
