import { test, expect } from '@playwright/test';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Standin } from '../../../src-standin/index';
import type { LiveSource, RelaySetting } from '../../../src-shared/bridge/live';
import { natsMissing, testUsers, type NatsServer } from '../../support/nats';
import { startRelayStack, type RelayStack } from '../../support/relay';
import { openConsole } from '../../support/console';
import { customerSays } from '../../support/customer';
import { tempDirs } from '../../support/temp-dirs';

test.skip(natsMissing() !== null, natsMissing() ?? '');

const tempDir = tempDirs('relay-live-');
const SECRET = 'whsec_Y29uc29sZS1saXZlLXRlc3Qtc2lnbmluZy1zZWNyZXQ';
const accounts = testUsers({ vila: ['ana', 'bruno', 'caio', 'duda'] });
/** The safety-net poll, fast: a second or two instead of 30 to 180 s. */
const pollPace = { pollingMs: 500, pollingIdleMaxMs: 1_000, liveMs: 2_000, liveIdleMaxMs: 3_000, errorMaxMs: 3_000 };

let nats: NatsServer;
let sb: Standin;
let stack: RelayStack | undefined;
test.beforeAll(async () => {
  stack = await startRelayStack({
    dir: await tempDir(),
    accounts,
    signingSecret: SECRET,
    pathSecret: 'console-live-path-secret',
    groups: ['messages', 'sessions'],
  });
  ({ nats, sb } = stack);
});
test.afterAll(async () => {
  await stack?.close();
});

const relaySetting = (name: string): RelaySetting => ({
  address: nats.address,
  operation: 'vila',
  console: name,
  auth: 'user',
  user: `${name}@vila`,
});
const relaySource = (name: string): LiveSource => ({ kind: 'relay', relay: relaySetting(name) });

/** Every file under a folder. */
async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** A console signed in to the service as the demo agent, its live events from the relay as `name`. */
async function consoleOn(name: string, profileDir?: string) {
  const c = await openConsole(profileDir, { pollPace });
  if (!profileDir) {
    await c.call('workspace:connect', { baseUrl: sb.baseUrl, token: sb.tokens.agent, allowWeakStorage: true });
    await c.call('live:setSource', { source: relaySource(name), secret: accounts.password(`${name}@vila`) });
  }
  await expect.poll(async () => (await c.call('live:status', {})).relay?.state).toBe('live');
  return c;
}

async function mySession(c: Awaited<ReturnType<typeof openConsole>>): Promise<number> {
  const queue = await c.call('attendance:queue', {});
  return queue.items.find((i) => i.agentUserName === sb.demoAgent.userName && i.status === 'OPEN')!.id;
}

const shows = (c: Awaited<ReturnType<typeof openConsole>>, sessionId: number, messageId: number) =>
  c.events('attendance:messages').some((e) => e.sessionId === sessionId && e.messages.some((m) => m.id === messageId));

test('two consoles reading one relay both show a customer’s message, and neither runs a listener', async () => {
  const ana = await consoleOn('ana');
  const bruno = await consoleOn('bruno');
  try {
    const sessionId = await mySession(ana);
    await ana.call('attendance:openThread', { sessionId });
    await bruno.call('attendance:openThread', { sessionId });
    const said = await customerSays(sb.baseUrl, sb.tokens.admin, sessionId, 'Oi! Alguém pode me ajudar com a entrega?');
    await expect.poll(() => shows(ana, sessionId, said) && shows(bruno, sessionId, said)).toBe(true);
    for (const c of [ana, bruno]) {
      const live = await c.call('live:status', {});
      expect(live).toMatchObject({ state: 'running', source: 'relay', relay: { state: 'live', reason: null } });
      expect(live.accepted).toBeGreaterThan(0);
      expect((await c.call('webhooks:status', {})).localUrl).toBeNull();
      // The event log lists what came through the relay.
      expect((await c.call('webhooks:log', {})).entries.some((e) => e.type === 'message.created' && e.raw.includes(String(said)))).toBe(
        true,
      );
    }
  } finally {
    await Promise.all([ana.app.close(), bruno.app.close()]);
  }
});

test('the relay’s password is kept in the workspace’s vault: never answered, never on disk in clear, forgotten when the source changes', async () => {
  const caio = await consoleOn('caio');
  const password = accounts.password('caio@vila');
  try {
    expect(await caio.call('live:source', {})).toEqual({ source: relaySource('caio'), secretSaved: true });
    // The same login again without its password keeps the one kept; another login needs its own.
    expect((await caio.call('live:setSource', { source: relaySource('caio') })).secretSaved).toBe(true);
    const other = await caio.fail('live:setSource', {
      source: { kind: 'relay', relay: { ...relaySetting('caio'), user: 'someone@vila' } },
    });
    expect(other).toMatchObject({ kind: 'Invalid', field: 'secret', message: 'Give the NATS password.' });
    const bad = await caio.fail('live:setSource', {
      source: { kind: 'relay', relay: { ...relaySetting('caio'), address: 'http://relay.example.com' } },
      secret: 'x',
    });
    expect(bad).toMatchObject({ kind: 'Invalid', field: 'address' });
    const files = await filesUnder(caio.profileDir);
    for (const f of files) expect((await readFile(f)).includes(password), f).toBe(false);
    const events = JSON.stringify(caio.events('live:status'));
    expect(events).not.toContain(password);

    expect(await caio.call('live:setSource', { source: { kind: 'polling' } })).toEqual({ source: { kind: 'polling' }, secretSaved: false });
    const polling = await caio.call('live:status', {});
    expect(polling).toMatchObject({ state: 'running', source: 'polling', relay: null });
    expect((await caio.call('webhooks:status', {})).localUrl).toBeNull();
    const back = await caio.fail('live:setSource', { source: relaySource('caio') });
    expect(back).toMatchObject({ field: 'secret' });
  } finally {
    await caio.app.close();
  }
});

test('nats-server stopped: the console says so and keeps working by polling, then catches up from the relay once it is back', async () => {
  test.setTimeout(120_000);
  const duda = await consoleOn('duda');
  try {
    const sessionId = await mySession(duda);
    await duda.call('attendance:openThread', { sessionId });
    const before = (await duda.call('live:status', {})).accepted;
    await nats.stop();
    let meantime: number[] = [];
    try {
      await expect.poll(async () => (await duda.call('live:status', {})).relay).toMatchObject({ state: 'unreachable' });
      // The safety-net poll reads the service meanwhile: the thread still shows what customers write.
      meantime = [
        await customerSays(sb.baseUrl, sb.tokens.admin, sessionId, 'O relay caiu?'),
        await customerSays(sb.baseUrl, sb.tokens.admin, sessionId, 'Continuo aqui.'),
      ];
      await expect.poll(() => meantime.every((id) => shows(duda, sessionId, id))).toBe(true);
      expect((await duda.call('live:status', {})).accepted).toBe(before);
    } finally {
      await nats.start();
    }
    await expect.poll(async () => (await duda.call('live:status', {})).relay?.state, { timeout: 30_000 }).toBe('live');
    // The service delivered those events again once the relay could store them: they arrive once each.
    await expect.poll(async () => (await duda.call('live:status', {})).accepted, { timeout: 60_000 }).toBe(before + meantime.length);
    const log = (await duda.call('webhooks:log', {})).entries.filter((e) => meantime.some((id) => e.raw.includes(`"id":${id}`)));
    expect(log).toHaveLength(meantime.length);
  } finally {
    await duda.app.close();
  }
});

test('a console closed for a while gets every event of the meantime once at its next start', async () => {
  const first = await consoleOn('ana');
  const profileDir = first.profileDir;
  const sessionId = await mySession(first);
  await first.app.close();
  const meantime: number[] = [];
  for (let i = 0; i < 5; i++)
    meantime.push(await customerSays(sb.baseUrl, sb.tokens.admin, sessionId, `Enquanto o console estava fechado ${i}`));
  const again = await consoleOn('ana', profileDir);
  try {
    await expect
      .poll(
        async () =>
          (await again.call('webhooks:log', {})).entries.filter((e) => meantime.some((id) => e.raw.includes(`"id":${id}`))).length,
      )
      .toBe(5);
    // Each came once: the relay's consumer had kept them, and nothing came twice.
    expect((await again.call('live:status', {})).accepted).toBe(5);
  } finally {
    await again.app.close();
  }
});
