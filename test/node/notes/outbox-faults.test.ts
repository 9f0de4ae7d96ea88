import { test, expect } from '@playwright/test';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Outbox, type OutboxOptions } from '../../../src-main/outbox/outbox';
import { splitRef } from '../../../src-main/outbox/ref';
import type { ErrorKind } from '../../../src-shared/errors';
import { createServiceClient } from '../../../src-main/service';
import { createCommentTransport } from '../../../src-main/outbox/transport';
import { createHttpCommentTransport } from '../../support/outbox-http';
import { startOutboxStandin, type StandinHandle, type FaultRule } from '../../support/outbox-standin';

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
  // The production path: the service client, adapted by the outbox's transport.
  const client = createServiceClient({
    baseUrl: sb.baseUrl,
    getToken: async () => sb.tokens.agent,
    retry: { baseDelayMs: 5, maxDelayMs: 50 },
  });
  const transport = createCommentTransport(client);
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

  // Check the service itself (through an independent reader): every note once, in typed order.
  const reader = createHttpCommentTransport({ baseUrl: sb.baseUrl, getToken: () => sb.tokens.agent });
  for (const sid of sessions) {
    const stored = await reader.listForSession(sid, AbortSignal.timeout(10_000));
    const mine = stored.map((c) => splitRef(c.comment)).filter((c) => c.text.startsWith(`${label} `));
    expect(
      mine.map((c) => c.text),
      `session ${sid}`,
    ).toEqual(expected.get(sid));
    expect(new Set(mine.map((c) => c.ref)).size).toBe(mine.length);
  }
  await reader.close();
  await client.close();
  expect(
    box
      .list()
      .filter((n) => n.text.startsWith(label))
      .every((n) => n.state === 'confirmed'),
  ).toBe(true);
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
    [
      { match: { path: SAVE }, kind: 'latency', latencyMs: 250, probability: 0.1 },
      { match: { path: LIST }, kind: 'latency', latencyMs: 20, probability: 0.3 },
    ],
    100,
    { requestTimeoutMs: 150, settleMs: 300 },
  );
  expect(seen.errors.get('OutcomeUnknown') ?? 0).toBeGreaterThan(0);
});

test('429 with Retry-After: waited out, none lost or doubled', async () => {
  const seen = await pushThrough(
    '429',
    [{ match: { path: SAVE }, kind: 'rateLimit', retryAfterSeconds: 1, probability: 0.05, count: 3 }],
    100,
  );
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

test('a refused token pauses the outbox; after signing in again, resume() sends the rest in order', async () => {
  const sid = sb.sessionIds[5]!;
  let token = sb.tokens.agent;
  const client = createServiceClient({ baseUrl: sb.baseUrl, getToken: async () => token });
  const box = new Outbox({ dir, transport: createCommentTransport(client), settleMs: 30, retry: { baseMs: 5, maxMs: 50 } });
  await box.start();
  await box.add(sid, 'auth before expiry');
  await expect.poll(() => box.outstanding).toBe(0);

  token = 'expired-token';
  await box.add(sid, 'auth typed after expiry 1');
  await box.add(sid, 'auth typed after expiry 2');
  await expect.poll(() => box.status().connectivity).toBe('paused');
  expect(box.status().reason).toMatchObject({ kind: 'Unauthorized' });
  expect(box.list(sid).filter((n) => n.state === 'pending')).toHaveLength(2);

  token = sb.tokens.agent;
  box.resume();
  await expect.poll(() => box.outstanding).toBe(0);
  expect(box.status().connectivity).toBe('online');
  const reader = createHttpCommentTransport({ baseUrl: sb.baseUrl, getToken: () => sb.tokens.agent });
  const texts = (await reader.listForSession(sid, AbortSignal.timeout(10_000)))
    .map((c) => splitRef(c.comment).text)
    .filter((t) => t.startsWith('auth '));
  await reader.close();
  expect(texts).toEqual(['auth before expiry', 'auth typed after expiry 1', 'auth typed after expiry 2']);
  await box.stop();
  await client.close();
});

test('a note the service refuses (400) shows its reason, survives a restart, and is dropped only when discarded', async () => {
  const client = createServiceClient({ baseUrl: sb.baseUrl, getToken: async () => sb.tokens.agent });
  const opts = { dir, transport: createCommentTransport(client), settleMs: 30, retry: { baseMs: 5, maxMs: 50 } };
  const box = new Outbox(opts);
  await box.start();
  const bad = await box.add(987_654, 'note for a session that does not exist');
  await box.add(sb.sessionIds[6]!, 'refusal elsewhere goes on');
  await expect.poll(() => box.list().find((n) => n.id === bad.id)?.state).toBe('failed');
  await expect.poll(() => box.outstanding).toBe(0);
  expect(box.list().find((n) => n.id === bad.id)?.error).toMatchObject({ kind: 'Invalid', status: 400, errorCode: 'UNKNOWN_REFERENCE' });
  await box.stop();

  const again = new Outbox(opts);
  await again.start();
  expect(again.list().map((n) => [n.text, n.state])).toEqual([['note for a session that does not exist', 'failed']]);
  // Edited and retried, it is refused again for the same reason: still kept, one more attempt.
  await again.retry(bad.id, 'edited note for a session that does not exist');
  await expect.poll(() => again.list()[0]?.attempts).toBe(2);
  await expect.poll(() => again.list()[0]?.state).toBe('failed');
  expect(again.list()[0]?.text).toBe('edited note for a session that does not exist');
  await again.discard(bad.id);
  expect(again.list()).toEqual([]);
  expect(await readdir(path.join(dir, 'notes'))).toEqual([]);
  await again.stop();
  await client.close();
});
