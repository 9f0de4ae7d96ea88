import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import type { z } from 'zod';
import { readRecord } from '../../../src-shared/envelopes';
import { RESOURCES, RESOURCE_KEYS, V2_OPS } from '../../../src-shared/paths';
import { readDirectly, readingOwned } from '../../../src-shared/schemas/common';
import { GroupConfigurationSchema, MessageSchema, SessionSchema } from '../../../src-shared/schemas/index';
import { RESOURCE_SCHEMAS } from '../../../src-shared/schemas/resources';
import {
  ABSENT_ENCODINGS,
  BOOL_ENCODINGS,
  DATE_ENCODINGS,
  EMPTY_LIST_ENCODINGS,
  INT_ENCODINGS,
  encodeWith,
  type Encoding,
} from '../../../src-standin/encodings';
import { SPECS, type CollectionName, type Spec } from '../../../src-standin/fields';
import { startStandin, type Standin } from '../../../src-standin/index';
import { standinClient } from '../../../src-standin/test-client';

/**
 * Records are read directly, field by field in one loop (src-shared/schemas/common.ts), and zod
 * parses only what that loop cannot take. Both must give one outcome for every record: the same
 * record read, or the same refusal with the same field and reason. Held here over every record
 * kind the stand-in serves, in every encoding and random mixes of them, and over records with
 * fields replaced by anything JSON can carry (numbers beyond 2^53, digits, words, nested junk).
 */

type Rec = Record<string, unknown>;
interface Kind {
  name: string;
  schema: z.ZodType;
  spec: Spec;
  records: Rec[];
}

let sb: Standin;
const kinds: Kind[] = [];

/** A record read by zod alone, directly as a copy, or directly where it is (a page's own records). */
type Way = 'zod' | 'copy' | 'owned';

function outcome(schema: z.ZodType, name: string, raw: unknown, way: Way): unknown {
  readDirectly(way !== 'zod');
  try {
    // The owned read writes into what it reads: it gets a copy of its own, as a page's records are.
    const got = way === 'owned' ? readingOwned(() => readRecord(schema, structuredClone(raw), name)) : readRecord(schema, raw, name);
    return got.ok ? { record: got.record } : { skip: got.skip };
  } finally {
    readDirectly(true);
  }
}

/** Every object's keys in order, at every depth. */
function keyOrder(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(keyOrder);
  if (v === null || typeof v !== 'object') return null;
  return Object.entries(v).map(([k, x]) => [k, keyOrder(x)]);
}

function expectOneOutcome(kind: Kind, raw: unknown, label: string): void {
  const zodOnly = outcome(kind.schema, kind.name, raw, 'zod');
  const what = `${kind.name} ${label}: ${JSON.stringify(raw).slice(0, 400)}`;
  for (const way of ['copy', 'owned'] as const) {
    const direct = outcome(kind.schema, kind.name, raw, way);
    expect(direct, `${way}: ${what}`).toStrictEqual(zodOnly);
    // The fields in the same order too: what lists a record's fields (the explorer's columns) follows it.
    expect(keyOrder(direct), `${way}: ${what}`).toEqual(keyOrder(zodOnly));
  }
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  sb = await startStandin({ port: 0, sessions: 120, seed: 41, anchorTime: '2026-11-23T12:00:00Z' });
  const api = standinClient(sb.baseUrl, sb.tokens.admin);
  const list = async (path: string, size: number, byId: boolean): Promise<Rec[]> => {
    const order = byId ? { sort: true, sortColumn: 'id', direction: 'DESC' } : { sort: false };
    const r = await api.v2(path, { conditions: [], ...order, page: 0, size });
    expect(r.status, `${path}: ${r.text}`).toBe(200);
    return r.json<{ results: Rec[] }>().results;
  };
  const sessions = await list(RESOURCES.userSession.list, 40, true);
  const groups: Rec[] = [];
  for (const id of new Set(sessions.map((s) => (s.groupConf as Rec).id))) {
    const r = await api.v2(V2_OPS.groupsUnique, { conditions: [{ key: 'id', operator: 'EQNUM', value: String(id) }], sort: false });
    groups.push(r.json<Rec>());
  }
  kinds.push(
    { name: 'userSession', schema: SessionSchema, spec: SPECS.userSession, records: sessions },
    { name: 'message', schema: MessageSchema, spec: SPECS.message, records: await list(RESOURCES.message.list, 40, true) },
    { name: 'group', schema: GroupConfigurationSchema, spec: SPECS.group, records: groups },
  );
  const covered = new Set(kinds.map((k) => k.name));
  for (const key of RESOURCE_KEYS) {
    const path = RESOURCES[key].list;
    if (!path || covered.has(key)) continue;
    const spec = SPECS[key as CollectionName];
    kinds.push({ name: key, schema: RESOURCE_SCHEMAS[key], spec, records: await list(path, 10, 'id' in spec) });
  }
  for (const k of kinds) expect(k.records.length, k.name).toBeGreaterThan(0);
});

test.afterAll(async () => {
  await sb?.close();
});

test('every record kind, in every encoding, reads the same directly as through zod', () => {
  const encodings: Encoding[] = [];
  for (const int of INT_ENCODINGS)
    for (const date of DATE_ENCODINGS)
      for (const bool of BOOL_ENCODINGS)
        for (const absent of ABSENT_ENCODINGS)
          for (const emptyList of EMPTY_LIST_ENCODINGS) encodings.push({ int, date, bool, absent, emptyList });
  let compared = 0;
  for (const kind of kinds)
    for (const raw of kind.records)
      for (const how of encodings.filter((_, i) => i % 7 === compared % 7)) {
        expectOneOutcome(
          kind,
          encodeWith(kind.spec, raw, () => how),
          JSON.stringify(how),
        );
        compared++;
      }
  expect(compared).toBeGreaterThan(500);
});

/** Values a server may put where a field is expected, the odd ones most of all. */
const oddValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    2 ** 60,
    -(2 ** 60),
    '9007199254740993',
    ' 42 ',
    '',
    '  ',
    'TRUE',
    ' false',
    '2026-02-30T10:00:00.000Z',
    '2026-11-23 10:00',
    '1764000000',
    1764000000123,
    -0,
    0.5,
    Number.MAX_SAFE_INTEGER,
    [],
    [null],
    [{ id: '9007199254740993' }],
    { id: 2 ** 60 },
    { id: '12' },
    {},
    null,
    true,
  ),
);

/** A path into a record, to a field it has or one it could have. */
function pathsOf(v: unknown, prefix: string[] = [], out: string[][] = []): string[][] {
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && prefix.length < 4)
    for (const [k, x] of Object.entries(v)) {
      out.push([...prefix, k]);
      pathsOf(x, [...prefix, k], out);
    }
  return out;
}

function replaced(raw: Rec, path: string[], value: unknown): Rec {
  const copy = structuredClone(raw);
  let at: Rec = copy;
  for (const k of path.slice(0, -1)) at = at[k] as Rec;
  const last = path[path.length - 1]!;
  if (value === undefined) delete at[last];
  else at[last] = value;
  return copy;
}

test('records with fields replaced by anything read the same directly as through zod', () => {
  const cases = fc.record({
    kind: fc.nat({ max: kinds.length - 1 }),
    record: fc.nat(),
    changes: fc.array(fc.tuple(fc.nat(), fc.oneof(oddValue, fc.constant(undefined))), { minLength: 1, maxLength: 4 }),
  });
  fc.assert(
    fc.property(cases, ({ kind: k, record, changes }) => {
      const kind = kinds[k]!;
      let raw = kind.records[record % kind.records.length]!;
      for (const [at, value] of changes) {
        const paths = pathsOf(raw);
        if (paths.length) raw = replaced(raw, paths[at % paths.length]!, value);
      }
      expectOneOutcome(kind, raw, 'changed');
    }),
    { numRuns: 3000, seed: 20261126 },
  );
});

test('what is not a record at all is refused alike', () => {
  for (const kind of kinds) for (const raw of [null, 7, 'x', [], [{ id: 1 }], true]) expectOneOutcome(kind, raw, 'not a record');
});
