import { test, expect } from '@playwright/test';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { startRelay, type Relay } from '../../../src-main/relay/relay';
import { relayUser } from '../../../src-main/relay/permissions';
import { natsMissing, startNats, testUsers, type NatsServer } from '../../support/nats';
import { asConsole, delivery, post, readAll } from '../../support/relay';
import { tempDirs } from '../../support/temp-dirs';

test.skip(natsMissing() !== null, natsMissing() ?? '');

const tempDir = tempDirs('relay-perm-');
const SECRET = 'whsec_cGVybWlzc2lvbnMtdGVzdC1zaWduaW5nLXNlY3JldA';
const accounts = testUsers({ vila: ['ana', 'bruno'], acme: ['carla'] });

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
  // acme's relay makes acme's stream (carla's own).
  await (
    await startRelay({
      operation: 'acme',
      port: 0,
      pathSecret: 'permissions-path-secret',
      signingSecret: SECRET,
      nats: {
        address: nats.address,
        credentials: { kind: 'user', user: relayUser('acme'), password: accounts.password(relayUser('acme')) },
      },
    })
  ).close();
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

/** Subscribes where it should not, lets the relay publish, and answers what arrived and how the subscription ended. */
async function eavesdrop(nc: NatsConnection, subject: string): Promise<{ received: number; closedWith: string }> {
  const sub = nc.subscribe(subject);
  await nc.flush();
  expect((await post(relay.url, delivery(SECRET, { id: `evt_probe_${subject}`, group: 'messages' }))).status).toBe(200);
  const closed = await Promise.race([sub.closed, new Promise((resolve) => setTimeout(() => resolve('still open'), 3_000))]);
  return {
    received: sub.getReceived(),
    closedWith: closed instanceof Error ? (/Permissions Violation/.test(closed.message) ? 'refused' : closed.message) : String(closed),
  };
}

test('a second workspace’s credentials read nothing of the first', async () => {
  const carla = await consoleOf('acme', 'carla');
  const jsm = await jetstreamManager(carla, { checkAPI: false });
  const js = jetstream(carla, { checkAPI: false });
  const onVila = { ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, filter_subject: 'relay.vila.>' } as const;
  // Her own operation's stream is hers to read...
  expect(await readAll(carla, 'acme', 'carla')).toEqual([]);
  // ...and nothing of vila's, by any way JetStream or core NATS offers.
  expect(await outcome(() => jsm.consumers.add('RELAY_vila', { ...onVila, durable_name: 'carla' }))).toBe('refused');
  expect(await outcome(() => jsm.consumers.add('RELAY_vila', { ...onVila, durable_name: 'ana' }))).toBe('refused');
  expect(await outcome(() => jsm.consumers.add('RELAY_acme', { ...onVila, durable_name: 'carla' }))).toBe('refused');
  expect(await outcome(() => jsm.consumers.info('RELAY_vila', 'ana'))).toBe('refused');
  expect(await outcome(() => js.consumers.get('RELAY_vila', 'ana'))).toBe('refused');
  expect(await outcome(() => jsm.streams.getMessage('RELAY_vila', { seq: 1 }))).toBe('refused');
  expect(await outcome(() => jsm.streams.info('RELAY_vila'))).toBe('refused');
  expect(await outcome(() => carla.request('$JS.API.DIRECT.GET.RELAY_vila', JSON.stringify({ seq: 1 }), { timeout: 2_000 }))).toBe(
    'refused',
  );
  expect(await outcome(() => js.publish('relay.vila.messages', '{"forged":true}', { timeout: 2_000 }))).toBe('refused');
  expect(await eavesdrop(carla, 'relay.vila.>')).toEqual({ received: 0, closedWith: 'refused' });
  expect(await eavesdrop(carla, '>')).toEqual({ received: 0, closedWith: 'refused' });
  expect(await eavesdrop(carla, '_INBOX.vila.c.ana.>')).toEqual({ received: 0, closedWith: 'refused' });
});

test('within one operation, a console reads through its own consumer only and cannot widen it or write to the stream', async () => {
  const ana = await consoleOf('vila', 'ana');
  const bruno = await consoleOf('vila', 'bruno');
  expect((await readAll(ana, 'vila', 'ana')).length).toBeGreaterThanOrEqual(3);
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
