import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Host } from '../../../src-main/host/start-host';
import { createConfStore } from '../../../src-main/vault/conf-store';
import { launchHost, webBridge } from '../../support/host';
import { serviceApi, type Rec } from '../../support/web';
import { tempDirs } from '../../support/temp-dirs';

const tempDir = tempDirs('console-first-view-');

/** A profile that remembers the demo workspace and kept a copy of its queue: a console used before. */
async function usedProfile(): Promise<string> {
  const profile = await tempDir();
  createConfStore(profile, 'settings').set('workspace', { kind: 'demo' });
  const first = await launchHost(profile);
  try {
    const call = await webBridge(first);
    expect((await call('attendance:queue')).status).toBe(200);
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
async function launched(firstViewWithinMs: number, scene: (host: Host, call: Call, shown: Set<number>) => Promise<void>): Promise<void> {
  const profile = await usedProfile();
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
  const sb = host.app.standin!;
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
  const sb = host.app.standin!;
  await sb.simulator.stop();
  await sb.simulator.step();
}

const newOnes = (ids: Iterable<number>, shown: Set<number>): number[] => [...ids].filter((id) => !shown.has(id));

test('a launched console answers its first view from the kept copy, and follows the service once the page says that view is shown', async () => {
  await launched(60_000, async (host, call, shown) => {
    // What the page hears of after its first snapshot (the queue's deltas).
    const heard = new Set<number>();
    host.app.events.subscribe((name, payload) => {
      if (name === 'attendance:queueDelta') for (const item of (payload as { upsert: Item[] }).upsert) heard.add(item.id);
    });
    await customerArrives(host);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The page is still starting: nothing follows the service yet (no listener registered there,
    // no read of its sessions), so the new session is not heard of.
    expect(await hooks(host)).toBe(0);
    expect((await call('live:status')).body).toMatchObject({ result: { state: 'idle' } });
    expect(newOnes(heard, shown)).toEqual([]);

    expect((await call('workspace:viewShown')).body).toEqual({ result: { ok: true } });
    await expect.poll(() => newOnes(heard, shown).length).toBeGreaterThan(0);
    await followsLive(host, call);
    // Said again (a page reloaded): nothing more is registered.
    await call('workspace:viewShown');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await hooks(host)).toBe(1);
  });
});

test('a page that never says its view is shown holds nothing back for long: live updates start after the wait', async () => {
  await launched(400, async (host, call) => followsLive(host, call));
});

test('a snapshot asked for again before the first view is shown reads the service at once instead of waiting', async () => {
  await launched(60_000, async (host, call, shown) => {
    await customerArrives(host);
    const again = await call('attendance:queue');
    expect(again.status).toBe(200);
    expect(newOnes(ids(again.body), shown).length).toBeGreaterThan(0);
    expect(again.ms).toBeLessThan(10_000);
    // Live updates still wait for the view.
    expect(await hooks(host)).toBe(0);
  });
});

test('a console closed before its page showed a view stops at once, without starting what waited', async () => {
  const profile = await usedProfile();
  const listenersStarted = () => readFileSync(join(profile, 'logs', 'console.log'), 'utf8').split('Webhook listener started.').length - 1;
  const before = listenersStarted();
  const host = await launchHost(profile, 'en-US', { serveWhileStarting: true, firstViewWithinMs: 60_000 });
  await (
    await webBridge(host)
  )('attendance:queue');
  const started = Date.now();
  await host.close();
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(listenersStarted()).toBe(before);
});
