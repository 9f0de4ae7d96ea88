import { test, expect } from '@playwright/test';
import { nextPollDelay } from '../../../src-main/features/live/poll-pace';
import { createLogger } from '../../../src-main/log';
import { AnswerMemory } from '../../../src-main/service/answer-memory';
import { DEFAULT_ANSWER_LIMITS } from '../../../src-main/service/core';
import { createServiceClient, type ServiceClient, type ServiceClientOptions } from '../../../src-main/service/index';
import { isBackOff, isUnreachable } from '../../../src-shared/error-kinds';
import { failure } from '../../support/errors';
import { HUGE_BYTES, REDIRECT_TO, startHostileService, type HostileService } from '../../support/hostile-service';

/**
 * What any server may send, against the real service client: every answer is read within its
 * limit, paging always ends, and each failure says what happened.
 */

const MB = 1024 * 1024;

let service: HostileService;
let client: ServiceClient | undefined;
test.beforeEach(async () => {
  service = await startHostileService();
});
test.afterEach(async () => {
  await client?.close();
  client = undefined;
  await service.close();
});

const connect = (extra: Partial<ServiceClientOptions> = {}) =>
  (client = createServiceClient({
    baseUrl: service.baseUrl,
    getToken: async () => service.token,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ...extra,
  }));

/** The most this process held beyond what it held before, while `run` ran. */
async function peakGrowth<T>(run: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const held = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const before = held();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, held())), 5);
  try {
    const result = await run();
    peak = Math.max(peak, held());
    return { result, growth: peak - before };
  } finally {
    clearInterval(sampler);
  }
}

for (const behaviour of ['endless', 'huge', 'huge-announced'] as const) {
  test(`a ${behaviour} answer is cut at the list limit: a clear error naming it, bounded memory, the answer not read to its end`, async () => {
    service.behave(behaviour);
    const c = connect();
    const { result: e, growth } = await peakGrowth(() => failure(c.resource('sessionComment').list()));
    expect(e.info).toMatchObject({
      kind: 'BadResponse',
      reason: 'tooLarge',
      limit: DEFAULT_ANSWER_LIMITS.list,
      operation: 'sessionComment.list',
    });
    expect(e.message).toBe(
      'The service answered "sessionComment.list" with an answer larger than its limit of 16 MiB (reading stopped there).',
    );
    // Not asked again: the same answer would come back.
    expect(service.requests).toHaveLength(1);
    expect(growth).toBeLessThan(64 * MB);
    if (behaviour !== 'endless') expect(service.sentBytes).toBeLessThan(HUGE_BYTES / 2);
  });
}

test('answers over their limit, one after another, leave nothing behind: memory goes back near idle after each', async () => {
  service.behave('endless');
  const c = connect();
  const held = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const before = held();
  const after: number[] = [];
  for (let i = 0; i < 12; i++) {
    const e = await failure(c.resource('sessionComment').list());
    expect(e.info).toMatchObject({ reason: 'tooLarge' });
    after.push(held() - before);
  }
  // Each read took 16 MiB; left to the collector's own pace, dead reads pile up to several times that.
  expect(Math.max(...after)).toBeLessThan(32 * MB);
});

test('answers read at once share one memory budget: the first reads on, the others wait their turn, none waits for good', async () => {
  service.behave('endless');
  const memory = new AnswerMemory(1 * MB);
  const c = connect({ answerMemory: memory, limits: { list: 4 * MB } });
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, memory.held)), 1);
  try {
    const errors = await Promise.all([1, 2, 3].map(() => failure(c.resource('call').list())));
    for (const e of errors) expect(e.info).toMatchObject({ kind: 'BadResponse', reason: 'tooLarge', limit: 4 * MB });
  } finally {
    clearInterval(sampler);
  }
  // The first answer may use its whole limit; the others only what the budget leaves, a read or two each.
  expect(peak).toBeGreaterThan(3 * MB);
  expect(peak).toBeLessThan(4 * MB + 1 * MB);
  expect(memory.held).toBe(0);
});

test('the memory budget lets the answer that started first read on, and wakes the next in order as memory is released', () => {
  const memory = new AnswerMemory(100);
  const woken: string[] = [];
  const a = memory.open();
  const b = memory.open();
  const c = memory.open();
  expect(a.take(150, () => woken.push('a'))).toBe(true); // the first always reads on
  expect(b.take(10, () => woken.push('b'))).toBe(false);
  expect(c.take(10, () => woken.push('c'))).toBe(false);
  expect(memory.held).toBe(170);
  a.release();
  // b is first now: it goes on whatever the total; c too, as 20 bytes are within the budget.
  expect(woken).toEqual(['b', 'c']);
  expect(memory.held).toBe(20);
  b.release();
  c.release();
  c.release();
  expect(memory.held).toBe(0);
});

test('the limits are per kind of answer and configurable: a record answer stops at its own limit', async () => {
  service.behave('huge');
  const c = connect({ limits: { record: 1 * MB } });
  const e = await failure(c.ticket('42'));
  expect(e.info).toMatchObject({ kind: 'BadResponse', reason: 'tooLarge', limit: 1 * MB });
  expect(e.message).toContain('limit of 1 MiB');
  // A write whose answer passes its limit may still have been saved: that is what it says.
  const w = await failure(c.resource('sessionComment').save({ sessionId: 1, comment: 'x' }));
  expect(w.kind).toBe('OutcomeUnknown');
  expect(w.message).toContain('larger than its limit of 1 MiB');
});

test('JSON nested 300,000 levels deep is refused before it is parsed', async () => {
  service.behave('deep');
  const c = connect();
  const e = await failure(c.resource('call').list());
  expect(e.info).toMatchObject({ kind: 'BadResponse', reason: 'tooDeep', limit: 128 });
  expect(e.message).toBe('The service answered "call.list" with an answer nested more than 128 levels deep (not read).');
});

test('a record nested deeper than the console reads is not sent, with a clear error instead of an internal one', async () => {
  const c = connect();
  let deep: unknown = 'x';
  for (let i = 0; i < 10_000; i++) deep = { child: deep };
  const e = await failure(c.resource('classification').save({ value: 'root', children: [deep] } as never));
  expect(e.info).toMatchObject({ kind: 'Invalid' });
  expect(e.message).toBe('The data to save classifications is nested more than 128 levels deep; the console does not send it.');
  expect(service.requests).toHaveLength(0);
});

test('pages of records nobody can read end the read at the second request, and a background pass that failed so backs off', async () => {
  service.behave('unreadable');
  const c = connect();
  const e = await failure(c.resource('userSession').collect({ size: 500 }));
  expect(e.info).toMatchObject({ kind: 'BadResponse', reason: 'paging', operation: 'userSession.list' });
  expect(e.message).toBe('The service answered the same page twice while listing sessions (page 1); the list stopped there.');
  expect(service.requests).toHaveLength(2);
  // The safety-net poll treats it as the service misbehaving: it waits longer, as after a 503.
  expect(isBackOff(e)).toBe(true);
  expect(nextPollDelay(30_000, { found: 0, errors: [e] }, false)).toBe(60_000);
});

test('paging always ends: a page of records already read, or a second page in a row with none readable, stops the read', async () => {
  const c = connect();
  // Pages 0, 1, then page 0 again: nothing new.
  service.behave({ pages: (p) => (p % 2 === 0 ? [{ id: 1 }, { id: 2 }] : [{ id: 3 }, { id: 4 }]) });
  const e1 = await failure(c.resource('bot').collect({ size: 2 }));
  expect(e1.info).toMatchObject({ kind: 'BadResponse', reason: 'paging' });
  expect(e1.message).toBe('The service answered page 2 of bots with nothing new (only records of earlier pages); the list stopped there.');
  expect(service.requests).toHaveLength(3);

  // A different unreadable record on every page.
  service.requests.length = 0;
  service.behave({ pages: (p) => [[p]] });
  const e2 = await failure(c.resource('bot').collect({ size: 2 }));
  expect(e2.message).toBe(
    'The service answered two pages of bots in a row without one record the console can read (pages 0 and 1); the list stopped there.',
  );
  expect(service.requests).toHaveLength(2);

  // New records on every page, without end: the cap counts them, so the pages are what the cap
  // takes at the first page's length, and one more.
  service.requests.length = 0;
  service.behave({ pages: (p) => [{ id: 2 * p + 1 }, { id: 2 * p + 2 }] });
  const got = await c.resource('bot').collect({ size: 2 }, { cap: 10 });
  expect(got).toMatchObject({ truncated: true, pages: 6 });
  expect(got.records).toHaveLength(10);
  expect(service.requests).toHaveLength(6);
});

test('a page that fails is asked at most twice', async () => {
  service.behave('error-page');
  const c = connect();
  expect((await failure(c.resource('bot').collect())).info).toMatchObject({ kind: 'Unavailable', status: 500 });
  expect(service.requests).toHaveLength(2);
});

test('an HTML error page is the service answering with an error, with its status: not "could not be reached"', async () => {
  service.behave('error-page');
  const c = connect();
  const e = await failure(c.resource('userSession').list());
  expect(e.info).toMatchObject({ kind: 'Unavailable', status: 500, reason: 'errorPage' });
  expect(e.message).toBe('The service failed to list sessions: it answered with an error page (500). Try again shortly.');
  expect(isUnreachable(e)).toBe(false);
  expect(service.requests).toHaveLength(4); // retried as any 5xx is
});

test('a redirect is not followed, and says where it pointed (without its query)', async () => {
  service.behave('redirect');
  const c = connect();
  const e = await failure(c.resource('userSession').list());
  const where = REDIRECT_TO.split('?')[0];
  expect(e.info).toMatchObject({ kind: 'Invalid', status: 301, reason: 'redirect', location: where });
  expect(e.message).toBe(
    `The service redirected the request to list sessions to ${where} (301); the console does not follow redirects. Check the service address.`,
  );
  expect(e.message).not.toContain('do-not-show');
  expect(service.requests).toHaveLength(1);
});

test('an answer that never comes is a timeout, not "could not be reached"', async () => {
  service.behave('silent');
  const c = connect({ timeoutMs: 300 });
  const e = await failure(c.resource('userSession').list());
  expect(e.info).toMatchObject({ kind: 'Timeout', reason: 'timeout' });
  expect(e.message).toBe('The service did not answer in time while trying to list sessions. Check the connection and try again.');
});

test('a service that is gone is "could not be reached"', async () => {
  const c = connect({ retry: { attempts: 1 } });
  await service.close();
  const e = await failure(c.resource('userSession').list());
  expect(e.info).toMatchObject({ kind: 'Unavailable', reason: 'unreachable' });
  expect(e.info.status).toBeUndefined();
  expect(isUnreachable(e)).toBe(true);
});

test('an internal fault is logged with its stack, once, where the user is told to look at the log', async () => {
  const lines: string[] = [];
  const log = createLogger({ stream: { write: (l: string) => lines.push(l) } });
  client = createServiceClient({
    baseUrl: service.baseUrl,
    log,
    getToken: async () => {
      throw new TypeError('vault exploded');
    },
  });
  const e = await failure(client.resource('userSession').list());
  expect(e.info).toMatchObject({
    kind: 'Internal',
    reason: 'internal',
    message: 'Something went wrong inside the console. The details are in the log.',
  });
  const logged = lines.map((l) => JSON.parse(l) as { msg: string; stack?: string; op?: string }).filter((l) => l.msg === 'internal error');
  expect(logged).toHaveLength(1);
  expect(logged[0]!.op).toBe('userSession.list');
  expect(logged[0]!.stack).toContain('TypeError: vault exploded');
  expect(logged[0]!.stack).toMatch(/at .*hostile-service\.test\.ts/);
});
