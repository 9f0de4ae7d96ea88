import { test, expect } from '@playwright/test';
import { startStandin, type Standin } from '../../../src-standin/index';
import { standinClient } from '../../../src-standin/test-client';

let sb: Standin;
let agent: ReturnType<typeof standinClient>;
let admin: ReturnType<typeof standinClient>;
const SAVE = '/chatapi/1.0/api/v2/session-comment/save';

test.beforeAll(async () => {
  sb = await startStandin({ port: 0 });
  agent = standinClient(sb.baseUrl, sb.tokens.agent);
  admin = standinClient(sb.baseUrl, sb.tokens.admin);
});
test.afterAll(async () => {
  await sb.close();
});
test.afterEach(() => sb.faults.clear());

/** The notes stored with this exact text (to tell whether a faulted save was committed). */
async function notesWith(comment: string): Promise<number> {
  const r = await agent.v2('/session-comment', { conditions: [{ key: 'comment', operator: 'EQ', value: comment }], sort: false });
  expect(r.status).toBe(200);
  return r.json<{ results: unknown[] }>().results.length;
}

const note = (comment: string) => agent.v2('/session-comment/save', { sessionId: 1, comment });

test('rateLimit answers 429 with Retry-After and commits nothing; count expires the rule', async () => {
  await sb.faults.set([{ kind: 'rateLimit', retryAfterSeconds: 3, count: 1, match: { path: SAVE } }]);
  const limited = await note('limitada');
  expect(limited.status).toBe(429);
  expect(limited.headers.get('retry-after')).toBe('3');
  expect(limited.json()).toMatchObject({ status: 'ERROR', errorCode: 'RATE_LIMITED' });
  expect(await notesWith('limitada')).toBe(0);
  expect((await note('limitada')).status).toBe(201);
  expect(await notesWith('limitada')).toBe(1);
});

test('status answers the chosen 5xx (503 by default) and commits nothing', async () => {
  await sb.faults.set([
    { kind: 'status', status: 502, count: 1 },
    { kind: 'status', count: 1 },
  ]);
  const first = await note('falhou');
  expect(first.status).toBe(502);
  expect(first.json<{ status: string }>().status).toBe('ERROR');
  const second = await note('falhou');
  expect(second.status).toBe(503);
  expect(await notesWith('falhou')).toBe(0);
});

test('reset drops the connection before handling: nothing committed', async () => {
  await sb.faults.set([{ kind: 'reset', count: 1, match: { method: 'POST', path: SAVE } }]);
  await expect(note('resetada')).rejects.toThrow();
  expect(await notesWith('resetada')).toBe(0);
});

test('dropAfterCommit stores the save and never answers', async () => {
  await sb.faults.set([{ kind: 'dropAfterCommit', count: 1, match: { path: SAVE } }]);
  await expect(note('entregue sem resposta')).rejects.toThrow();
  expect(await notesWith('entregue sem resposta')).toBe(1);
});

test('malformedJson answers 200 with a body that is not JSON, after committing', async () => {
  await sb.faults.set([{ kind: 'malformedJson', count: 1, match: { path: SAVE } }]);
  const r = await note('corpo quebrado');
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toContain('application/json');
  expect(() => r.json()).toThrow();
  expect(await notesWith('corpo quebrado')).toBe(1);
});

test('latency delays the answer; method and path must both match', async () => {
  await sb.faults.set([
    { kind: 'latency', latencyMs: 2_000, match: { method: 'POST', path: '/chatapi/1.0/api/v2/user-session' } },
    { kind: 'status', match: { method: 'GET' } },
  ]);
  const t0 = performance.now();
  const r = await agent.v2('/user-session', { conditions: [], sort: false, size: 1 });
  expect(r.status).toBe(200);
  expect(performance.now() - t0).toBeGreaterThanOrEqual(1_990);
  // The GET rule does not touch POSTs, and the latency rule does not touch other paths (a delay
  // long enough that no busy machine takes it for one).
  const t1 = performance.now();
  expect((await note('rápida')).status).toBe(201);
  expect(performance.now() - t1).toBeLessThan(1_990);
});

test('probability draws from a seeded PRNG: 0 never fires, 0.5 fires on some requests only', async () => {
  await sb.faults.set([{ kind: 'status', probability: 0 }]);
  for (let i = 0; i < 5; i++) expect((await agent.v2('/pause-reasons', { conditions: [], sort: false })).status).toBe(200);
  await sb.faults.set([{ kind: 'status', probability: 0.5 }]);
  let failed = 0;
  for (let i = 0; i < 40; i++) if ((await agent.v2('/pause-reasons', { conditions: [], sort: false })).status === 503) failed++;
  expect(failed).toBeGreaterThan(5);
  expect(failed).toBeLessThan(35);
});

test('auth is checked before faults', async () => {
  await sb.faults.set([{ kind: 'status' }]);
  const r = await standinClient(sb.baseUrl, null).v2('/user-session', { conditions: [], sort: false });
  expect(r.status).toBe(401);
  expect(r.text).toBe('');
});

test('faults over HTTP: admin only, set, list, clear', async () => {
  const denied = await agent.call('POST', '/__standin/faults', { rules: [] });
  expect(denied.status).toBe(403);
  expect(denied.json()).toEqual({ status: 'Forbidden' });
  const bad = await admin.call('POST', '/__standin/faults', { rules: [{ kind: 'explode' }] });
  expect(bad.status).toBe(400);
  const set = await admin.call('POST', '/__standin/faults', {
    rules: [{ kind: 'rateLimit', retryAfterSeconds: 2, count: 2, match: { path: SAVE } }],
  });
  expect(set.status).toBe(200);
  expect((await admin.get('/__standin/faults')).json<{ rules: Array<{ count: number }> }>().rules[0]!.count).toBe(2);
  expect((await note('via http')).status).toBe(429);
  expect((await admin.call('DELETE', '/__standin/faults')).status).toBe(204);
  expect((await admin.get('/__standin/faults')).json()).toEqual({ rules: [] });
  expect((await note('via http')).status).toBe(201);
});
