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

test('a backtracking-shaped LIKE over a 10,000-character note answers under 100 ms while a bridge call made with it answers within 50 ms', async () => {
  const body = { conditions: [{ key: 'comment', operator: 'LIKE', value: BACKTRACKING_LIKE }], sort: false };
  await timedQuery(sb, V2 + RESOURCES.sessionComment.list, body); // warm
  const [query, call] = await Promise.all([timedQuery(sb, V2 + RESOURCES.sessionComment.list, body), bridge('workspace:state')]);
  expect(query.status).toBe(200);
  expect(query.count).toBe(0);
  expect(query.ms).toBeLessThan(100);
  expect(call.status).toBe(200);
  expect(call.body).toMatchObject({ result: { signedIn: true } });
  expect(call.ms).toBeLessThan(50);
});

test("the stand-in's slowest query does not hold the console: bridge calls made meanwhile answer within 50 ms", async () => {
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
  // The query was long enough that the calls above really ran beside it.
  expect(q.ms).toBeGreaterThan(100);
  expect(calls.length).toBeGreaterThanOrEqual(5);
  expect(Math.max(...calls)).toBeLessThan(50);
});
