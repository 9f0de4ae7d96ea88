import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Host } from '../../../src-main/host/start-host';
import { createConfStore } from '../../../src-main/vault/conf-store';
import type { Standin } from '../../../src-standin/index';
import { launchHost, runningStandin, webBridge } from '../../support/host';
import { takePort } from '../../support/port-taker';
import { serviceApi, type Rec } from '../../support/web';
import { tempDirs } from '../../support/temp-dirs';

const tempDir = tempDirs('console-first-view-');

/**
 * A profile that remembers the demo workspace and kept copies of what its first view showed
 * (the queue, the directory, the attendant's rules): a console used before. `meanwhile` runs at
 * the service after that view.
 */
async function usedProfile(meanwhile?: (sb: Standin, call: Call) => Promise<void>): Promise<string> {
  const profile = await tempDir();
  createConfStore(profile, 'settings').set('workspace', { kind: 'demo' });
  const first = await launchHost(profile);
  try {
    const call = await webBridge(first);
    for (const channel of ['attendance:queue', 'attendance:directory', 'supervisor:rules']) expect((await call(channel)).status).toBe(200);
    await meanwhile?.(first.app.standin!, call);
  } finally {
    await first.close();
  }
  return profile;
}

type Call = Awaited<ReturnType<typeof webBridge>>;
type Item = { id: number };
const ids = (body: unknown): Set<number> => new Set((body as { result: { items: Item[] } }).result.items.map((i) => i.id));

/**
 * Launches the console as `npm start` does on a used profile (the page served at once, what its
 * first view does not need held back until the page says it is shown, or `firstViewWithinMs`),
 * asks for the first view's queue as the page does, and runs `scene` with the sessions it showed.
 */
async function launched(
  firstViewWithinMs: number,
  scene: (host: Host, call: Call, shown: Set<number>) => Promise<void>,
  meanwhile?: (sb: Standin, call: Call) => Promise<void>,
): Promise<void> {
  const profile = await usedProfile(meanwhile);
  const host = await launchHost(profile, 'en-US', { serveWhileStarting: true, firstViewWithinMs });
  try {
    const call = await webBridge(host);
    const shown = ids((await call('attendance:queue')).body);
    expect(shown.size).toBeGreaterThan(0);
    await scene(host, call, shown);
  } finally {
    await host.close();
  }
}

/** The listener registrations the demo service holds. */
async function hooks(host: Host): Promise<number> {
  const sb = await runningStandin(host);
  const { results } = await serviceApi(sb.baseUrl, sb.tokens.admin).get('/chatapi/1.0/api/v2/hook');
  return (results as Rec[]).length;
}

/** Live updates flow: one registration at the service, and the status says so. */
async function followsLive(host: Host, call: Call): Promise<void> {
  await expect.poll(() => hooks(host), { timeout: 5_000 }).toBe(1);
  await expect.poll(async () => (await call('live:status')).body).toMatchObject({ result: { state: 'running' } });
}

/** A customer opens a session at the service (the simulator's own timer stopped first). */
async function customerArrives(host: Host): Promise<void> {
  const sb = await runningStandin(host);
  await sb.simulator.stop();
  await sb.simulator.step();
}

const newOnes = (ids: Iterable<number>, shown: Set<number>): number[] => [...ids].filter((id) => !shown.has(id));
const demoAddress = async (call: Call): Promise<string> =>
  ((await call('workspace:state')).body as { result: { workspaces: Array<{ baseUrl: string }> } }).result.workspaces[0]!.baseUrl;

test('a launched console answers its first view from the kept copy, and starts the demo service and follows it once the page says that view is shown', async () => {
  await launched(60_000, async (host, call, shown) => {
    // What the page hears of after its first snapshot (the queue's deltas).
    const heard = new Set<number>();
    host.app.events.subscribe((name, payload) => {
      if (name === 'attendance:queueDelta') for (const item of (payload as { upsert: Item[] }).upsert) heard.add(item.id);
    });
    // The page is still starting: the demo workspace is open, signed in as before, at the address
    // kept for its service, but that service has not started, and nothing follows it yet.
    const address = await demoAddress(call);
    expect((await call('workspace:state')).body).toMatchObject({
      result: { workspaces: [{ signedIn: true, user: { userName: 'ana.souza' } }] },
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(host.app.standin).toBeNull();
    expect((await call('live:status')).body).toMatchObject({ result: { state: 'idle' } });

    expect((await call('workspace:viewShown')).body).toEqual({ result: { ok: true } });
    const sb = await runningStandin(host);
    expect(sb.baseUrl).toBe(address);
    await followsLive(host, call);
    await customerArrives(host);
    await expect.poll(() => newOnes(heard, shown).length).toBeGreaterThan(0);
    // Said again (a page reloaded): nothing more is registered, nothing else starts.
    await call('workspace:viewShown');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await hooks(host)).toBe(1);
    expect(host.app.standin).toBe(sb);
  });
});

/** Every file of a profile with what tells a rewrite (a file replaced has another inode). */
function filesOf(profile: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(profile, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const st = statSync(path, { bigint: true });
    files.set(path.slice(profile.length), `${st.ino}:${st.mtimeNs}`);
  }
  return files;
}

test('a restarted console rewrites none of what it keeps while its first view is answered', async () => {
  const profile = await usedProfile();
  const before = filesOf(profile);
  const host = await launchHost(profile, 'en-US', { serveWhileStarting: true, firstViewWithinMs: 60_000 });
  try {
    const call = await webBridge(host);
    for (const channel of ['workspace:state', 'attendance:queue', 'attendance:directory', 'supervisor:rules', 'offline:status']) {
      expect((await call(channel)).status).toBe(200);
    }
    const after = filesOf(profile);
    const changed = [...before].filter(([path, mark]) => after.get(path) !== mark).map(([path]) => path);
    expect(changed).toEqual([]);
  } finally {
    await host.close();
  }
});

test('on a system that cannot share the kept port, another program taking it moves the demo workspace to where its service answers, signed in, live', async () => {
  const profile = await usedProfile();
  const host = await launchHost(profile, 'en-US', { serveWhileStarting: true, firstViewWithinMs: 60_000, demoSharePort: false });
  let taker: Awaited<ReturnType<typeof takePort>> | null = null;
  try {
    const call = await webBridge(host);
    const kept = await demoAddress(call);
    // While the page starts, another program takes the port the demo's service was to answer on.
    taker = await takePort(Number(new URL(kept).port));
    expect((await call('attendance:queue')).status).toBe(200);
    await call('workspace:viewShown');
    const sb = await runningStandin(host);
    expect(sb.baseUrl).not.toBe(kept);
    await expect.poll(() => demoAddress(call), { timeout: 10_000 }).toBe(sb.baseUrl);
    expect((await call('workspace:state')).body).toMatchObject({
      result: { workspaces: [{ signedIn: true, user: { userName: 'ana.souza' } }] },
    });
    await followsLive(host, call);
    await customerArrives(host);
    await expect.poll(async () => ids((await call('attendance:queue')).body).size).toBeGreaterThan(0);
    // Nothing reached the program that took the port (the workspace's token least of all).
    expect(taker.reached).toEqual([]);
  } finally {
    await host.close();
    await taker?.close();
  }
});

test('the first view gets the directory and the rules kept from the last start, calling nothing at the service; read again after it, a change reaches the page', async () => {
  // After the last start, the attendant was paused at the service (by a supervisor, say).
  const pausedAtTheService = async (sb: Standin) => {
    const admin = serviceApi(sb.baseUrl, sb.tokens.admin);
    const [agent] = await admin.list('/agent', [{ key: 'user.userName', operator: 'EQ', value: sb.demoAgent.userName }]);
    await admin.post('/chatapi/1.0/api/v2/agent/save', { id: agent!.id, status: 'PAUSED' });
  };
  await launched(
    60_000,
    async (host, call) => {
      const pushed: unknown[] = [];
      host.app.events.subscribe((name, payload) => {
        if (name === 'attendance:directory' || name === 'supervisor:rules') pushed.push({ name, payload });
      });
      const directory = await call('attendance:directory');
      expect(directory.body).toMatchObject({
        result: { myStatus: 'ONLINE', groups: expect.arrayContaining([expect.objectContaining({ name: 'Financeiro' })]) },
      });
      expect((await call('supervisor:rules')).body).toMatchObject({ result: { role: 'agent' } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(host.app.standin).toBeNull();
      expect(pushed).toEqual([]);

      await call('workspace:viewShown');
      // The directory changed (the attendant's status): it comes to the page; the rules did not.
      await expect.poll(() => pushed).toEqual([{ name: 'attendance:directory', payload: expect.objectContaining({ myStatus: 'PAUSED' }) }]);
      expect((await call('attendance:directory')).body).toMatchObject({ result: { myStatus: 'PAUSED' } });
    },
    pausedAtTheService,
  );
});

test('a pause taken in the console is what the next start shows first, and nothing changes after the first view', async () => {
  let reason = '';
  const pauseInTheConsole = async (_sb: Standin, call: Call) => {
    const directory = (await call('attendance:directory')).body as { result: { pauseReasons: Array<{ id: number; label: string }> } };
    const first = directory.result.pauseReasons[0]!;
    reason = first.label;
    expect((await call('attendance:pause', { reasonId: first.id })).status).toBe(200);
  };
  await launched(
    60_000,
    async (host, call) => {
      const pushed: string[] = [];
      host.app.events.subscribe((name) => {
        if (name === 'attendance:directory') pushed.push(name);
      });
      expect((await call('attendance:directory')).body).toMatchObject({ result: { myStatus: 'PAUSED', myPauseReason: reason } });
      expect(host.app.standin).toBeNull();
      await call('workspace:viewShown');
      await runningStandin(host);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(pushed).toEqual([]);
    },
    pauseInTheConsole,
  );
});

test('a page that never says its view is shown holds nothing back for long: live updates start after the wait', async () => {
  await launched(400, async (host, call) => followsLive(host, call));
});

test('a snapshot asked for again before the first view is shown reads the service at once, starting it, instead of waiting', async () => {
  await launched(60_000, async (host, call) => {
    const address = await demoAddress(call);
    expect(host.app.standin).toBeNull();
    const again = await call('attendance:queue');
    expect(again.status).toBe(200);
    expect(again.ms).toBeLessThan(10_000);
    // The read went to the service, which started for it where the workspace expects it.
    expect(host.app.standin?.baseUrl).toBe(address);
    // Live updates still wait for the view.
    expect(await hooks(host)).toBe(0);
  });
});

test('a console closed before its page showed a view stops at once, without starting what waited', async () => {
  const profile = await usedProfile();
  const logged = (line: string) => readFileSync(join(profile, 'logs', 'console.log'), 'utf8').split(line).length - 1;
  const listenersStarted = () => logged('Webhook listener started.');
  const demoStarted = () => logged('demo workspace started');
  const before = listenersStarted();
  const demoBefore = demoStarted();
  const host = await launchHost(profile, 'en-US', { serveWhileStarting: true, firstViewWithinMs: 60_000 });
  await (
    await webBridge(host)
  )('attendance:queue');
  const started = Date.now();
  await host.close();
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(listenersStarted()).toBe(before);
  expect(demoStarted()).toBe(demoBefore);
});
