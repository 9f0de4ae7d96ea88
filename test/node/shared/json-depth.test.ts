import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { JsonDepthGauge, MAX_JSON_DEPTH, nestsDeeperThan } from '../../../src-shared/json-depth';

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

test('nesting is measured without parsing, brackets inside strings (escaped quotes included) not counted', () => {
  expect(nestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
  expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
  expect(nestsDeeperThan('{"a":{"b":[1,{"c":2}]}}', 3)).toBe(true);
  expect(nestsDeeperThan('{"a":{"b":[1,{"c":2}]}}', 4)).toBe(false);
  expect(nestsDeeperThan(`{"text":"${'[{'.repeat(500)}"}`, 2)).toBe(false);
  expect(nestsDeeperThan(`{"text":"a \\" ${'['.repeat(500)}"}`, 2)).toBe(false);
  expect(nestsDeeperThan(`{"text":"a \\\\"${'['.repeat(5)}`, 2)).toBe(true);
  // Siblings do not add up.
  expect(nestsDeeperThan(`[${Array.from({ length: 1000 }, () => '[[1]]').join(',')}]`, 3)).toBe(false);
});

test('text arriving in parts of any size, bytes or characters, gives the same answer, and stops at the first level too deep', () => {
  const text = `{"results":[{"name":"Jo\\"ão ["},${nested(300_000)}]}`;
  const bytes = Buffer.from(text, 'utf8');
  for (const size of [1, 3, 7, 64 * 1024]) {
    const gauge = new JsonDepthGauge();
    let fed = 0;
    for (let at = 0; at < bytes.length && gauge.feed(bytes.subarray(at, at + size)); at += size) fed += size;
    expect(gauge.exceeded).toBe(true);
    // It stopped within the first levels, never reading on to the end.
    expect(fed).toBeLessThan(200 + size);
  }
  const gauge = new JsonDepthGauge(3);
  expect(gauge.feed('{"a":[')).toBe(true);
  expect(gauge.feed('{"b":[')).toBe(false);
  expect(gauge.feed(']}]}')).toBe(false);
});

test('split anywhere, any mix of brackets, quotes and backslashes gives the answer of a plain reading character by character', () => {
  const reference = (text: string, limit: number): boolean => {
    let depth = 0;
    let inString = false;
    let escaped = false;
    for (const ch of text) {
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === '\\') escaped = true;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === '[' || ch === '{') {
        if (++depth > limit) return true;
      } else if (ch === ']' || ch === '}') depth--;
    }
    return false;
  };
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', 'ã'), { maxLength: 60 }),
      fc.array(fc.nat(60), { maxLength: 6 }),
      fc.integer({ min: 0, max: 4 }),
      (chars, cuts, limit) => {
        const bytes = Buffer.from(chars.join(''), 'utf8');
        const at = [0, ...cuts.map((c) => c % (bytes.length + 1)).sort((a, b) => a - b), bytes.length];
        const gauge = new JsonDepthGauge(limit);
        for (let i = 0; i + 1 < at.length; i++) gauge.feed(bytes.subarray(at[i], at[i + 1]));
        expect(gauge.exceeded).toBe(reference(chars.join(''), limit));
      },
    ),
    { seed: 7, numRuns: 3000 },
  );
});
