import { test, expect } from '@playwright/test';
import { connectOptions, isLoopbackHost, parseNatsAddress } from '../../../src-main/relay/connection';
import {
  adminUser,
  consolePermissions,
  consoleUser,
  natsAccountConfig,
  operationUsers,
  relayUser,
} from '../../../src-main/relay/permissions';
import { eventSubject, streamName } from '../../../src-main/relay/subjects';

test('TLS is required for every NATS address off this computer, and for tls:// on it', () => {
  expect(parseNatsAddress('nats://127.0.0.1:4222')).toEqual({ server: '127.0.0.1:4222', host: '127.0.0.1', port: 4222, tls: false });
  expect(parseNatsAddress('localhost')).toMatchObject({ server: 'localhost:4222', tls: false });
  expect(parseNatsAddress('[::1]:4333')).toMatchObject({ port: 4333, tls: false });
  expect(parseNatsAddress('127.8.9.10:14222')).toMatchObject({ tls: false });
  expect(parseNatsAddress('tls://127.0.0.1:4222')).toMatchObject({ tls: true });
  for (const remote of [
    'nats://relay.example.com:4222',
    'relay.example.com',
    '10.0.0.5:4222',
    'nats://[2001:db8::1]:4222',
    'nats://localhost.example.com',
  ])
    expect(parseNatsAddress(remote).tls, remote).toBe(true);
  const user = { kind: 'user', user: 'ana@vila', password: 'pw' } as const;
  expect(connectOptions('nats://relay.example.com', user, { name: 'ana', inboxPrefix: '_INBOX.vila.c.ana' })).toMatchObject({
    servers: 'relay.example.com:4222',
    tls: {},
    user: 'ana@vila',
    pass: 'pw',
  });
  expect(connectOptions('nats://127.0.0.1', { kind: 'token', token: 't' }, { name: 'ana', inboxPrefix: 'x' })).not.toHaveProperty('tls');
  expect(isLoopbackHost('128.0.0.1')).toBe(false);
});

test('a bad address or missing credentials are refused with a sentence that says what to fix', () => {
  const cases: Array<[string, RegExp]> = [
    ['http://relay.example.com', /starts with nats:\/\/ or tls:\/\//],
    ['nats://ana:pw@relay.example.com', /credentials in their own fields/],
    ['nats://relay.example.com/path', /a host and a port, nothing after them/],
    ['nats://', /not a NATS address|names no host/],
  ];
  for (const [address, message] of cases) expect(() => parseNatsAddress(address), address).toThrow(message);
  expect(() => connectOptions('nats://127.0.0.1', { kind: 'user', user: 'ana', password: '' }, { name: 'a', inboxPrefix: 'x' })).toThrow(
    'Give the NATS user and its password.',
  );
  expect(() => connectOptions('nats://127.0.0.1', { kind: 'token', token: '' }, { name: 'a', inboxPrefix: 'x' })).toThrow(
    'Give the NATS token.',
  );
});

test('names become subjects safely: an odd group goes to "other", a name with NATS syntax is refused', () => {
  expect(eventSubject('vila', 'messages')).toBe('relay.vila.messages');
  for (const odd of ['billing', 'messages.x', '*', '>', undefined]) expect(eventSubject('vila', odd)).toBe('relay.vila.other');
  for (const bad of ['vila.serena', 'vila*', 'a>', 'with space', '', 'x'.repeat(65)])
    expect(() => streamName(bad), bad).toThrow(/must be 1 to 64 letters/);
  expect(() => consolePermissions('vila', 'ana.*')).toThrow(/console name "ana\.\*"/);
});

test('each console gets its own user and a random password; user names cannot collide across operations', () => {
  const a = operationUsers('vila', [{ name: 'ana' }, { name: 'relay' }]);
  const b = operationUsers('vila', [{ name: 'ana' }]);
  expect(a.map((u) => u.user)).toEqual([relayUser('vila'), adminUser('vila'), consoleUser('vila', 'ana'), consoleUser('vila', 'relay')]);
  expect(new Set(a.map((u) => u.user)).size).toBe(4);
  expect(a[2]!.password).not.toBe(b[2]!.password);
  expect(a[2]!.password.length).toBeGreaterThanOrEqual(32);
  expect(relayUser('a-b')).not.toBe(consoleUser('a', 'b'));
  expect(adminUser('relay-x')).not.toBe(relayUser('admin-x'));
  // The account's text holds the permissions and bcrypt hashes, never a password in clear.
  const text = natsAccountConfig('vila', a, { maxBytes: 1024, replicas: 3 }, 4);
  expect(text).toContain('"$JS.API.CONSUMER.CREATE.RELAY_vila.ana.relay.vila.>"');
  expect(text).toContain('"OP_vila": {');
  expect(text).toContain('"max_file":3072');
  expect(text.match(/"password":"\$2b\$04\$/g)).toHaveLength(4);
  for (const u of a) expect(text).not.toContain(u.password);
});
