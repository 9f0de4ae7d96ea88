import { test, expect } from '@playwright/test';
import type { ServerResponse } from 'node:http';
import { createLogger } from '../../../src-main/log';
import { createServiceClient, type ServiceClient, type ServiceClientOptions } from '../../../src-main/service/index';
import { failure } from '../../support/errors';
import { local, type Local } from '../../support/local-service';

/**
 * Answers the stand-in cannot give on purpose (broken schemas, capped pages, hanging
 * requests), from a tiny loopback server started per test.
 */

const TOKEN = 'local-token-7f3a9c';

const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
};

function clientFor(l: Local, extra: Partial<ServiceClientOptions> = {}): ServiceClient {
  return createServiceClient({ baseUrl: l.baseUrl, getToken: async () => TOKEN, retry: { baseDelayMs: 5, maxDelayMs: 20 }, ...extra });
}

let server: Local | undefined;
let client: ServiceClient | undefined;
test.afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

test('an answer that breaks what the interface states is BadResponse naming the operation and the field; an odd record is skipped and counted', async () => {
  server = await local((req, _b, res) => {
    if (req.url?.endsWith('/v2/agent'))
      json(res, 200, { page: 0, size: 20, results: [{ id: 1 }, { id: 'two', status: { code: 5 } }, 'junk', null] });
    else if (req.url?.endsWith('/v2/attributes')) json(res, 200, { page: 0, size: 20, results: 'none' });
    else if (req.url?.endsWith('/v2/bot')) json(res, 200, { page: '0', size: '20' });
    else json(res, 200, { averageNps: 'high', negative: 0, neutral: 0, positive: 0, totalCount: 0 });
  });
  client = clientFor(server);
  const p1 = await client.resource('agent').list();
  expect(p1.results.map((r) => r.id)).toEqual([1, undefined]);
  expect(p1.results[1]!.status).toBeUndefined();
  expect(p1.skipped).toBe(2);
  const e2 = await failure(client.resource('attribute').list());
  expect(e2.info).toMatchObject({ kind: 'BadResponse', field: 'results' });
  // An empty list may come as null or not at all, and page and size as digits.
  expect(await client.resource('bot').list()).toMatchObject({ page: 0, size: 20, results: [], skipped: 0 });
  const e3 = await failure(client.npsSummary('csat'));
  expect(e3.info).toMatchObject({ kind: 'BadResponse', operation: 'npsSummary', field: 'averageNps' });
});

test('unparseable JSON: BadResponse for a read, OutcomeUnknown for a write, and the write is not repeated', async () => {
  server = await local((_req, _b, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"page":0,"results":[');
  });
  client = clientFor(server);
  expect((await failure(client.resource('call').list())).kind).toBe('BadResponse');
  const e = await failure(client.resource('sessionComment').save({ sessionId: 1, comment: 'note' }));
  expect(e.kind).toBe('OutcomeUnknown');
  expect(server.seen.filter((s) => s.url.endsWith('/session-comment/save'))).toHaveLength(1);
});

test('a server that caps the page size still yields every record through pageAll', async () => {
  const all = Array.from({ length: 23 }, (_, i) => ({ id: i + 1, comment: `n${i + 1}`, sessionId: 9 }));
  const asked: number[] = [];
  server = await local((_req, body, res) => {
    const q = JSON.parse(body) as { page?: number; size?: number };
    asked.push(q.size ?? -1);
    const size = Math.min(q.size ?? 20, 5); // honours at most 5 whatever is asked
    const page = q.page ?? 0;
    json(res, 200, { page, size: q.size, results: all.slice(page * size, page * size + size) });
  });
  client = clientFor(server);
  const got = await client.resource('sessionComment').pageAll({ conditions: [], sort: false, size: 500 });
  expect(got.map((r) => r.id)).toEqual(all.map((r) => r.id));
  expect(new Set(asked)).toEqual(new Set([500]));

  const capped = await client.resource('sessionComment').collect({ size: 500 }, { cap: 7 });
  expect(capped.records).toHaveLength(7);
  expect(capped.truncated).toBe(true);

  // Exactly a multiple of the server's page: an empty page ends the list.
  all.length = 20;
  expect(await client.resource('sessionComment').pageAll({ size: 500 })).toHaveLength(20);
});

test('a server that ignores the page number is reported, not looped on', async () => {
  server = await local((_req, _b, res) => json(res, 200, { page: 0, size: 2, results: [{ id: 1 }, { id: 2 }] }));
  client = clientFor(server);
  const e = await failure(client.resource('bot').pageAll({ size: 2 }));
  expect(e.info).toMatchObject({ kind: 'BadResponse', operation: 'bot.list' });
  expect(server.seen.length).toBeLessThanOrEqual(2);
});

test('the bearer header is added by the client alone; a refused token calls onUnauthorized', async () => {
  let refused = 0;
  server = await local((req, _b, res) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401);
      res.end();
    } else json(res, 200, { page: 0, size: 20, results: [] });
  });
  client = clientFor(server, { onUnauthorized: () => refused++ });
  await client.resource('workSchedule').list();
  expect(server.seen[0]?.auth).toBe(`Bearer ${TOKEN}`);
  await client.close();

  client = createServiceClient({ baseUrl: server.baseUrl, getToken: async () => 'wrong-token', onUnauthorized: () => refused++ });
  const e = await failure(client.resource('workSchedule').list());
  expect(e.kind).toBe('Unauthorized');
  expect(e.message).toBe('The service refused the token (401). Sign in again.');
  expect(refused).toBe(1);
  await client.close();

  client = createServiceClient({ baseUrl: server.baseUrl, getToken: async () => null });
  const before = server.seen.length;
  expect((await failure(client.resource('workSchedule').list())).kind).toBe('Unauthorized');
  expect(server.seen.length).toBe(before);
});

test('ERROR envelopes are Invalid with message and errorCode, on 400 and on 200', async () => {
  server = await local((req, _b, res) => {
    if (req.url?.includes('/ticketapi/')) json(res, 200, { status: 'ERROR', message: 'ticket store offline', errorCode: 'T-9' });
    else json(res, 400, { status: 'ERROR', message: 'unknown key "colour"', errorCode: 'BAD_KEY' });
  });
  client = clientFor(server);
  const e1 = await failure(client.resource('call').list({ conditions: [{ key: 'colour', operator: 'EQ', value: 'x' }], sort: false }));
  expect(e1.info).toMatchObject({ kind: 'Invalid', status: 400, errorCode: 'BAD_KEY' });
  expect(e1.message).toContain('unknown key "colour"');
  const e2 = await failure(client.ticket('42'));
  expect(e2.info).toMatchObject({ kind: 'Invalid', errorCode: 'T-9' });
  expect(server.seen).toHaveLength(2); // refusals are not retried
});

test('reads are retried with backoff on 5xx; writes are not unless marked safe to repeat', async () => {
  let failuresLeft = 2;
  server = await local((req, body, res) => {
    if (failuresLeft > 0) {
      failuresLeft--;
      res.writeHead(503);
      res.end();
      return;
    }
    if (req.url?.endsWith('/save')) json(res, 200, { id: 5, ...(JSON.parse(body) as object) });
    else json(res, 200, { page: 0, size: 20, results: [{ id: 1, value: 'x' }] });
  });
  client = clientFor(server);
  const page = await client.resource('chatAnswer').list();
  expect(page.results).toHaveLength(1);
  expect(server.seen).toHaveLength(3);

  failuresLeft = 1;
  const e = await failure(client.resource('chatAnswer').save({ value: 'y' }));
  expect(e.info).toMatchObject({ kind: 'Unavailable', status: 503 });
  expect(server.seen).toHaveLength(4);

  failuresLeft = 1;
  const saved = await client.resource('chatAnswer').save({ id: 5, value: 'y' }, { safeToRetry: true });
  expect(saved).toMatchObject({ id: 5, value: 'y' });
  expect(server.seen).toHaveLength(6);

  failuresLeft = 100;
  const gaveUp = await failure(client.resource('chatAnswer').list());
  expect(gaveUp.kind).toBe('Unavailable');
  expect(server.seen).toHaveLength(10); // 4 attempts, then handed back
});

test('timeouts: a read is Timeout, a sent write is OutcomeUnknown, a queued write is Timeout', async () => {
  server = await local(() => {
    /* never answers */
  });
  client = clientFor(server, { timeoutMs: 300, maxConcurrent: 1, retry: { attempts: 1 } });
  const read = await failure(client.resource('hsmTemplate').list());
  expect(read.kind).toBe('Timeout');

  const hanging = failure(client.resource('hsmTemplate').save({ template: 'a' }));
  // The gate holds one request per host here: this write never leaves the machine.
  const queued = failure(client.resource('hsmTemplate').save({ template: 'b' }, { timeoutMs: 100 }));
  expect((await queued).kind).toBe('Timeout');
  expect((await hanging).kind).toBe('OutcomeUnknown');
  expect(server.seen.filter((s) => s.body.includes('"b"'))).toHaveLength(0);
});

test('cancelling a call is Cancelled and stops it', async () => {
  server = await local(() => {
    /* never answers */
  });
  client = clientFor(server);
  const controller = new AbortController();
  const pending = failure(client.resource('cognition').list(undefined, { signal: controller.signal }));
  await expect.poll(() => server?.seen.length).toBe(1);
  controller.abort();
  const e = await pending;
  expect(e.kind).toBe('Cancelled');
  const already = await failure(client.ner('x', { signal: controller.signal }));
  expect(already.kind).toBe('Cancelled');
});

test('a refused connection is Unavailable', async () => {
  const gone = await local(() => {});
  const baseUrl = gone.baseUrl;
  await gone.close();
  client = createServiceClient({ baseUrl, getToken: async () => TOKEN, retry: { attempts: 2, baseDelayMs: 5 } });
  const e = await failure(client.resource('bot').list());
  expect(e.kind).toBe('Unavailable');
  expect(e.message).toContain('could not be reached');
});

test('no more requests in flight per host than maxConcurrent', async () => {
  const held: ServerResponse[] = [];
  let active = 0;
  let maxActive = 0;
  server = await local((_req, _b, res) => {
    active++;
    maxActive = Math.max(maxActive, active);
    held.push(res);
  });
  client = clientFor(server, { maxConcurrent: 2 });
  const calls = Array.from({ length: 5 }, () => client!.resource('attribute').list());
  for (let answered = 0; answered < 5; answered++) {
    await expect.poll(() => held.length).toBeGreaterThan(0);
    const res = held.shift()!;
    active--;
    json(res, 200, { page: 0, size: 20, results: [] });
  }
  await Promise.all(calls);
  expect(maxActive).toBe(2);
  expect(server.seen).toHaveLength(5);
});

test('tts answers must be WAV; stt goes out as multipart with file and language', async () => {
  server = await local((req, body, res) => {
    if (req.url?.endsWith('/tts')) {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      res.end('not audio');
    } else
      json(res, 200, {
        text: body.includes('name="language"') && body.includes('name="file"') ? 'ok' : 'missing',
        language: 'pt-BR',
        segments: [],
      });
  });
  client = clientFor(server);
  const e = await failure(client.tts({ text: 'olá', language: 'pt-BR' }));
  expect(e.kind).toBe('BadResponse');
  const stt = await client.stt({ file: new Uint8Array([82, 73, 70, 70]), language: 'pt-BR' });
  expect(stt.text).toBe('ok');
});

test('the log shows method, path, status and duration, never the token or provider credentials', async () => {
  const lines: string[] = [];
  const log = createLogger({ level: 'debug', stream: { write: (l: string) => lines.push(l) } });
  server = await local((_req, _b, res) => json(res, 200, { message: 'hi', tool_calls: null, used_tokens: 3 }));
  client = clientFor(server, { log });
  await client.nlp({
    provider: 'p',
    model: 'm',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'oi' }] }],
    token: [{ access_key: 'AKIA-provider-1234', secret_key: 'provider-secret-5678' }],
  });
  const text = lines.join('');
  expect(server.seen[0]?.body).toContain('provider-secret-5678');
  expect(text).toContain('"op":"ai.nlp"');
  expect(text).toMatch(/"status":200,"ms":\d+/);
  for (const secret of [TOKEN, 'AKIA-provider-1234', 'provider-secret-5678']) expect(text).not.toContain(secret);
});

test('a timed-out read is tried once more, not four times', async () => {
  server = await local(() => {
    /* never answers */
  });
  client = clientFor(server, { timeoutMs: 200 });
  expect((await failure(client.resource('bot').list())).kind).toBe('Timeout');
  expect(server.seen).toHaveLength(2);
});

test('close() ends calls in flight: a read is Cancelled, a sent write OutcomeUnknown', async () => {
  server = await local(() => {
    /* never answers */
  });
  client = clientFor(server, { timeoutMs: 60_000 });
  const read = failure(client.resource('bot').list());
  const write = failure(client.resource('bot').save({ active: true }));
  await expect.poll(() => server?.seen.length).toBe(2);
  const started = Date.now();
  await client.close();
  expect((await read).kind).toBe('Cancelled');
  expect((await write).kind).toBe('OutcomeUnknown');
  expect(Date.now() - started).toBeLessThan(5_000);
  expect((await failure(client.resource('bot').list())).kind).toBe('Cancelled');
});

test('many calls in flight at once raise no listener-leak warning, and closing the client still ends every one', async () => {
  server = await local(() => {
    /* never answers */
  });
  client = clientFor(server, { maxConcurrent: 6 });
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  try {
    const calls = Array.from({ length: 24 }, () => failure(client!.resource('bot').list()));
    await expect.poll(() => server?.seen.length).toBe(6);
    await client.close();
    const kinds = new Set((await Promise.all(calls)).map((e) => e.kind));
    expect([...kinds]).toEqual(['Cancelled']);
    // Warnings are emitted on the next tick.
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(warnings.filter((w) => w.includes('MaxListeners'))).toEqual([]);
  } finally {
    process.off('warning', onWarning);
  }
});
