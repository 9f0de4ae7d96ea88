import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import { CHANNEL_NAMES, channels, WEB_BRIDGE_PATH } from '../../../src-shared/bridge';
import { dispatch } from '../../../src-main/bridge/table';
import { startHost, type Host } from '../../../src-main/host/start-host';
import { RENDERER_DIR } from '../../support/host';
import { anyValue, bigString, deepValue, describe, loopbackOnly, nastyString, plausible, unclearError, within } from '../../support/fuzz';

/**
 * Bad input from the renderer's side: every bridge channel of the real console (demo workspace
 * open, the stand-in behind it) gets thousands of malformed, oversized and nearly-valid inputs,
 * through the shared dispatcher (what Electron IPC calls) and through the web host's HTTP
 * transport. Each answer must be a result or a clear error value; nothing may hang or crash.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const PER_CALL_MS = 20_000;

/** The keys a channel's input object takes, so that nearly-valid inputs can be built. */
function inputKeys(schema: z.ZodType): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return shape && typeof shape === 'object' ? Object.keys(shape) : [];
}

function shapedInput(channel: string): fc.Arbitrary<unknown> {
  const keys = inputKeys(channels[channel as keyof typeof channels].input);
  if (!keys.length) return fc.oneof(fc.constant({}), fc.record({ extra: anyValue }));
  const field = fc.oneof(
    { weight: 4, arbitrary: plausible },
    { weight: 2, arbitrary: anyValue },
    { weight: 1, arbitrary: nastyString },
    { weight: 1, arbitrary: bigString },
  );
  return fc.oneof(
    { weight: 4, arbitrary: fc.record(Object.fromEntries(keys.map((k) => [k, field])), { requiredKeys: [] }) },
    { weight: 1, arbitrary: fc.record({ ...Object.fromEntries(keys.map((k) => [k, field])), [`x${keys.length}`]: anyValue }) },
  );
}

const inputFor = (channel: string) =>
  fc.oneof(
    { weight: 6, arbitrary: shapedInput(channel) },
    { weight: 2, arbitrary: anyValue },
    { weight: 1, arbitrary: deepValue },
    { weight: 1, arbitrary: bigString },
  );

/**
 * fc.assert, minus its report: a counterexample thousands of levels deep cannot be printed, so
 * the failure is reported as the property's own error (which names the channel and input).
 * Every case runs: the test's own timeout is the one limit, so a busy machine makes the run
 * slower, never shorter.
 */
async function checkAll<T>(property: fc.IAsyncProperty<T>, params: fc.Parameters<T>): Promise<void> {
  const out = await fc.check(property, params);
  if (out.failed) throw out.errorInstance instanceof Error ? out.errorInstance : new Error(String(out.errorInstance));
}

/** Channels that end the demo workspace are fuzzed, then the workspace is opened again. */
const RESETS = new Set(['workspace:signOut', 'workspace:connect']);

let host: Host;
const rejections: unknown[] = [];
const onRejection = (e: unknown) => void rejections.push(e);

test.beforeAll(async () => {
  test.setTimeout(120_000);
  process.on('unhandledRejection', onRejection);
  host = await startHost({ profileDir: mkdtempSync(join(tmpdir(), 'console-fuzz-')), rendererDir: RENDERER_DIR, port: 0, locale: 'en-US' });
  const opened = await dispatch(host.app.handlers, 'workspace:openDemo', {});
  expect(opened).toMatchObject({ result: { signedIn: true } });
});

test.afterAll(async () => {
  process.off('unhandledRejection', onRejection);
  await host?.close();
});

test('every channel answers thousands of malformed inputs with a result or a clear error', async () => {
  test.setTimeout(600_000);
  const outcomes = new Map<string, number>();
  const reached = new Set<string>();
  let cases = 0;
  const started = Date.now();
  const channelNames = [...CHANNEL_NAMES].sort();
  expect(channelNames.length).toBeGreaterThan(20);

  await checkAll(
    fc.asyncProperty(
      fc.constantFrom(...channelNames).chain((c) => fc.tuple(fc.constant(c), inputFor(c))),
      async ([channel, raw]) => {
        cases++;
        const input = loopbackOnly(raw);
        const answer = (await within(PER_CALL_MS, channel, dispatch(host.app.handlers, channel, input, host.log))) as Record<
          string,
          unknown
        >;
        expect(Object.keys(answer).length, channel).toBe(1);
        if ('error' in answer) {
          const problem = unclearError(answer.error);
          if (problem) expect(problem, `${channel} ${describe(input)}`).toBeNull();
          const kind = (answer.error as { kind: string }).kind;
          outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
          if (kind !== 'Invalid') reached.add(channel);
        } else {
          expect(answer).toHaveProperty('result');
          outcomes.set('result', (outcomes.get('result') ?? 0) + 1);
          reached.add(channel);
        }
        if (RESETS.has(channel)) await dispatch(host.app.handlers, 'workspace:openDemo', {});
      },
    ),
    { seed: SEED, numRuns: 3_000, endOnFailure: true },
  );

  // Unknown channels and hostile channel names.
  for (const name of [
    '',
    'no:such',
    '__proto__',
    'constructor',
    'toString',
    'workspace:state\u0000',
    'x'.repeat(100_000),
    42,
    null,
    { toString: 'workspace:state' },
  ]) {
    const answer = (await dispatch(host.app.handlers, name, {})) as { error?: unknown };
    expect(unclearError(answer.error), describe(name).slice(0, 40)).toBeNull();
    cases++;
  }

  test.info().annotations.push({
    type: 'fuzz',
    description: `${cases} cases in ${Date.now() - started} ms, seed ${SEED}; outcomes ${JSON.stringify(Object.fromEntries(outcomes))}; ${reached.size} channels reached their handler`,
  });
  expect(cases).toBeGreaterThanOrEqual(3_000);
  // The nearly-valid inputs get past the schemas into the handlers, not only into refusals.
  expect(outcomes.get('result') ?? 0).toBeGreaterThan(100);
  expect(reached.size).toBeGreaterThan(channelNames.length / 3);
  // And the console still works afterwards.
  await dispatch(host.app.handlers, 'workspace:openDemo', {});
  expect(await dispatch(host.app.handlers, 'workspace:state', {})).toMatchObject({ result: { signedIn: true } });
  expect(rejections).toEqual([]);
});

test('the web transport answers malformed HTTP bridge calls with clear errors and keeps serving', async () => {
  test.setTimeout(420_000);
  // Sign in as the browser would: the launch URL sets the secret cookie.
  const first = await fetch(host.url, { redirect: 'manual' });
  expect(first.status).toBe(303);
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0]!;
  const origin = host.origin;
  let cases = 0;

  const body = fc.oneof(
    anyValue.map((v) => JSON.stringify(loopbackOnly(v), (_k, x: unknown) => (typeof x === 'bigint' ? String(x) : x)) ?? 'null'),
    fc.string({ maxLength: 200 }),
    fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b).toString('latin1')),
    fc.constantFrom('{', '{"a":', '[1,2', '\u0000', 'null', '"x"', '{"__proto__":{"polluted":1}}', ''),
    fc.integer({ min: 1_100_000, max: 1_300_000 }).map((n) => '"' + 'x'.repeat(n) + '"'),
  );
  const channel = fc.oneof(
    fc.constantFrom(...CHANNEL_NAMES),
    fc.string({ maxLength: 30 }).map((s) => encodeURIComponent(s)),
    fc.constantFrom('%E0%A4%A', '%', '%zz', '..%2f..%2fpackage.json', 'app%3Astate%00', '%5F%5Fproto%5F%5F', 'x'.repeat(5000)),
  );
  const contentType = fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    '',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
  );

  await checkAll(
    fc.asyncProperty(channel, body, contentType, async (c, b, ct) => {
      cases++;
      const res = await within(
        PER_CALL_MS,
        `POST ${c.slice(0, 40)}`,
        fetch(`${origin}${WEB_BRIDGE_PATH}${c}`, {
          method: 'POST',
          headers: { cookie, ...(ct ? { 'content-type': ct } : {}) },
          body: b,
        }),
      );
      expect([200, 400, 404, 413, 415], `${c.slice(0, 40)} ${ct}`).toContain(res.status);
      const text = await res.text();
      if (res.status === 404) return; // a path the host does not serve at all
      const answer = JSON.parse(text) as Record<string, unknown>;
      if ('error' in answer) expect(unclearError(answer.error)).toBeNull();
      else expect(res.status).toBe(200);
    }),
    { seed: SEED, numRuns: 1_200, endOnFailure: true },
  );
  expect(cases).toBeGreaterThanOrEqual(1_200);
  // Still serving, still refusing strangers.
  const state = await fetch(`${origin}${WEB_BRIDGE_PATH}workspace:state`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(await state.json()).toMatchObject({ result: { locale: 'en-US' } });
  expect(
    (
      await fetch(`${origin}${WEB_BRIDGE_PATH}workspace:state`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
    ).status,
  ).toBe(403);
  expect(rejections).toEqual([]);
});
