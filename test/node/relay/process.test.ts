import { test, expect } from '@playwright/test';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startStandin, type Standin } from '../../../src-standin/index';
import { standinClient } from '../../../src-standin/test-client';
import { relayUser } from '../../../src-main/relay/permissions';
import { readRelayState } from '../../../src-main/relay/state-file';
import { natsMissing, startNats, testUsers } from '../../support/nats';
import { asConsole, asRelay, readAll, runRelayCli, spawnRelay, storedCount, type RelayProcess } from '../../support/relay';
import { customerSays } from '../../support/customer';
import { freePort } from '../../support/sshd';
import { tempDirs } from '../../support/temp-dirs';

test.skip(natsMissing() !== null, natsMissing() ?? '');

const tempDir = tempDirs('relay-proc-');

test('nats-config writes the users and permissions nats-server runs with, in a private file', async () => {
  const dir = await tempDir();
  const out = join(dir, 'relay-auth.conf');
  const relayPassword = join(dir, 'relay-password');
  const run = await runRelayCli([
    'nats-config',
    '--operation',
    'vila',
    '--console',
    'ana',
    '--console',
    'bruno',
    '--out',
    out,
    '--relay-password-file',
    relayPassword,
  ]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('relay-vila, ana@vila, bruno@vila');
  const config = await readFile(out, 'utf8');
  const password = (await readFile(relayPassword, 'utf8')).trim();
  // Secrets go to the private files, never to the terminal.
  expect(run.stdout).not.toContain(password);
  for (const f of [out, relayPassword]) expect((await stat(f)).mode & 0o777).toBe(0o600);
  const nats = await startNats(dir, { config });
  try {
    const nc = await asRelay(nats.address, 'vila', password);
    await nc.close();
    const wrong = await runRelayCli(['nats-config', '--operation', 'vila.*', '--console', 'ana', '--out', out]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('The operation name "vila.*" must be 1 to 64 letters, digits, "-" or "_".');
  } finally {
    await nats.stop();
  }
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
