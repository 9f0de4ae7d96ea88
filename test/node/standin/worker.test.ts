import { test, expect } from '@playwright/test';
import { freshProfile, launchHost, webBridge } from '../../support/host';
import { openDemoSession } from '../../support/console';
import { BACKTRACKING_LIKE, seedLongNotes, slowestQuery, timedQuery } from '../../support/standin-load';
import { RESOURCES, V2 } from '../../../src-shared/paths';
import type { Host } from '../../../src-main/host/start-host';
import type { Standin } from '../../../src-standin/index';

let host: Host;
let sb: Standin;
let bridge: Awaited<ReturnType<typeof webBridge>>;

test.beforeAll(async () => {
  host = await launchHost(freshProfile());
  const demo = await openDemoSession(host.app);
  sb = demo.sb;
  // Enough long notes that the slowest query takes well over 100 ms even on a quiet machine.
  await seedLongNotes(sb, demo.sessionId, 80);
  bridge = await webBridge(host);
  await bridge('workspace:state'); // the first call pays for connecting
});
test.afterAll(async () => {
  await host?.close();
});

test('a backtracking-shaped LIKE over 10,000-character notes answers, and a bridge call made with it answers too', async () => {
  const body = { conditions: [{ key: 'comment', operator: 'LIKE', value: BACKTRACKING_LIKE }], sort: false };
  // That the query answers at all is the check (a backtracking matcher would take 10,000^5 steps).
  const [query, call] = await Promise.all([timedQuery(sb, V2 + RESOURCES.sessionComment.list, body), bridge('workspace:state')]);
  expect(query.status).toBe(200);
  expect(query.count).toBe(0);
  expect(call.status).toBe(200);
  expect(call.body).toMatchObject({ result: { signedIn: true } });
});

test("the stand-in's slowest query does not hold the console: bridge calls made meanwhile answer in a fraction of its time", async () => {
  const { path, body } = slowestQuery();
  let done = false;
  const slow = timedQuery(sb, path, body).finally(() => (done = true));
  const calls: number[] = [];
  // Bounded: the query ends, and calls stop at 500 whatever happens.
  while (!done && calls.length < 500) {
    const c = await bridge('workspace:state');
    expect(c.status).toBe(200);
    calls.push(c.ms);
    await new Promise<void>((resolve) => setTimeout(resolve, 5));
  }
  const q = await slow;
  expect(q.status).toBe(200);
  // The calls above ran beside the query, and none waited for it: run on the console's thread,
  // the query would hold one of them for its whole length. Timed against the query itself, so a
  // busy machine slows both alike (the absolute figure is the bench's: bench/standin-isolation.ts).
  expect(calls.length).toBeGreaterThanOrEqual(5);
  expect(Math.max(...calls)).toBeLessThan(q.ms / 3);
});
