import { test, expect } from '@playwright/test';
import { SyncEngine, type Stamped, type SyncSource } from '../../../src-main/sync/engine';
import { Coalescer } from '../../../src-main/sync/coalesce';

/** A service in memory: messages per session with service-side stamps, sessions with updatedAt. */
class FakeService implements SyncSource<Stamped, Stamped> {
  messages = new Map<number, Stamped[]>();
  sessions: Stamped[] = [];
  calls: Array<{ sessionId: number; since: string | null }> = [];
  #clock = Date.parse('2024-06-11T12:00:00.000Z');
  #nextId = 1;

  add(sessionId: number, offsetMs = 1000): Stamped {
    this.#clock += offsetMs;
    const m = { id: this.#nextId++, stamp: new Date(this.#clock).toISOString() };
    this.messages.set(sessionId, [...(this.messages.get(sessionId) ?? []), m]);
    return m;
  }

  async messagesSince(sessionId: number, since: string | null): Promise<Stamped[]> {
    this.calls.push({ sessionId, since });
    const all = this.messages.get(sessionId) ?? [];
    return since === null ? all : all.filter((m) => Date.parse(m.stamp!) > Date.parse(since));
  }

  async sessionsSince(since: string): Promise<Stamped[]> {
    return this.sessions.filter((s) => Date.parse(s.stamp!) > Date.parse(since));
  }
}

test('a resync after a long gap reads each open session forward from its own mark, missing nothing', async () => {
  const svc = new FakeService();
  const got = new Map<number, number[]>();
  const engine = new SyncEngine({
    source: svc,
    sink: { messages: (sid, fresh) => got.set(sid, [...(got.get(sid) ?? []), ...fresh.map((m) => m.id)]), sessions: () => undefined },
  });
  const a1 = svc.add(1);
  const b1 = svc.add(2);
  engine.track(1, [a1]);
  engine.track(2, [b1]);

  // Three hours of silence on the webhook side while both customers keep writing.
  const missedA = [svc.add(1, 3_600_000), svc.add(1, 3_600_000)];
  const missedB = [svc.add(2, 3_600_000)];
  await engine.resyncAll();

  expect(got.get(1)).toEqual(missedA.map((m) => m.id));
  expect(got.get(2)).toEqual(missedB.map((m) => m.id));
  // Each session was read from its own mark (minus the slack), not from a shared window.
  const sinceA = svc.calls.find((c) => c.sessionId === 1)!.since!;
  const sinceB = svc.calls.find((c) => c.sessionId === 2)!.since!;
  expect(Date.parse(sinceA)).toBe(Date.parse(a1.stamp!) - 2_000);
  expect(Date.parse(sinceB)).toBe(Date.parse(b1.stamp!) - 2_000);
  expect(engine.markOf(1)?.id).toBe(missedA[1]!.id);
});

test('a message stamped just before the mark but published later is still found, and repeats are dropped', async () => {
  const svc = new FakeService();
  const seen: number[] = [];
  const engine = new SyncEngine({
    source: svc,
    sink: { messages: (_s, fresh) => seen.push(...fresh.map((m) => m.id)), sessions: () => undefined },
  });
  const first = svc.add(7);
  const second = svc.add(7, 1000);
  engine.track(7, [first, second]);
  // Stamped 500 ms before `second` (the mark) but only visible now.
  const late = { id: 99, stamp: new Date(Date.parse(second.stamp!) - 500).toISOString() };
  svc.messages.get(7)!.push(late);
  await engine.hintSession(7);
  await engine.hintSession(7);
  expect(seen).toEqual([99]);
});

test('a burst of hints while a read runs costs one more read, not one per hint', async () => {
  const svc = new FakeService();
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const slow: SyncSource<Stamped, Stamped> = {
    messagesSince: async (sid, since) => {
      await gate;
      return svc.messagesSince(sid, since);
    },
    sessionsSince: (s) => svc.sessionsSince(s),
  };
  const engine = new SyncEngine({ source: slow, sink: { messages: () => undefined, sessions: () => undefined } });
  engine.track(3, [svc.add(3)]);
  const runs = Array.from({ length: 25 }, () => engine.hintSession(3));
  release();
  await Promise.all(runs);
  expect(svc.calls.length).toBe(2);
});

test('the queue is read forward from the newest updatedAt seen and its mark advances', async () => {
  const svc = new FakeService();
  const batches: number[][] = [];
  const engine = new SyncEngine({ source: svc, sink: { messages: () => undefined, sessions: (c) => batches.push(c.map((s) => s.id)) } });
  engine.setQueueMark({ stamp: '2024-06-11T12:00:00.000Z', id: 1 });
  svc.sessions = [
    { id: 5, stamp: '2024-06-11T12:05:00.000Z' },
    { id: 6, stamp: '2024-06-11T12:07:00.000Z' },
  ];
  await engine.hintQueue();
  expect(batches).toEqual([[5, 6]]);
  expect(engine.queueMarkValue).toEqual({ stamp: '2024-06-11T12:07:00.000Z', id: 6 });
});

test('with no mark (a queue loaded empty) the safety-net resync still reads sessions that arrive later', async () => {
  const asked: string[] = [];
  const batches: number[][] = [];
  let sessions: Stamped[] = [];
  const engine = new SyncEngine({
    source: {
      messagesSince: async () => [],
      sessionsSince: async (since) => {
        asked.push(since);
        return sessions.filter((s) => Date.parse(s.stamp!) > Date.parse(since));
      },
    },
    sink: { messages: () => undefined, sessions: (c) => batches.push(c.map((s) => s.id)) },
  });
  const clearedAt = Date.now();
  engine.setQueueMark(null);
  await engine.resyncAll();
  expect(batches).toEqual([]);
  // Read from when the mark was cleared (less the slack), not skipped and not from the beginning of time.
  expect(Date.parse(asked[0]!)).toBeGreaterThanOrEqual(clearedAt - 2_000 - 5);
  expect(Date.parse(asked[0]!)).toBeLessThanOrEqual(Date.now() - 2_000);

  const arrived = { id: 9, stamp: new Date(Date.now() + 1).toISOString() };
  sessions = [arrived];
  await engine.resyncAll();
  expect(batches).toEqual([[9]]);
  expect(engine.queueMarkValue).toEqual(arrived);
});

test('an untracked session is not read, and a failing read is reported without stopping the engine', async () => {
  const errors: string[] = [];
  let fail = true;
  const svc = new FakeService();
  const engine = new SyncEngine({
    source: {
      messagesSince: async (sid, since) => {
        if (fail) throw new Error('offline');
        return svc.messagesSince(sid, since);
      },
      sessionsSince: (s) => svc.sessionsSince(s),
    },
    sink: { messages: () => undefined, sessions: () => undefined, error: (what) => errors.push(what) },
  });
  await engine.hintSession(42);
  expect(svc.calls).toEqual([]);
  engine.track(42, []);
  await engine.hintSession(42);
  expect(errors).toEqual(['session 42']);
  fail = false;
  svc.add(42);
  await engine.hintSession(42);
  expect(engine.markOf(42)).not.toBeNull();
});

test('the coalescer flushes a burst once per interval and per key', async () => {
  const flushed: Array<[string, number[]]> = [];
  const c = new Coalescer<string, number>((k, v) => flushed.push([k, v]), 16);
  for (let i = 0; i < 100; i++) c.push(i % 2 ? 'odd' : 'even', i);
  expect(flushed).toEqual([]);
  await expect.poll(() => flushed.length).toBe(2);
  expect(flushed.find(([k]) => k === 'odd')![1]).toHaveLength(50);
  c.clear();
});

test('a stream of queue hints reads the queue once per gap, not once per event', async () => {
  const svc = new FakeService();
  let reads = 0;
  const sleeps: number[] = [];
  let release: (() => void) | null = null;
  const engine = new SyncEngine({
    source: {
      messagesSince: (id, since) => svc.messagesSince(id, since),
      sessionsSince: async (s) => {
        reads++;
        // The first read is slow: every hint that arrives meanwhile must fold into one more pass.
        if (reads === 1) await new Promise<void>((r) => (release = r));
        return svc.sessionsSince(s);
      },
    },
    sink: { messages: () => undefined, sessions: () => undefined },
    queueGapMs: 250,
    sleep: async (ms) => void sleeps.push(ms),
  });
  engine.setQueueMark({ stamp: '2024-06-11T12:00:00.000Z', id: 1 });
  const first = engine.hintQueue();
  const burst = Array.from({ length: 100 }, () => engine.hintQueue());
  await expect.poll(() => release !== null).toBe(true);
  release!();
  await Promise.all([first, ...burst]);
  expect(reads).toBe(2);
  expect(sleeps).toEqual([250]);
});

test('a stream of hints for one session reads it once more after the gap, not straight after each read', async () => {
  const svc = new FakeService();
  svc.add(7);
  let reads = 0;
  const sleeps: number[] = [];
  let release: (() => void) | null = null;
  const engine = new SyncEngine({
    source: {
      messagesSince: async (id, since) => {
        reads++;
        if (reads === 1) await new Promise<void>((r) => (release = r));
        return svc.messagesSince(id, since);
      },
      sessionsSince: (s) => svc.sessionsSince(s),
    },
    sink: { messages: () => undefined, sessions: () => undefined },
    threadGapMs: 100,
    sleep: async (ms) => void sleeps.push(ms),
  });
  engine.track(7, []);
  const first = engine.hintSession(7);
  const burst = Array.from({ length: 100 }, () => engine.hintSession(7));
  await expect.poll(() => release !== null).toBe(true);
  release!();
  await Promise.all([first, ...burst]);
  expect(reads).toBe(2);
  expect(sleeps).toEqual([100]);
});

test('a hint says whether the read it caused reached the service: false on a failure, true once it reads', async () => {
  const svc = new FakeService();
  let down = true;
  const failures: string[] = [];
  const engine = new SyncEngine({
    source: {
      messagesSince: (id, since) => (down ? Promise.reject(new Error('503')) : svc.messagesSince(id, since)),
      sessionsSince: (since) => (down ? Promise.reject(new Error('503')) : svc.sessionsSince(since)),
    },
    sink: { messages: () => undefined, sessions: () => undefined, error: (what) => void failures.push(what) },
  });
  engine.track(5, [svc.add(5)]);
  expect(await engine.hintSession(5)).toBe(false);
  expect(await engine.hintQueue()).toBe(false);
  expect(failures).toEqual(['session 5', 'queue']);
  down = false;
  svc.add(5);
  expect(await engine.hintSession(5)).toBe(true);
  expect(await engine.hintQueue()).toBe(true);
  // A session nobody follows needs no read.
  expect(await engine.hintSession(404)).toBe(true);
});
