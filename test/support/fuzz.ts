import fc from 'fast-check';
import { ErrorInfoSchema } from '../../src-shared/errors';

/**
 * Shared pieces of the fuzz tests: hostile values, and the check that an answer is a clear
 * error value (or a result), never a stack or a path.
 */

const NASTY_STRINGS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '',
  ' ',
  '\u202e\u0000',
  '../../../../etc/passwd',
  '..%2f..%2f',
  '%00',
  '%E0%A4%A',
  '<script>alert(1)</script>',
  "'; DROP TABLE session; --",
  '{{7*7}}',
  '${process.env}',
  'NaN',
  '-0',
  '1e309',
  'javascript:alert(1)',
  'file:///etc/passwd',
  '\ud800',
  'app://console/index.html',
  'EQNUM',
  '%',
  '_',
  '\\',
  '"',
  '\n\r\t',
];

export const nastyString = fc.constantFrom(...NASTY_STRINGS);
export const bigString = fc.constantFrom('x'.repeat(70_000), 'é'.repeat(300_000), '\u0000'.repeat(20_000), '9'.repeat(100_000));
export const nastyNumber = fc.constantFrom(
  0,
  -1,
  1,
  2 ** 31,
  2 ** 53,
  -(2 ** 53),
  Number.NaN,
  Infinity,
  -Infinity,
  -0,
  1e308,
  0.5,
  Number.MIN_VALUE,
);

const leaf = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer(),
  fc.double(),
  nastyNumber,
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  nastyString,
);

/** Any value a page could send: JSON-like, with a few structured-clone extras (IPC carries them). */
export const anyValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('v'), { maxLength: 5 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), nastyString), tie('v'), { maxKeys: 5 }),
    fc.bigInt(),
    fc.date(),
  ),
})).v;

/** Arrays or objects nested thousands deep: parsers and walkers must not blow the stack. */
export const deepValue = fc.tuple(fc.integer({ min: 500, max: 5_000 }), fc.boolean()).map(([depth, asObject]) => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = asObject ? { a: v } : [v];
  return v;
});

/** Values an input schema may accept: small ids, short text, language tags, flags, id lists. */
export const plausible = fc.oneof(
  fc.integer({ min: 1, max: 60 }),
  fc.string({ minLength: 1, maxLength: 24 }),
  fc.constantFrom('pt-BR', 'en-US', 'local', 'local-extractive', 'demo_atendimento_data_pt', 'OPEN', 'CLOSED', 'userSession', 'session'),
  fc.boolean(),
  fc.array(fc.integer({ min: 1, max: 20 }), { maxLength: 3 }),
);

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** A closed loopback port: connection refused at once. */
export const DEAD_URL = 'http://127.0.0.1:9/fuzz';

/**
 * Network stays on loopback: any string that parses as a URL with a remote host is replaced, so
 * a fuzzed `connect` or upload never reaches out. Everything else is returned as is.
 */
export function loopbackOnly(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') {
    if (!/^[a-z][a-z0-9+.-]*:/i.test(v) || v.length > 4096) return v;
    try {
      const u = new URL(v);
      return u.hostname && !LOOPBACK_HOSTS.has(u.hostname) ? DEAD_URL : v;
    } catch {
      return v;
    }
  }
  if (depth > 40 || v === null || typeof v !== 'object' || v instanceof Date) return v;
  if (Array.isArray(v)) return v.map((x) => loopbackOnly(x, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v))
    Object.defineProperty(out, k, { value: loopbackOnly(x, depth + 1), enumerable: true, writable: true, configurable: true });
  return out;
}

/** What the user would see of an error: a kind and a sentence, no stack, no file path. */
export function unclearError(error: unknown): string | null {
  const parsed = ErrorInfoSchema.safeParse(error);
  if (!parsed.success) return `not an error value: ${describe(error)}`;
  const m = parsed.data.message;
  if (!m.trim()) return 'empty message';
  if (m.length > 2_000) return `message of ${m.length} characters`;
  // (A message may echo what the user typed, a path included; our own paths and stacks it may not.)
  if (/\n\s+at\s|node_modules|\/work\/main|TypeError|ReferenceError|Cannot read prop/.test(m))
    return `message leaks internals: ${m.slice(0, 200)}`;
  return null;
}

/** Resolves with the promise's value, or rejects when it takes longer than `ms`. */
export function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms))),
  ]);
}

/** A short, always-serialisable description of an input for a failure message. */
export function describe(v: unknown): string {
  try {
    return (JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x)) ?? String(v)).slice(0, 300);
  } catch {
    return `(a ${Array.isArray(v) ? 'array' : typeof v} too deep to print)`;
  }
}
