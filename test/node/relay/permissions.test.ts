import { test, expect } from '@playwright/test';
import { AckPolicy, StorageType, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { startRelay, type Relay } from '../../../src-main/relay/relay';
import { adminUser, relayUser } from '../../../src-main/relay/permissions';
import { RELAY_LIMITS, streamConfig } from '../../../src-main/relay/stream';
import { makeStreams, natsMissing, startNats, testUsers, type NatsServer } from '../../support/nats';
import { asAdmin, asConsole, asRelay, delivery, post, readAll } from '../../support/relay';
import { tempDirs } from '../../support/temp-dirs';

test.skip(natsMissing() !== null, natsMissing() ?? '');

const tempDir = tempDirs('relay-perm-');
const SECRET = 'whsec_cGVybWlzc2lvbnMtdGVzdC1zaWduaW5nLXNlY3JldA';
const accounts = testUsers({ vila: ['ana', 'bruno', 'dora'], acme: ['carla'] });

let nats: NatsServer;
let relay: Relay;
const connections: NatsConnection[] = [];
test.beforeAll(async () => {
  nats = await startNats(await tempDir(), { users: accounts.users });
  relay = await startRelay({
    operation: 'vila',
    port: 0,
    pathSecret: 'permissions-path-secret',
    signingSecret: SECRET,
    nats: { address: nats.address, credentials: { kind: 'user', user: relayUser('vila'), password: accounts.password(relayUser('vila')) } },
  });
  for (let i = 0; i < 3; i++)
    expect((await post(relay.url, delivery(SECRET, { id: `evt_vila_${i}`, group: 'messages' }))).status).toBe(200);
});
test.afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()));
  await relay?.close();
  await nats?.stop();
});

async function consoleOf(operation: string, name: string): Promise<NatsConnection> {
  const nc = await asConsole(nats.address, operation, name, accounts.password(`${name}@${operation}`));
  connections.push(nc);
  return nc;
}

/** Runs `attempt` and answers how the server refused it (a permissions violation), or 'allowed'. */
async function outcome(attempt: () => Promise<unknown>): Promise<string> {
  try {
    const got = await attempt();
    return `allowed: ${JSON.stringify(got)?.slice(0, 80)}`;
  } catch (e) {
    return e instanceof Error && /Permissions Violation/i.test(e.message) ? 'refused' : `failed otherwise: ${String(e)}`;
  }
}

/** Subscribes where it should not, lets vila's relay publish and its console read, and answers what arrived and how the subscription ended. */
async function eavesdrop(nc: NatsConnection, subject: string): Promise<{ received: number; closedWith: string }> {
  const sub = nc.subscribe(subject);
  await nc.flush();
  expect((await post(relay.url, delivery(SECRET, { id: `evt_probe_${subject}`, group: 'messages' }))).status).toBe(200);
  // vila's console reads too: its consumer's replies and acknowledgements cross the server meanwhile.
  await readAll(await consoleOf('vila', 'dora'), 'vila', 'dora');
  const closed = await Promise.race([sub.closed, new Promise((resolve) => setTimeout(() => resolve('still open'), 3_000))]);
  return {
    received: sub.getReceived(),
    closedWith: closed instanceof Error ? (/Permissions Violation/.test(closed.message) ? 'refused' : closed.message) : String(closed),
  };
}

/** The JetStream API calls one might make on another operation's stream, each with a payload it would take. */
const apiCalls = (stream: string, subjectsOf: string, consumer: string) =>
  [
    ['$JS.API.INFO', ''],
    ['$JS.API.STREAM.LIST', '{}'],
    ['$JS.API.STREAM.NAMES', '{}'],
    [`$JS.API.STREAM.INFO.${stream}`, ''],
    [`$JS.API.STREAM.CREATE.${stream}`, JSON.stringify({ name: stream, subjects: [subjectsOf] })],
    [`$JS.API.STREAM.UPDATE.${stream}`, JSON.stringify({ name: stream, subjects: [subjectsOf, '_INBOX.>'] })],
    [`$JS.API.STREAM.DELETE.${stream}`, ''],
    [`$JS.API.STREAM.PURGE.${stream}`, '{}'],
    [`$JS.API.STREAM.MSG.GET.${stream}`, JSON.stringify({ seq: 1 })],
    [`$JS.API.STREAM.MSG.DELETE.${stream}`, JSON.stringify({ seq: 1 })],
    [`$JS.API.STREAM.SNAPSHOT.${stream}`, JSON.stringify({ deliver_subject: '_INBOX.x' })],
    [`$JS.API.DIRECT.GET.${stream}`, JSON.stringify({ seq: 1 })],
    [`$JS.API.DIRECT.GET.${stream}.${subjectsOf.replace('>', 'messages')}`, ''],
    [`$JS.API.CONSUMER.CREATE.${stream}`, JSON.stringify({ stream_name: stream, config: { ack_policy: 'explicit' } })],
    [
      `$JS.API.CONSUMER.CREATE.${stream}.${consumer}.${subjectsOf}`,
      JSON.stringify({ stream_name: stream, config: { durable_name: consumer, filter_subject: subjectsOf, ack_policy: 'explicit' } }),
    ],
    [
      `$JS.API.CONSUMER.DURABLE.CREATE.${stream}.${consumer}`,
      JSON.stringify({ stream_name: stream, config: { durable_name: consumer, ack_policy: 'explicit' } }),
    ],
    [`$JS.API.CONSUMER.INFO.${stream}.${consumer}`, ''],
    [`$JS.API.CONSUMER.DELETE.${stream}.${consumer}`, ''],
    [`$JS.API.CONSUMER.LIST.${stream}`, '{}'],
    [`$JS.API.CONSUMER.NAMES.${stream}`, '{}'],
    [`$JS.API.CONSUMER.MSG.NEXT.${stream}.${consumer}`, JSON.stringify({ batch: 1 })],
    [`$JS.API.CONSUMER.LEADER.STEPDOWN.${stream}.${consumer}`, ''],
    [`$JS.API.STREAM.LEADER.STEPDOWN.${stream}`, ''],
    [`$JS.ACK.${stream}.${consumer}.1.1.1.0.0`, '+ACK'],
    [subjectsOf.replace('>', 'messages'), '{"forged":true}'],
  ] as const;

/** Every call of `apiCalls` as `nc`, answered with how each ended. */
async function everyCall(nc: NatsConnection, stream: string, subjectsOf: string, consumer: string): Promise<Record<string, string>> {
  const got: Record<string, string> = {};
  for (const [subject, payload] of apiCalls(stream, subjectsOf, consumer))
    got[subject] = await outcome(() => nc.request(subject, payload, { timeout: 2_000 }));
  return got;
}

const allRefused = (stream: string, subjectsOf: string, consumer: string) =>
  Object.fromEntries(apiCalls(stream, subjectsOf, consumer).map(([subject]) => [subject, 'refused']));

/** Subjects of vila's traffic a user of acme might listen on. */
const VILA_TRAFFIC = ['relay.vila.>', '>', '_INBOX.>', '_INBOX.vila.>', '_INBOX.vila.c.ana.>', '_INBOX.vila.relay.>', '$JS.API.>', '$JS.>'];

test('acme’s console, relay and operator’s user make none of 25 JetStream calls on vila’s stream', async () => {
  for (const [user, connectAs] of [
    ['carla@acme', () => asConsole(nats.address, 'acme', 'carla', accounts.password('carla@acme'))],
    ['relay-acme', () => asRelay(nats.address, 'acme', accounts.password(relayUser('acme')))],
    ['admin-acme', () => asAdmin(nats.address, 'acme', accounts.password(adminUser('acme')))],
  ] as const) {
    const nc = await connectAs();
    connections.push(nc);
    for (const consumer of ['ana', user.split('@')[0]!.replace(/-acme$/, '')])
      expect(await everyCall(nc, 'RELAY_vila', 'relay.vila.>', consumer), `${user} on vila's consumer ${consumer}`).toEqual(
        allRefused('RELAY_vila', 'relay.vila.>', consumer),
      );
  }
  // vila's stream still holds its events, untouched.
  const ana = await consoleOf('vila', 'ana');
  expect((await readAll(ana, 'vila', 'ana')).length).toBeGreaterThanOrEqual(3);
});

test('acme’s console and relay hear nothing of vila’s traffic on any subject', async () => {
  const carla = await consoleOf('acme', 'carla');
  const relayAcme = await asRelay(nats.address, 'acme', accounts.password(relayUser('acme')));
  connections.push(relayAcme);
  for (const nc of [carla, relayAcme])
    for (const subject of VILA_TRAFFIC) expect(await eavesdrop(nc, subject), subject).toEqual({ received: 0, closedWith: 'refused' });
});

test('acme’s relay can neither widen its stream to vila’s subjects nor change it at all; its events still flow to carla, acknowledged', async () => {
  const rc = await asRelay(nats.address, 'acme', accounts.password(relayUser('acme')));
  connections.push(rc);
  const jsm = await jetstreamManager(rc, { checkAPI: false });
  const config = (await jsm.streams.info('RELAY_acme')).config;
  expect(await outcome(() => jsm.streams.update('RELAY_acme', { ...config, subjects: ['relay.acme.>', '_INBOX.vila.>'] }))).toBe('refused');
  expect(await outcome(() => jsm.streams.update('RELAY_acme', { ...config, republish: { src: '>', dest: '_INBOX.vila.c.ana.x' } }))).toBe(
    'refused',
  );
  expect(await outcome(() => jsm.streams.add({ ...config, name: 'RELAY_acme_wide', subjects: ['_INBOX.>'] }))).toBe('refused');
  expect(await outcome(() => jsm.streams.delete('RELAY_acme'))).toBe('refused');
  expect(await outcome(() => jsm.streams.purge('RELAY_acme'))).toBe('refused');
  expect((await jsm.streams.info('RELAY_acme')).config.subjects).toEqual(['relay.acme.>']);

  // The happy path: acme's relay publishes, carla's consumer reads and acknowledges.
  const acme = await startRelay({
    operation: 'acme',
    port: 0,
    pathSecret: 'permissions-path-secret',
    signingSecret: SECRET,
    nats: { address: nats.address, credentials: { kind: 'user', user: relayUser('acme'), password: accounts.password(relayUser('acme')) } },
  });
  try {
    for (let i = 0; i < 3; i++)
      expect((await post(acme.url, delivery(SECRET, { id: `evt_acme_${i}`, group: 'messages' }))).status).toBe(200);
  } finally {
    await acme.close();
  }
  const carla = await consoleOf('acme', 'carla');
  expect((await readAll(carla, 'acme', 'carla')).map((m) => m.headers?.get('Nats-Msg-Id'))).toEqual([
    'evt_acme_0',
    'evt_acme_1',
    'evt_acme_2',
  ]);
  // Acknowledged: nothing is delivered to her again.
  expect(await readAll(carla, 'acme', 'carla')).toEqual([]);
});

test('even acme’s operator, who may reshape acme’s stream, cannot reach vila’s traffic: it lives in another account', async () => {
  const admin = await asAdmin(nats.address, 'acme', accounts.password(adminUser('acme')));
  connections.push(admin);
  const jsm = await jetstreamManager(admin, { checkAPI: false });
  const before = await jsm.streams.info('RELAY_acme');
  // Accepted inside acme's account, where these subjects carry nothing of vila's.
  await jsm.streams.update('RELAY_acme', {
    ...before.config,
    subjects: ['relay.acme.>', 'relay.vila.>', '_INBOX.vila.>'],
  });
  try {
    const ana = await consoleOf('vila', 'ana');
    expect((await post(relay.url, delivery(SECRET, { id: 'evt_vila_after_widening', group: 'messages' }))).status).toBe(200);
    const read = await readAll(ana, 'vila', 'ana');
    expect(read.map((m) => m.headers?.get('Nats-Msg-Id'))).toContain('evt_vila_after_widening');
    // vila's publish, its ack and ana's consumer replies all passed: acme's stream took none of them.
    expect((await jsm.streams.info('RELAY_acme')).state.messages).toBe(before.state.messages);
  } finally {
    await jsm.streams.update('RELAY_acme', before.config);
  }
});

test('on a fresh server, acme’s relay cannot create its stream (with a republish rule or without): the operator does', async () => {
  const fresh = await startNats(await tempDir(), { users: accounts.users, streams: false });
  try {
    const rc = await asRelay(fresh.address, 'acme', accounts.password(relayUser('acme')));
    connections.push(rc);
    const jsm = await jetstreamManager(rc, { checkAPI: false });
    const wanted = streamConfig('acme', RELAY_LIMITS);
    expect(await outcome(() => jsm.streams.add({ ...wanted, republish: { src: '>', dest: '_INBOX.vila.relay.x' } }))).toBe('refused');
    expect(await outcome(() => jsm.streams.add({ ...wanted, subjects: ['relay.acme.>', '_INBOX.>'] }))).toBe('refused');
    expect(await outcome(() => jsm.streams.add(wanted))).toBe('refused');
    await expect(
      startRelay({
        operation: 'acme',
        port: 0,
        pathSecret: 'permissions-path-secret',
        signingSecret: SECRET,
        nats: {
          address: fresh.address,
          credentials: { kind: 'user', user: relayUser('acme'), password: accounts.password(relayUser('acme')) },
        },
      }),
    ).rejects.toThrow('The stream RELAY_acme does not exist yet: create it with `npm run relay -- stream --operation acme`');
    // The account's JetStream limits hold for its operator too: no memory storage.
    const admin = await asAdmin(fresh.address, 'acme', accounts.password(adminUser('acme')));
    connections.push(admin);
    await expect(
      (await jetstreamManager(admin, { checkAPI: false })).streams.add({ ...wanted, storage: StorageType.Memory, max_bytes: 1024 * 1024 }),
    ).rejects.toThrow('insufficient memory resources');
    await makeStreams(fresh.address, accounts.users);
    expect((await jsm.streams.info('RELAY_acme')).config.subjects).toEqual(['relay.acme.>']);
  } finally {
    await fresh.stop();
  }
});

test('a republish rule acme’s operator writes delivers nothing into vila’s account', async () => {
  const fresh = await startNats(await tempDir(), { users: accounts.users, streams: false });
  try {
    await makeStreams(
      fresh.address,
      accounts.users.filter((u) => u.operation === 'vila'),
    );
    const admin = await asAdmin(fresh.address, 'acme', accounts.password(adminUser('acme')));
    connections.push(admin);
    await jetstreamManager(admin, { checkAPI: false }).then((jsm) =>
      jsm.streams.add({
        ...streamConfig('acme', RELAY_LIMITS),
        republish: { src: 'relay.acme.>', dest: '_INBOX.vila.c.ana.copy.>' },
      }),
    );
    const ana = await asConsole(fresh.address, 'vila', 'ana', accounts.password('ana@vila'));
    connections.push(ana);
    const inbox = ana.subscribe('_INBOX.vila.c.ana.copy.>');
    await ana.flush();
    const rc = await asRelay(fresh.address, 'acme', accounts.password(relayUser('acme')));
    connections.push(rc);
    const ack = await jetstream(rc, { checkAPI: false }).publish('relay.acme.messages', '{"id":"evt_acme_republished"}');
    expect(ack.seq).toBe(1);
    // Stored in acme's stream, republished inside acme's account; ana's inbox, in vila's, got nothing.
    await rc.flush();
    await ana.flush();
    expect(inbox.getReceived()).toBe(0);
  } finally {
    await fresh.stop();
  }
});

test('within one operation, a console reads through its own consumer only and cannot widen it or write to the stream', async () => {
  const ana = await consoleOf('vila', 'ana');
  const bruno = await consoleOf('vila', 'bruno');
  expect((await post(relay.url, delivery(SECRET, { id: 'evt_vila_within', group: 'messages' }))).status).toBe(200);
  expect((await readAll(ana, 'vila', 'ana')).map((m) => m.headers?.get('Nats-Msg-Id'))).toContain('evt_vila_within');
  const jsm = await jetstreamManager(bruno, { checkAPI: false });
  const js = jetstream(bruno, { checkAPI: false });
  expect(await outcome(() => jsm.consumers.info('RELAY_vila', 'ana'))).toBe('refused');
  expect(await outcome(() => jsm.consumers.delete('RELAY_vila', 'ana'))).toBe('refused');
  expect(
    await outcome(() => bruno.request('$JS.API.CONSUMER.MSG.NEXT.RELAY_vila.ana', JSON.stringify({ batch: 1 }), { timeout: 2_000 })),
  ).toBe('refused');
  expect(
    await outcome(() =>
      jsm.consumers.add('RELAY_vila', { durable_name: 'bruno', ack_policy: AckPolicy.Explicit, filter_subject: 'relay.>' }),
    ),
  ).toBe('refused');
  expect(await outcome(() => jsm.consumers.add('RELAY_vila', { durable_name: 'bruno', ack_policy: AckPolicy.Explicit }))).toBe('refused');
  expect(await outcome(() => js.publish('relay.vila.messages', '{"forged":true}', { timeout: 2_000 }))).toBe('refused');
  expect(await eavesdrop(bruno, '_INBOX.vila.c.ana.>')).toEqual({ received: 0, closedWith: 'refused' });
  // His own consumer reads every event of the operation.
  const own = await readAll(bruno, 'vila', 'bruno');
  expect(own.map((m) => m.headers?.get('Nats-Msg-Id'))).toEqual(expect.arrayContaining(['evt_vila_0', 'evt_vila_1', 'evt_vila_2']));
});
