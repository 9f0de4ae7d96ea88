import { test, expect } from '@playwright/test';
import {
  backoffDelay,
  errorClass,
  isBackOff,
  isRefused,
  isRetryable,
  isTemporary,
  isUnreachable,
  retryAfterDelay,
} from '../../../src-shared/error-kinds';
import { AppError, ERROR_KINDS, type ErrorInfo } from '../../../src-shared/errors';

/** The one rule main and the page use to decide what a failure means. */

const info = (kind: ErrorInfo['kind'], status?: number): ErrorInfo => ({
  kind,
  message: kind,
  ...(status !== undefined ? { status } : {}),
});

test('every kind of error falls in exactly one class, and the status tells an unreachable service from one answering 5xx', () => {
  const expected: Record<string, string> = {
    Unauthorized: 'refused',
    Forbidden: 'refused',
    NotFound: 'refused',
    Invalid: 'refused',
    RateLimited: 'backOff',
    Unavailable: 'unreachable',
    Timeout: 'unreachable',
    OutcomeUnknown: 'outcomeUnknown',
    BadResponse: 'backOff',
    Cancelled: 'none',
    Internal: 'none',
  };
  expect(Object.keys(expected).sort()).toEqual([...ERROR_KINDS].sort());
  for (const kind of ERROR_KINDS) expect(errorClass(info(kind)), kind).toBe(expected[kind]);
  expect(errorClass(info('Unavailable', 503))).toBe('backOff');
  expect(errorClass(info('Unavailable', 500))).toBe('backOff');
});

test('the same answer for an AppError, the error value it carries, and a bridge error carrying that value; anything else is no class', () => {
  const e = new AppError({ kind: 'Unavailable', status: 502, message: 'bad gateway' });
  const bridgeError = Object.assign(new Error('bad gateway'), { info: e.info });
  for (const v of [e, e.info, bridgeError]) {
    expect(isBackOff(v)).toBe(true);
    expect(isTemporary(v)).toBe(true);
    expect(isUnreachable(v)).toBe(false);
  }
  for (const v of [new TypeError('x'), null, undefined, 'Timeout', { kind: 42 }]) expect(errorClass(v)).toBe('none');
  expect(isUnreachable(info('Timeout'))).toBe(true);
  expect(isTemporary(info('Timeout'))).toBe(true);
  expect(isRefused(info('Forbidden', 403))).toBe(true);
  expect(isTemporary(info('Forbidden', 403))).toBe(false);
  expect(errorClass(info('OutcomeUnknown'))).toBe('outcomeUnknown');
  expect(isTemporary(info('OutcomeUnknown'))).toBe(false);
});

test('repeated at once: no answer, or the service saying "not now"; never an answer that could not be read, a refusal or a write of unknown outcome', () => {
  expect(isRetryable(info('Timeout'))).toBe(true);
  expect(isRetryable(info('Unavailable'))).toBe(true);
  expect(isRetryable(info('Unavailable', 503))).toBe(true);
  expect(isRetryable(info('RateLimited', 429))).toBe(true);
  for (const kind of ['BadResponse', 'Invalid', 'NotFound', 'Unauthorized', 'OutcomeUnknown', 'Cancelled', 'Internal'] as const) {
    expect(isRetryable(info(kind)), kind).toBe(false);
  }
});

test('the backoff doubles from its base to its cap, half fixed and half random', () => {
  const b = { baseMs: 1_000, maxMs: 8_000 };
  expect([1, 2, 3, 4, 5, 9].map((n) => backoffDelay(n, b, () => 0))).toEqual([500, 1_000, 2_000, 4_000, 4_000, 4_000]);
  expect([1, 2, 3, 4, 5, 9].map((n) => backoffDelay(n, b, () => 0.999999))).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
  // No failure yet counts as the first.
  expect(backoffDelay(0, b, () => 0.5)).toBe(750);
  for (let i = 0; i < 200; i++) {
    const d = backoffDelay(3, b);
    expect(d).toBeGreaterThanOrEqual(2_000);
    expect(d).toBeLessThanOrEqual(4_000);
  }
});

test('a wait the service asked for is kept, with at most a quarter (and never more than 250 ms) of jitter', () => {
  expect(retryAfterDelay(2_000, () => 0)).toBe(2_000);
  expect(retryAfterDelay(2_000, () => 0.999)).toBe(2_249);
  expect(retryAfterDelay(100, () => 0.999)).toBe(125);
  expect(retryAfterDelay(0, () => 0.999)).toBe(0);
});
