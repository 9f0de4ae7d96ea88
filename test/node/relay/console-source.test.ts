import { test, expect } from '@playwright/test';
import { startRelay, type Relay } from '../../../src-main/relay/relay';
import { startRelaySource, type RelaySource, type RelaySourceOptions, type RelaySourceState } from '../../../src-main/relay/console-source';
import { relayUser } from '../../../src-main/relay/permissions';
import type { ReceivedEvent } from '../../../src-main/webhooks/types';
import { hookRegistry } from '../../../src-main/webhooks/registration';
import { startStandin, type Standin } from '../../../src-standin/index';
import { standinClient } from '../../../src-standin/test-client';
import { makeStream, natsMissing, startNats, testUsers, type NatsServer } from '../../support/nats';
import { delivery, post } from '../../support/relay';
import { customerSays } from '../../support/customer';
import { tempDirs } from '../../support/temp-dirs';

test.skip(natsMissing() !== null, natsMissing() ?? '');

const tempDir = tempDirs('relay-console-');
const SECRET = 'whsec_Y29uc29sZS1zb3VyY2UtdGVzdC1zZWNyZXQtMDEyMw';
const PATH_SECRET = 'console-source-path-secret';
const accounts = testUsers({ vila: ['ana', 'bruno', 'caio', 'duda', 'eva', 'fabio'], acme: ['carla'] });

let nats: NatsServer;
const relays: Relay[] = [];
const sources: RelaySource[] = [];
test.beforeAll(async () => {
  nats = await startNats(await tempDir(), { users: accounts.users });
});
test.afterEach(async () => {
  await Promise.all(sources.splice(0).map((s) => s.close()));
  await Promise.all(relays.splice(0).map((r) => r.close()));
});
test.afterAll(async () => {
  await nats?.stop();
});

async function relay(operation = 'vila'): Promise<Relay> {
  const r = await startRelay({
    operation,
    port: 0,
    pathSecret: PATH_SECRET,
    signingSecret: SECRET,
    nats: {
      address: nats.address,
      credentials: { kind: 'user', user: relayUser(operation), password: accounts.password(relayUser(operation)) },
    },
  });
  relays.push(r);
  return r;
}

/** A console reading the relay; what it applied, in order, with when. */
function consoleOf(name: string, o: Partial<RelaySourceOptions> & { operation?: string } = {}) {
  const operation = o.operation ?? 'vila';
  const applied: Array<{ e: ReceivedEvent; at: number }> = [];
  const states: RelaySourceState[] = [];
  const start = () => {
    const s = startRelaySource({
      address: nats.address,
      operation,
      console: name,
      retry: { baseMs: 200, maxMs: 200 },
      reconnectTimeWaitMs: 200,
      apply: async (e) => void applied.push({ e, at: Date.now() }),
      onState: (st) => void states.push(st),
      ...o,
      credentials: o.credentials ?? { kind: 'user', user: `${name}@${operation}`, password: accounts.password(`${name}@${operation}`) },
    });
    sources.push(s);
    return s;
  };
  return { applied, states, start, ids: () => applied.map((a) => a.e.id) };
}

const live = (s: RelaySource) => expect.poll(() => s.state).toBe('live');

test('two consoles on one relay both receive a customer’s message within a second', async () => {
  const sb: Standin = await startStandin({ port: 0, simulator: false });
  try {
    const r = await relay();
    await hookRegistry(sb.baseUrl, sb.tokens.admin).create({ url: r.url, secret: SECRET, groups: ['messages'] });
    const ana = consoleOf('ana');
    const bruno = consoleOf('bruno');
    await live(ana.start());
    await live(bruno.start());
    const page = (await standinClient(sb.baseUrl, sb.tokens.admin).v2('/user-session', { conditions: [], sort: false, size: 1 })).json<{
      results: Array<{ id: number }>;
    }>();
    const saidAt = Date.now();
    const messageId = await customerSays(sb.baseUrl, sb.tokens.admin, page.results[0]!.id, 'Bom dia! Meu pedido ainda não chegou.');
    const got = (c: ReturnType<typeof consoleOf>) =>
      c.applied.find((a) => (a.e.event?.data as { message?: { id?: number } }).message?.id === messageId);
    await expect.poll(() => !!got(ana) && !!got(bruno), { timeout: 1_000 }).toBe(true);
    for (const c of [ana, bruno]) {
      const { e, at } = got(c)!;
      expect(at - saidAt).toBeLessThan(1_000);
      expect(e).toMatchObject({ known: true, group: 'messages', type: 'message.created', signature: 'valid' });
    }
  } finally {
    await sb.close();
  }
});

test('a console stopped for a while receives every event of the meantime once, in order, after it starts', async () => {
  const r = await relay();
  const caio = consoleOf('caio');
  const bruno = consoleOf('bruno');
  const first = caio.start();
  await live(first);
  await live(bruno.start());
  await first.close();
  const meantime = Array.from({ length: 30 }, (_, i) => `evt_meantime_${i}`);
  for (const id of meantime) expect((await post(r.url, delivery(SECRET, { id, group: 'messages' }))).status).toBe(200);
  // The one that kept running has them; the stopped one has none yet.
  await expect.poll(() => meantime.every((id) => bruno.ids().includes(id))).toBe(true);
  expect(caio.ids().filter((id) => meantime.includes(id))).toEqual([]);
  await live(caio.start());
  await expect.poll(() => caio.ids().filter((id) => meantime.includes(id))).toEqual(meantime);
  // Nothing comes twice, however long it waits for more.
  const after = delivery(SECRET, { id: 'evt_after', group: 'status' });
  await post(r.url, after);
  await expect.poll(() => caio.ids().at(-1)).toBe('evt_after');
  expect(new Set(caio.ids()).size).toBe(caio.ids().length);
});

test('a delivery sent twice, and to two relays, is applied once', async () => {
  const [one, two] = [await relay(), await relay()];
  const duda = consoleOf('duda');
  await live(duda.start());
  const d = delivery(SECRET, { id: 'evt_twice', group: 'messages' });
  expect((await post(one.url, d)).body.status).toBe('accepted');
  expect((await post(one.url, d)).body.status).toBe('duplicate');
  expect((await post(two.url, d)).body.status).toBe('duplicate');
  const marker = delivery(SECRET, { id: 'evt_marker', group: 'messages' });
  await post(two.url, marker);
  await expect.poll(() => duda.ids()).toEqual(['evt_twice', 'evt_marker']);
});

test('an event is acknowledged only after it was applied: a failed apply and one cut short by closing come again, once', async () => {
  const r = await relay();
  const failOnce = new Set(['evt_fails_once']);
  const eva = consoleOf('eva', {
    apply: async (e) => {
      if (failOnce.delete(e.id)) throw new Error('the service could not be read');
      eva.applied.push({ e, at: Date.now() });
    },
  });
  const s = eva.start();
  await live(s);
  await post(r.url, delivery(SECRET, { id: 'evt_fails_once', group: 'messages' }));
  await expect.poll(() => eva.ids()).toEqual(['evt_fails_once']);
  expect(s.stats()).toMatchObject({ applied: 1, failed: 1 });
  await s.close();

  // An apply still running when the console closes is handed back, and comes at the next start.
  let release: () => void = () => undefined;
  let attempts = 0;
  const stuck = consoleOf('eva', {
    closeGraceMs: 100,
    apply: (e) =>
      e.id === 'evt_stuck' && attempts++ === 0
        ? new Promise<void>((resolve) => (release = resolve))
        : Promise.resolve(void stuck.applied.push({ e, at: Date.now() })),
  });
  const held = stuck.start();
  await live(held);
  await post(r.url, delivery(SECRET, { id: 'evt_stuck', group: 'messages' }));
  // The apply has begun (and hangs) before the console closes: on a busy machine the event may
  // reach the console only later, and closing before that would test nothing.
  await expect.poll(() => attempts).toBe(1);
  expect(held.stats().applied + held.stats().failed).toBe(0);
  await held.close();
  release();
  const again = stuck.start();
  await expect.poll(() => stuck.ids()).toEqual(['evt_stuck']);
  expect(again.stats().applied).toBe(1);
  expect(attempts).toBe(2);
});

test('nats-server stopped: the console says so, and catches up with what the service delivered meanwhile once it is back', async () => {
  test.setTimeout(90_000);
  const sb = await startStandin({ port: 0, simulator: false, webhookRetry: { attempts: 12, baseDelayMs: 100, timeoutMs: 2_000 } });
  try {
    const r = await relay();
    await hookRegistry(sb.baseUrl, sb.tokens.admin).create({ url: r.url, secret: SECRET, groups: ['messages'] });
    const fabio = consoleOf('fabio');
    const s = fabio.start();
    await live(s);
    const page = (await standinClient(sb.baseUrl, sb.tokens.admin).v2('/user-session', { conditions: [], sort: false, size: 1 })).json<{
      results: Array<{ id: number }>;
    }>();
    const sessionId = page.results[0]!.id;
    const said: number[] = [];
    const messageIds = () => fabio.applied.map((a) => (a.e.event?.data as { message: { id: number } }).message.id);
    said.push(await customerSays(sb.baseUrl, sb.tokens.admin, sessionId, 'Antes'));
    await expect.poll(messageIds).toEqual(said);
    await nats.stop();
    try {
      await expect.poll(() => s.state).toBe('unreachable');
      for (let i = 0; i < 3; i++) said.push(await customerSays(sb.baseUrl, sb.tokens.admin, sessionId, `Durante ${i}`));
    } finally {
      await nats.start();
    }
    await expect.poll(() => s.state, { timeout: 20_000 }).toBe('live');
    await expect.poll(messageIds, { timeout: 60_000 }).toEqual(said);
    expect(fabio.states).toEqual(expect.arrayContaining(['live', 'unreachable']));
  } finally {
    await sb.close();
  }
});

test('credentials NATS refuses, another operation’s stream and plain NATS off this computer: the console says which', async () => {
  await relay('acme');
  const wrong = consoleOf('ana', { credentials: { kind: 'user', user: 'ana@vila', password: 'not-her-password' } });
  const refused = wrong.start();
  await expect.poll(() => refused.state).toBe('refused');
  expect(refused.detail).toBe('NATS refused the credentials.');
  // Her own credentials, naming another operation's stream.
  const elsewhere = consoleOf('ana', {
    operation: 'acme',
    credentials: { kind: 'user', user: 'ana@vila', password: accounts.password('ana@vila') },
  });
  const other = elsewhere.start();
  await expect.poll(() => other.state).toBe('refused');
  expect(other.detail).toBe("NATS does not let these credentials read this operation's events.");
  // TLS asked for, the server has none: no plain connection instead.
  const tls = consoleOf('ana', { address: nats.address.replace('nats://', 'tls://') });
  const secure = tls.start();
  await expect.poll(() => secure.state).toBe('refused');
  expect(secure.detail).toBe('NATS could not be reached over TLS, which an address off this computer requires.');
  for (const c of [wrong, elsewhere, tls]) expect(c.applied).toEqual([]);
});

test('a server that gives each console a token: the console reads with it', async () => {
  const dir = await tempDir();
  const tokenServer = await startNats(dir, { token: 's3cr3t-console-token' });
  try {
    await makeStream(tokenServer.address, { kind: 'token', token: 's3cr3t-console-token' }, 'tok');
    const r = await startRelay({
      operation: 'tok',
      port: 0,
      pathSecret: PATH_SECRET,
      signingSecret: SECRET,
      nats: { address: tokenServer.address, credentials: { kind: 'token', token: 's3cr3t-console-token' } },
    });
    relays.push(r);
    const applied: string[] = [];
    const s = startRelaySource({
      address: tokenServer.address,
      credentials: { kind: 'token', token: 's3cr3t-console-token' },
      operation: 'tok',
      console: 'ana',
      apply: async (e) => void applied.push(e.id),
    });
    sources.push(s);
    await live(s);
    await post(r.url, delivery(SECRET, { id: 'evt_token', group: 'bot' }));
    await expect.poll(() => applied).toEqual(['evt_token']);
  } finally {
    await Promise.all(sources.splice(0).map((s) => s.close()));
    await Promise.all(relays.splice(0).map((r) => r.close()));
    await tokenServer.stop();
  }
});
