import { test, expect } from '@playwright/test';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startStandin, type Standin } from '../../../src-standin/index';
import { standinClient } from '../../../src-standin/test-client';
import { natsServerConfig, relayUser } from '../../../src-main/relay/permissions';
import { readRelayState } from '../../../src-main/relay/state-file';
import { natsMissing, startNats, testUsers } from '../../support/nats';
import { asConsole, asRelay, readAll, runRelayCli, spawnRelay, storedCount, type RelayProcess } from '../../support/relay';
import { customerSays } from '../../support/customer';
import { freePort } from '../../support/sshd';
import { tempDirs } from '../../support/temp-dirs';

test.skip(natsMissing() !== null, natsMissing() ?? '');

const tempDir = tempDirs('relay-proc-');

test('nats-config writes one account per operation: two compose into one server, passwords hashed, secrets private, no write through a link', async () => {
  const dir = await tempDir();
  const secrets = join(dir, 'secrets');
  const config = (operation: string, consoles: string[], extra: string[] = []) =>
    runRelayCli([
      'nats-config',
      '--operation',
      operation,
      ...consoles.flatMap((c) => ['--console', c]),
      '--out',
      join(dir, `nats-${operation}.conf`),
      '--secrets-dir',
      secrets,
      ...extra,
    ]);
  const acme = await config('acme', ['carla'], ['--max-gib', '1']);
  expect(acme.code, acme.stderr).toBe(0);
  const vila = await config('vila', ['ana', 'bruno'], ['--max-gib', '1']);
  expect(vila.code, vila.stderr).toBe(0);
  expect(vila.stdout).toContain('relay-vila, admin-vila, ana@vila, bruno@vila');
  const users = ['relay-acme', 'admin-acme', 'carla@acme', 'relay-vila', 'admin-vila', 'ana@vila', 'bruno@vila'];
  const password = async (user: string) => (await readFile(join(secrets, `${user}.pass`), 'utf8')).trim();
  expect((await stat(secrets)).mode & 0o777).toBe(0o700);
  for (const user of users) {
    expect((await stat(join(secrets, `${user}.pass`))).mode & 0o777).toBe(0o600);
    expect((await password(user)).length).toBeGreaterThanOrEqual(32);
  }
  // The configurations hold bcrypt hashes only; no password reaches them or the terminal.
  const text = (await readFile(join(dir, 'nats-acme.conf'), 'utf8')) + (await readFile(join(dir, 'nats-vila.conf'), 'utf8'));
  expect(text.match(/"password":"\$2b\$11\$/g)).toHaveLength(users.length);
  for (const user of users) {
    expect(text).not.toContain(await password(user));
    expect(acme.stdout + vila.stdout).not.toContain(await password(user));
  }
  for (const f of ['nats-acme.conf', 'nats-vila.conf']) expect((await stat(join(dir, f))).mode & 0o777).toBe(0o600);

  // One server, one include per operation inside its accounts block: both accounts, every user.
  const nats = await startNats(dir, { config: natsServerConfig(['nats-acme.conf', 'nats-vila.conf']) });
  try {
    expect(nats.log()).not.toContain('Plaintext passwords');
    for (const operation of ['acme', 'vila']) {
      const made = await runRelayCli([
        'stream',
        '--operation',
        operation,
        '--nats',
        nats.address,
        '--nats-password-file',
        join(secrets, `admin-${operation}.pass`),
        '--max-gib',
        '1',
      ]);
      expect(made.code, made.stderr).toBe(0);
      expect(made.stdout).toContain(`stream RELAY_${operation} holds relay.${operation}.>`);
      const nc = await asRelay(nats.address, operation, await password(`relay-${operation}`));
      expect(await storedCount(nc, operation)).toBe(0);
      await nc.close();
    }
    for (const [operation, console] of [
      ['acme', 'carla'],
      ['vila', 'ana'],
      ['vila', 'bruno'],
    ] as const) {
      const nc = await asConsole(nats.address, operation, console, await password(`${console}@${operation}`));
      expect(await readAll(nc, operation, console)).toEqual([]);
      await nc.close();
    }
    // The account's JetStream limits hold: a stream larger than the account was given is refused.
    const tooLarge = await runRelayCli([
      'stream',
      '--operation',
      'vila',
      '--nats',
      nats.address,
      '--nats-password-file',
      join(secrets, 'admin-vila.pass'),
      '--max-gib',
      '4',
    ]);
    expect(tooLarge.code).toBe(1);
    expect(tooLarge.stderr).toMatch(/resources|limit/i);
    // Nor does serve take the stream's limits: they are the operator's step's.
    const serveWithLimits = await runRelayCli([
      'serve',
      '--operation',
      'acme',
      '--nats',
      nats.address,
      '--nats-password-file',
      join(secrets, 'relay-acme.pass'),
      '--replicas',
      '3',
    ]);
    expect(serveWithLimits.code).toBe(2);
    expect(serveWithLimits.stderr).toContain("--replicas belongs to the operator's `stream` step, not to serve.");
    // The relay's user cannot make or change the stream: that is the operator's step.
    const asRelayUser = await runRelayCli([
      'stream',
      '--operation',
      'acme',
      '--nats',
      nats.address,
      '--nats-user',
      'relay-acme',
      '--nats-password-file',
      join(secrets, 'relay-acme.pass'),
      '--max-gib',
      '2',
    ]);
    expect(asRelayUser.code).toBe(1);
    expect(asRelayUser.stderr).toMatch(/Permissions Violation|timeout/i);
  } finally {
    await nats.stop();
  }

  // Why one include per operation inside the accounts block: an accounts block per included
  // file does not add up in nats-server 2.9, the last one replaces the others (acme's users gone).
  const separate = join(dir, 'separate');
  await mkdir(separate);
  for (const operation of ['acme', 'vila']) {
    await writeFile(join(separate, `nats-${operation}.conf`), await readFile(join(dir, `nats-${operation}.conf`)));
    await writeFile(join(separate, `wrapped-${operation}.conf`), `accounts {\n  include "nats-${operation}.conf"\n}\n`);
  }
  const replaced = await startNats(separate, { config: 'jetstream: enabled\ninclude "wrapped-acme.conf"\ninclude "wrapped-vila.conf"\n' });
  try {
    await expect(asRelay(replaced.address, 'acme', await password('relay-acme'))).rejects.toThrow(/Authorization Violation/i);
    await (await asRelay(replaced.address, 'vila', await password('relay-vila'))).close();
  } finally {
    await replaced.stop();
  }

  // A symbolic link at --out (or at a secret's path) is refused and its target left as it was.
  await writeFile(join(dir, 'elsewhere'), 'keep\n');
  await symlink(join(dir, 'elsewhere'), join(dir, 'linked.conf'));
  const linked = await runRelayCli([
    'nats-config',
    '--operation',
    'acme',
    '--console',
    'carla',
    '--out',
    join(dir, 'linked.conf'),
    '--secrets-dir',
    join(dir, 's2'),
  ]);
  expect(linked.code).toBe(2);
  expect(linked.stderr).toContain('linked.conf is a symbolic link');
  // Refused before anything was written: no secrets folder, no new passwords.
  expect(existsSync(join(dir, 's2'))).toBe(false);
  await mkdir(join(dir, 's3'));
  await symlink(join(dir, 'elsewhere'), join(dir, 's3', 'relay-acme.pass'));
  const linkedSecret = await runRelayCli([
    'nats-config',
    '--operation',
    'acme',
    '--console',
    'carla',
    '--out',
    join(dir, 'x.conf'),
    '--secrets-dir',
    join(dir, 's3'),
  ]);
  expect(linkedSecret.code).toBe(2);
  expect(linkedSecret.stderr).toContain('relay-acme.pass is a symbolic link');
  expect(await readdir(join(dir, 's3'))).toEqual(['relay-acme.pass']);
  expect(existsSync(join(dir, 'x.conf'))).toBe(false);
  expect(await readFile(join(dir, 'elsewhere'), 'utf8')).toBe('keep\n');

  const wrong = await runRelayCli([
    'nats-config',
    '--operation',
    'vila.*',
    '--console',
    'ana',
    '--out',
    join(dir, 'y.conf'),
    '--secrets-dir',
    secrets,
  ]);
  expect(wrong.code).toBe(1);
  expect(wrong.stderr).toContain('The operation name "vila.*" must be 1 to 64 letters, digits, "-" or "_".');
});

async function firstOpenSession(sb: Standin): Promise<number> {
  const page = (
    await standinClient(sb.baseUrl, sb.tokens.admin).v2('/user-session', {
      conditions: [{ key: 'status', operator: 'EQ', value: 'OPEN' }],
      sort: false,
      size: 1,
    })
  ).json<{
    results: Array<{ id: number }>;
  }>();
  return page.results[0]!.id;
}

async function hookCount(sb: Standin): Promise<number> {
  return (await standinClient(sb.baseUrl, sb.tokens.admin).get('/chatapi/1.0/api/v2/hook')).json<{ results: unknown[] }>().results.length;
}

test('one registration at the service; a relay killed and restarted and a nats-server restarted lose no customer message', async () => {
  test.setTimeout(180_000);
  const dir = await tempDir();
  const accounts = testUsers({ vila: ['ana'] });
  const nats = await startNats(dir, { users: accounts.users });
  // The service retries a failed delivery with the same id, up to 12 times from 100 ms doubling.
  const sb = await startStandin({ port: 0, simulator: false, webhookRetry: { attempts: 12, baseDelayMs: 100, timeoutMs: 3_000 } });
  let relay: RelayProcess | null = null;
  try {
    const port = await freePort();
    const tokenFile = join(dir, 'service-token');
    await writeFile(tokenFile, sb.tokens.admin, { mode: 0o600 });
    const register = () =>
      runRelayCli([
        'register',
        '--service',
        sb.baseUrl,
        '--token-file',
        tokenFile,
        '--public-url',
        `http://127.0.0.1:${port}`,
        '--state-dir',
        join(dir, 'state'),
        '--groups',
        'messages',
      ]);
    const first = await register();
    expect(first.code, first.stderr).toBe(0);
    // Registering again replaces the registration: the service delivers each event once.
    expect((await register()).code).toBe(0);
    expect(await hookCount(sb)).toBe(1);
    const state = (await readRelayState(join(dir, 'state')))!;
    expect(first.stdout).toMatch(/registered with the service as webhook \d+/);
    expect(first.stdout).not.toContain(state.pathSecret);
    expect(first.stdout).not.toContain(state.signingSecret);

    const start = () => spawnRelay({ dir, operation: 'vila', address: nats.address, password: accounts.password(relayUser('vila')), port });
    relay = await start();
    const rc = await asRelay(nats.address, 'vila', accounts.password(relayUser('vila')));
    const sessionId = await firstOpenSession(sb);
    const sent: number[] = [];
    const say = async (n: number, what: string) => {
      for (let i = 0; i < n; i++) sent.push(await customerSays(sb.baseUrl, sb.tokens.admin, sessionId, `${what} ${i}`));
    };
    const allStored = () => expect.poll(() => storedCount(rc, 'vila'), { timeout: 60_000 }).toBe(sent.length);

    await say(5, 'Olá');
    await allStored();
    // Killed outright: what it had not answered, the service delivers again to the next run.
    await relay.stop('SIGKILL');
    await say(5, 'Enquanto o relay estava parado');
    relay = await start();
    await say(5, 'Depois do relay voltar');
    await allStored();
    await nats.stop();
    await say(5, 'Enquanto o NATS estava parado');
    await nats.start();
    await say(5, 'Depois do NATS voltar');
    await allStored();
    await rc.close();

    const ana = await asConsole(nats.address, 'vila', 'ana', accounts.password('ana@vila'));
    const got = await readAll(ana, 'vila', 'ana');
    await ana.close();
    const ids = got.map((m) => m.json<{ data: { message: { id: number } } }>().data.message.id);
    expect(ids.sort((a, b) => a - b)).toEqual([...sent].sort((a, b) => a - b));

    const gone = await runRelayCli(['unregister', '--service', sb.baseUrl, '--token-file', tokenFile, '--state-dir', join(dir, 'state')]);
    expect(gone.code, gone.stderr).toBe(0);
    expect(await hookCount(sb)).toBe(0);
  } finally {
    await relay?.stop();
    await sb.close();
    await nats.stop();
  }
});
