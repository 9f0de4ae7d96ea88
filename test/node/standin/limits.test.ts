import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { startStandin, type Standin } from '../../../src-standin/index';
import { standinClient } from '../../../src-standin/test-client';
import { likeMatcher } from '../../../src-standin/like';
import { MAX_CONDITIONS, MAX_CONDITION_DEPTH } from '../../../src-standin/query-engine';

let sb: Standin;
let agent: ReturnType<typeof standinClient>;

test.beforeAll(async () => {
  sb = await startStandin({ port: 0, sessions: 20 });
  agent = standinClient(sb.baseUrl, sb.tokens.agent);
});
test.afterAll(async () => {
  await sb.close();
});

/** The documented meaning of LIKE, as a regular expression: only ever run on short inputs here. */
function likeOracle(pattern: string, text: string): boolean {
  let src = '';
  for (const ch of pattern) src += ch === '%' ? '[\\s\\S]*' : ch === '_' ? '[\\s\\S]' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${src}$`, 'iu').test(text);
}

test('LIKE answers as the documented wildcard match on any pattern and text', () => {
  const chars = fc.constantFrom('a', 'A', 'b', 'é', 'É', 'x', ' ', '.', '😀');
  const text = fc.array(chars, { maxLength: 12 }).map((a) => a.join(''));
  const pattern = fc.array(fc.oneof(chars, fc.constant('%'), fc.constant('_')), { maxLength: 8 }).map((a) => a.join(''));
  fc.assert(
    fc.property(pattern, text, (p, t) => likeMatcher(p)(t) === likeOracle(p, t)),
    { numRuns: 3000 },
  );
});

test('a LIKE built to make a regex backtrack answers at once over a 10,000-character note', async () => {
  const note = `${'a'.repeat(10_000)}`;
  const saved = await agent.v2('/session-comment/save', { sessionId: 2, comment: note });
  expect(saved.status).toBe(201);
  const body = { conditions: [{ key: 'comment', operator: 'LIKE', value: '%a%a%a%a%a%X' }], sort: false };
  const r = await agent.v2('/session-comment', body);
  expect(r.status).toBe(200);
  expect(r.json<{ results: unknown[] }>().results).toEqual([]);
  // That it answers at all is the check: a matcher that backtracks would try about 10,000^5 ways
  // before giving up, far beyond the test's time on any machine (no clock here to miss when busy).
  // The same shape that does match is found.
  const hit = await agent.v2('/session-comment', {
    conditions: [{ key: 'comment', operator: 'LIKE', value: '%a%a%a%a%a%a' }],
    sort: false,
  });
  expect(hit.json<{ results: Array<{ comment: string }> }>().results.map((x) => x.comment.length)).toContain(10_000);
});

test('conditions nested 5,000 deep, or too many of them, answer 400 saying so', async () => {
  // Written as text: serialising a tree this deep would overflow the test's own stack.
  const deep = `${'{"and":['.repeat(5000)}{"key":"id","operator":"EQNUM","value":"1"}${']}'.repeat(5000)}`;
  const nested = await agent.v2('/user-session', `{"conditions":[${deep}],"sort":false}`);
  expect(nested.status).toBe(400);
  expect(nested.json()).toMatchObject({
    errorCode: 'INVALID_QUERY',
    message: `Conditions are nested more than ${MAX_CONDITION_DEPTH} levels deep.`,
  });

  const lookup = await agent.v2('/groups/unique', `{"conditions":[${deep}],"sort":false}`);
  expect(lookup.status).toBe(400);

  const wide = Array.from({ length: MAX_CONDITIONS + 1 }, () => ({ key: 'id', operator: 'NOT_NULL' }));
  const many = await agent.v2('/user-session', { conditions: wide, sort: false });
  expect(many.status).toBe(400);
  expect(many.json()).toMatchObject({ errorCode: 'INVALID_QUERY', message: `A query may hold at most ${MAX_CONDITIONS} conditions.` });

  // At the limits the query is answered.
  let ok: Record<string, unknown> = { key: 'id', operator: 'EQNUM', value: '1' };
  for (let i = 0; i < MAX_CONDITION_DEPTH; i++) ok = { and: [ok] };
  const fine = await agent.v2('/user-session', { conditions: [ok], sort: false });
  expect(fine.status).toBe(200);
  expect(fine.json<{ results: Array<{ id: number }> }>().results.map((s) => s.id)).toEqual([1]);
});
