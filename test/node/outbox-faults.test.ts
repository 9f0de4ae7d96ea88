import { test, expect } from '@playwright/test';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Outbox, type OutboxOptions } from '../../src-main/outbox/outbox';
import { splitRef } from '../../src-main/outbox/ref';
import type { ErrorKind } from '../../src-shared/errors';
import { createHttpCommentTransport } from '../support/outbox-http';
import { startOutboxStandin, type StandinHandle } from '../support/outbox-standin';
import type { FaultRule } from '../support/outbox-mini-standin';

// 5 runs x 100 notes through single fault kinds, then 200 through a mix: 700 notes in all.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const SAVE = '/chatapi/1.0/api/v2/session-comment/save';
const LIST = '/chatapi/1.0/api/v2/session-comment';

let sb: StandinHandle;
let dir: string;
test.beforeAll(async () => {
  sb = await startOutboxStandin();
});
test.afterAll(async () => {
  await sb?.close();
});
test.beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'outbox-faults-'));
});
test.afterEach(async () => {
  sb.faults.set([]);
  await rm(dir, { recursive: true, force: true });
});

interface Observed {
  errors: Map<ErrorKind, number>;
  unknown: number;
}

async function pushThrough(label: string, rules: FaultRule[], count: number, opts: Partial<OutboxOptions> = {}): Promise<Observed> {
  const sessions = sb.sessionIds.slice(0, 5);
  const transport = createHttpCommentTransport({ baseUrl: sb.baseUrl, getToken: () => sb.tokens.agent });
  const box = new Outbox({
    dir,
    transport,
    concurrency: 4,
    requestTimeoutMs: 2_000,
    settleMs: 30,
    retry: { baseMs: 5, maxMs: 80 },
    probe: { baseMs: 5, maxMs: 80 },
    ...opts,
  });
  const seen: Observed = { errors: new Map(), unknown: 0 };
  box.subscribe((e) => {
    if (e.type !== 'note') return;
    if (e.note.state === 'outcome-unknown') seen.unknown++;
    const k = e.note.error?.kind;
    if (k && e.note.state !== 'confirmed') seen.errors.set(k, (seen.errors.get(k) ?? 0) + 1);
  });
  const expected = new Map<number, string[]>(sessions.map((s) => [s, []]));
  // Adds are made while faults are live and syncing runs: as an attendant would.
  sb.faults.set(rules);
  await box.start();
  for (let i = 0; i < count; i++) {
    const sid = sessions[i % sessions.length]!;
    const text = `${label} note ${i} for session ${sid}`;
    expected.get(sid)!.push(text);
    await box.add(sid, text);
  }
  await expect.poll(() => box.outstanding, { timeout: 90_000 }).toBe(0);
  await box.stop();
  sb.faults.set([]);

  // Check the service itself: every note once, in the order typed, per session.
  const reader = createHttpCommentTransport({ baseUrl: sb.baseUrl, getToken: () => sb.tokens.agent });
  for (const sid of sessions) {
    const stored = await reader.listForSession(sid, AbortSignal.timeout(10_000));
    const mine = stored.map((c) => splitRef(c.comment)).filter((c) => c.text.startsWith(`${label} `));
    expect(mine.map((c) => c.text), `session ${sid}`).toEqual(expected.get(sid));
    expect(new Set(mine.map((c) => c.ref)).size).toBe(mine.length);
  }
  await reader.close();
  await transport.close();
  expect(box.list().filter((n) => n.text.startsWith(label)).every((n) => n.state === 'confirmed')).toBe(true);
  expect(await readdir(path.join(dir, 'notes'))).toEqual([]);
  return seen;
}

test('5xx answers: retried, none lost or doubled', async () => {
  const seen = await pushThrough('5xx', [{ match: { path: SAVE }, kind: 'status', status: 503, probability: 0.15 }], 100);
  expect(seen.errors.get('Unavailable') ?? 0).toBeGreaterThan(0);
});

test('connections reset before an answer: read back, then resent', async () => {
  const seen = await pushThrough('reset', [{ match: { path: SAVE }, kind: 'reset', probability: 0.15 }], 100);
  expect(seen.unknown).toBeGreaterThan(0);
});

test('connection dropped after the service stored the note: found by reading back, never doubled', async () => {
  const seen = await pushThrough('drop', [{ match: { path: SAVE }, kind: 'dropAfterCommit', probability: 0.15 }], 100);
  expect(seen.unknown).toBeGreaterThan(0);
});

test('latency beyond the request timeout: the late save lands, the read-back after settling finds it', async () => {
  const seen = await pushThrough(
    'slow',
    [{ match: { path: SAVE }, kind: 'latency', latencyMs: 250, probability: 0.1 }, { match: { path: LIST }, kind: 'latency', latencyMs: 20, probability: 0.3 }],
    100,
    { requestTimeoutMs: 150, settleMs: 300 },
  );
  expect(seen.errors.get('OutcomeUnknown') ?? 0).toBeGreaterThan(0);
});

test('429 with Retry-After: waited out, none lost or doubled', async () => {
  const seen = await pushThrough('429', [{ match: { path: SAVE }, kind: 'rateLimit', retryAfterSeconds: 1, probability: 0.05, count: 3 }], 100);
  expect(seen.errors.get('RateLimited') ?? 0).toBeGreaterThan(0);
});

test('all faults mixed, on saves and reads', async () => {
  const seen = await pushThrough(
    'mixed',
    [
      { match: { path: SAVE }, kind: 'status', status: 502, probability: 0.05 },
      { match: { path: SAVE }, kind: 'reset', probability: 0.05 },
      { match: { path: SAVE }, kind: 'dropAfterCommit', probability: 0.08 },
      { match: { path: SAVE }, kind: 'malformedJson', probability: 0.05 },
      { match: { path: SAVE }, kind: 'latency', latencyMs: 30, probability: 0.2 },
      { match: { path: SAVE }, kind: 'rateLimit', retryAfterSeconds: 1, probability: 0.02, count: 2 },
      { match: { path: LIST }, kind: 'status', status: 503, probability: 0.1 },
      { match: { path: LIST }, kind: 'reset', probability: 0.05 },
    ],
    200,
  );
  expect(seen.unknown).toBeGreaterThan(0);
});
