import { test, expect } from '@playwright/test';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { EventEmitter } from 'node:events';
import { ConnectivityMonitor } from '../../../src-main/cache';
import { createServiceClient, type ServiceClient } from '../../../src-main/service';
import { RETRY_AFTER_CAP_MS } from '../../../src-shared/error-kinds';
import { isAppError } from '../../../src-shared/errors';
import { ManualClock } from '../../support/manual-clock';
import { hookRegistry } from '../../../src-main/webhooks/registration';

/** A loopback service whose every answer is `answer`; it counts requests and says when each ends. */
async function tinyService(
  answer: (res: ServerResponse) => void,
): Promise<{ url: string; requests: () => number; seen: EventEmitter; close: () => Promise<void> }> {
  let count = 0;
  const seen = new EventEmitter();
  const server: Server = createServer((req, res) => {
    count++;
    req.resume();
    req.on('end', () => {
      answer(res);
      res.on('finish', () => seen.emit('answered', count));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => count,
    seen,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

const tooMany = (retryAfter: string) => (res: ServerResponse) => {
  res.writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter });
  res.end(JSON.stringify({ status: 'ERROR', message: 'Too many requests' }));
};
const htmlUnavailable = (res: ServerResponse) => {
  res.writeHead(503, { 'content-type': 'text/html' });
  res.end('<html><body>Service Unavailable</body></html>');
};

/** The monitor as the console builds it: its probe is one read through the real client, one attempt. */
function monitorOn(client: ServiceClient, clock: ManualClock, probed: EventEmitter): ConnectivityMonitor {
  return new ConnectivityMonitor({
    probe: async (signal) => {
      try {
        await client.resource('userSession').list({ conditions: [], sort: false, page: 0, size: 1 }, { signal, attempts: 1 });
      } finally {
        probed.emit('done');
      }
    },
    canProbe: () => true,
    now: () => clock.now(),
    timers: clock,
    random: () => 0.5,
  });
}

for (const [label, header] of [
  ['999,999,999 seconds', '999999999'],
  ['a date in 9999', 'Fri, 31 Dec 9999 23:59:59 GMT'],
] as const) {
  test(`a 429 asking for ${label}: reachable, told to wait five minutes; nothing is sent before then, then the service is asked once`, async () => {
    const svc = await tinyService(tooMany(header));
    const clock = new ManualClock();
    const client = createServiceClient({ baseUrl: svc.url, getToken: async () => 't', now: () => clock.now() });
    const probed = new EventEmitter();
    const monitor = monitorOn(client, clock, probed);
    try {
      monitor.start();
      // The first idle probe, 20 s on: one request, answered 429.
      const first = once(probed, 'done');
      await clock.advance(20_000);
      await first;
      await monitor.idle();
      expect(svc.requests()).toBe(1);
      const status = monitor.status();
      expect(status.state, 'a 429 is an answer: reachable').toBe('online');
      expect(status.waitUntil, 'told to wait, capped at five minutes').toBe(clock.now() + RETRY_AFTER_CAP_MS);
      // The next probe is set for the end of the wait, not 20 s on.
      expect(clock.nextIn).toBe(RETRY_AFTER_CAP_MS);
      // Meanwhile every other call of the client is held too: not sent, told when it may be.
      const held = await client
        .resource('userSession')
        .list({ conditions: [], sort: false, page: 0, size: 1 })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(isAppError(held) && held.kind).toBe('RateLimited');
      expect(isAppError(held) && held.message).toContain('The service asked us to wait until');
      const write = await client.saveSession({ id: 1, status: 'CLOSED' }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(isAppError(write) && write.kind).toBe('RateLimited');
      expect(svc.requests(), 'nothing was sent during the wait').toBe(1);
      // Just before the wait ends, still nothing; at its end, one probe.
      await clock.advance(RETRY_AFTER_CAP_MS - 1_000);
      expect(svc.requests()).toBe(1);
      const second = once(probed, 'done');
      await clock.advance(1_000);
      await second;
      await monitor.idle();
      expect(svc.requests()).toBe(2);
      expect(monitor.status()).toMatchObject({ state: 'online', waitUntil: clock.now() + RETRY_AFTER_CAP_MS });
    } finally {
      monitor.stop();
      await client.close();
      await svc.close();
    }
  });
}

test('an HTML 503 without Retry-After: one request per probe, one probe per 20 s', async () => {
  const svc = await tinyService(htmlUnavailable);
  const clock = new ManualClock();
  const client = createServiceClient({ baseUrl: svc.url, getToken: async () => 't', now: () => clock.now() });
  const probed = new EventEmitter();
  const monitor = monitorOn(client, clock, probed);
  try {
    monitor.start();
    for (let i = 1; i <= 3; i++) {
      const done = once(probed, 'done');
      await clock.advance(20_000);
      await done;
      await monitor.idle();
      expect(svc.requests(), `after ${i} × 20 s`).toBe(i);
      expect(monitor.status().state, 'an error page is an answer').toBe('online');
    }
  } finally {
    monitor.stop();
    await client.close();
    await svc.close();
  }
});

test('a read told to wait 40 s by a 503 with Retry-After is handed back; the client sends nothing else until then', async () => {
  const svc = await tinyService((res) => {
    res.writeHead(503, { 'content-type': 'text/html', 'retry-after': '40' });
    res.end('<html>busy</html>');
  });
  const clock = new ManualClock();
  const client = createServiceClient({ baseUrl: svc.url, getToken: async () => 't', now: () => clock.now() });
  try {
    // One attempt each: a shorter wait would be slept out by the call itself, on the real clock.
    const read = () =>
      client
        .resource('userSession')
        .list({ conditions: [], sort: false, page: 0, size: 1 }, { attempts: 1 })
        .then(
          () => null,
          (e: unknown) => e,
        );
    const first = await read();
    expect(isAppError(first) && first.info.retryAfterMs).toBe(40_000);
    expect(svc.requests(), 'a 40 s ask is longer than a read waits: handed back after one request').toBe(1);
    clock.jump(39_000);
    const held = await read();
    expect(isAppError(held) && held.kind).toBe('RateLimited');
    expect(svc.requests()).toBe(1);
    clock.jump(1_000);
    const answered = once(svc.seen, 'answered');
    await read();
    await answered;
    expect(svc.requests()).toBe(2);
  } finally {
    await client.close();
    await svc.close();
  }
});

test("the relay's registration told to wait 40 s: waits what the service asked (said so), then registers once", async () => {
  let calls = 0;
  const svc = await tinyService((res) => {
    calls++;
    if (calls === 1) return tooMany('40')(res);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 7, url: 'https://relay.example/hooks/x', groups: ['messages'] }));
  });
  const waits: number[] = [];
  const told: Date[] = [];
  try {
    const hooks = hookRegistry(svc.url, 't', { onWait: (until) => told.push(until), wait: async (ms) => void waits.push(ms) });
    const made = await hooks.create({ url: 'https://relay.example/hooks/x', groups: ['messages'] });
    expect(made.id).toBe(7);
    expect(waits).toEqual([40_000]);
    expect(told).toHaveLength(1);
    expect(svc.requests(), 'one refused, one made: nothing in between').toBe(2);
  } finally {
    await svc.close();
  }
});

test("the relay's registration told to wait 999,999,999 s waits five minutes, not longer", async () => {
  const svc = await tinyService(tooMany('999999999'));
  const waits: number[] = [];
  try {
    const hooks = hookRegistry(svc.url, 't', { wait: async (ms) => void waits.push(ms) });
    const e = await hooks.list().then(
      () => null,
      (err: unknown) => err,
    );
    expect(isAppError(e) && e.kind).toBe('RateLimited');
    expect(waits).toEqual([RETRY_AFTER_CAP_MS, RETRY_AFTER_CAP_MS]);
    expect(svc.requests()).toBe(3);
  } finally {
    await svc.close();
  }
});
