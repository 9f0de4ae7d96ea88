import { test, expect } from '@playwright/test';
import type { Spec } from '../../../src-standin/fields';
import { compileConditions, runQuery, QueryError, type Rec, type Resolver } from '../../../src-standin/query-engine';
import type { Condition } from '../../../src-shared/query';

// A small resource with every kind of field: scalars, a nested object, an array and a reference.
const GROUP: Spec = { id: 'int', name: 'string' };
const SPEC: Spec = {
  id: 'int',
  name: 'string',
  status: 'string',
  score: 'int',
  vip: 'boolean',
  createdAt: 'date',
  note: 'string',
  address: { kind: 'object', fields: () => ({ city: 'string', zip: 'string' }) },
  tags: { kind: 'array', of: { kind: 'object', fields: () => ({ name: 'string' }) } },
  group: { kind: 'ref', collection: 'group', fields: () => GROUP },
};
const groups = new Map<number, Rec>([
  [1, { id: 1, name: 'Financeiro' }],
  [2, { id: 2, name: 'Suporte Técnico' }],
]);
const resolve: Resolver = (_c, id) => groups.get(Number(id));

const ROWS: Rec[] = [
  {
    id: 1,
    name: 'Ana Souza',
    status: 'OPEN',
    score: 10,
    vip: true,
    createdAt: '2024-05-01T10:00:00.000Z',
    note: null,
    address: { city: 'São Paulo' },
    tags: [{ name: 'boleto' }],
    group: { id: 1 },
  },
  {
    id: 2,
    name: 'Bruno Lima',
    status: 'CLOSED',
    score: 7,
    vip: false,
    createdAt: '2024-05-02T10:00:00.000Z',
    note: '50% off',
    address: { city: 'Curitiba' },
    tags: [],
    group: { id: 2 },
  },
  {
    id: 3,
    name: 'carla mendes',
    status: 'OPEN',
    score: 3,
    vip: false,
    createdAt: '2024-05-03T10:00:00.000Z',
    note: 'a_b',
    address: null,
    tags: [{ name: 'troca' }, { name: 'boleto' }],
    group: { id: 2 },
  },
  { id: 7, name: 'Diego', status: 'OPEN', score: 9, createdAt: '2024-05-04T10:00:00Z', address: { city: 'Recife' }, tags: [], group: null },
];

const ids = (conditions: Condition[]): number[] => {
  const p = compileConditions(conditions, SPEC, resolve);
  return ROWS.filter(p).map((r) => Number(r.id));
};
const leaf = (key: string, operator: string, value?: string): Condition => ({ key, operator, ...(value !== undefined ? { value } : {}) });

test('each of the 14 operators filters as documented', () => {
  expect(ids([leaf('status', 'EQ', 'OPEN')])).toEqual([1, 3, 7]);
  expect(ids([leaf('status', 'NEQ', 'OPEN')])).toEqual([2]);
  expect(ids([leaf('score', 'EQNUM', '7')])).toEqual([2]);
  expect(ids([leaf('score', 'EQNUM', '7.0')])).toEqual([2]);
  expect(ids([leaf('score', 'NEQNUM', '7')])).toEqual([1, 3, 7]);
  expect(ids([leaf('vip', 'IS_TRUE')])).toEqual([1]);
  // IS_FALSE matches false only: a missing flag is neither true nor false.
  expect(ids([leaf('vip', 'IS_FALSE')])).toEqual([2, 3]);
  expect(ids([leaf('name', 'LIKE', '%SOUZA')])).toEqual([1]);
  expect(ids([leaf('name', 'LIKE', 'c_rla%')])).toEqual([3]);
  expect(ids([leaf('note', 'LIKE', '50%')])).toEqual([2]);
  expect(ids([leaf('name', 'NOT_LIKE', '%a%')])).toEqual([7]);
  expect(ids([leaf('id', 'IN', '1, 3,99')])).toEqual([1, 3]);
  expect(ids([leaf('status', 'NOT_IN', 'CLOSED,PAUSED')])).toEqual([1, 3, 7]);
  expect(ids([leaf('note', 'IS_NULL')])).toEqual([1, 7]);
  expect(ids([leaf('note', 'NOT_NULL')])).toEqual([2, 3]);
  expect(ids([leaf('createdAt', 'BEFORE', '2024-05-02T10:00:00Z')])).toEqual([1]);
  expect(ids([leaf('createdAt', 'AFTER', '2024-05-02T10:00:00-00:00')])).toEqual([3, 7]);
  expect(ids([leaf('createdAt', 'AFTER', '2024-05-03')])).toEqual([3, 7]);
});

test('EQ compares as strings, so EQ "7" matches id 7 and EQ "07" does not; EQNUM compares numbers', () => {
  expect(ids([leaf('id', 'EQ', '7')])).toEqual([7]);
  expect(ids([leaf('id', 'EQ', '07')])).toEqual([]);
  expect(ids([leaf('id', 'EQNUM', '07')])).toEqual([7]);
  expect(ids([leaf('vip', 'EQ', 'true')])).toEqual([1]);
});

test('LIKE escapes regular-expression characters and is case-insensitive', () => {
  expect(ids([leaf('note', 'LIKE', 'a_b')])).toEqual([3]);
  expect(ids([leaf('note', 'LIKE', '50\\%%')])).toEqual([]);
  expect(ids([leaf('name', 'LIKE', 'CARLA MENDES')])).toEqual([3]);
  expect(ids([leaf('name', 'LIKE', '.*')])).toEqual([]);
});

test('dotted keys reach nested objects, arrays and references', () => {
  expect(ids([leaf('address.city', 'EQ', 'Curitiba')])).toEqual([2]);
  expect(ids([leaf('group.id', 'EQNUM', '2')])).toEqual([2, 3]);
  expect(ids([leaf('group.name', 'LIKE', 'suporte%')])).toEqual([2, 3]);
  expect(ids([leaf('group', 'IS_NULL')])).toEqual([7]);
  expect(ids([leaf('tags.name', 'EQ', 'boleto')])).toEqual([1, 3]);
  // A negated operator over an array holds when no element matches.
  expect(ids([leaf('tags.name', 'NEQ', 'boleto')])).toEqual([2, 7]);
  expect(ids([leaf('tags.name', 'IS_NULL')])).toEqual([2, 7]);
});

test('logic chains with AND binding tighter than OR; nested and/or/conditions groups', () => {
  // status=CLOSED OR (score>... emulated) : CLOSED OR (OPEN AND vip)
  expect(
    ids([leaf('status', 'EQ', 'CLOSED'), { ...leaf('status', 'EQ', 'OPEN'), logic: 'OR' }, { ...leaf('vip', 'IS_TRUE'), logic: 'AND' }]),
  ).toEqual([1, 2]);
  expect(ids([leaf('status', 'EQ', 'OPEN'), { ...leaf('score', 'EQNUM', '7'), logic: 'OR' }])).toEqual([1, 2, 3, 7]);
  expect(ids([{ or: [leaf('id', 'EQNUM', '1'), leaf('id', 'EQNUM', '2')] }])).toEqual([1, 2]);
  expect(ids([{ and: [leaf('status', 'EQ', 'OPEN'), leaf('score', 'EQNUM', '3')] }])).toEqual([3]);
  expect(
    ids([
      leaf('status', 'EQ', 'OPEN'),
      { logic: 'AND', conditions: [leaf('id', 'EQNUM', '1'), { ...leaf('id', 'EQNUM', '7'), logic: 'OR' }] },
    ]),
  ).toEqual([1, 7]);
  expect(
    ids([{ or: [{ and: [leaf('vip', 'IS_FALSE'), leaf('score', 'EQNUM', '3')] }, { conditions: [leaf('id', 'EQNUM', '7')] }] }]),
  ).toEqual([3, 7]);
  expect(ids([])).toEqual([1, 2, 3, 7]);
});

test('unknown keys, operators and bad values are refused with an error code', () => {
  const code = (conditions: Condition[]): string => {
    try {
      compileConditions(conditions, SPEC, resolve);
      return 'accepted';
    } catch (e) {
      return e instanceof QueryError ? e.errorCode : 'other';
    }
  };
  expect(code([leaf('nope', 'EQ', 'x')])).toBe('UNKNOWN_KEY');
  expect(code([leaf('address.country', 'EQ', 'x')])).toBe('UNKNOWN_KEY');
  expect(code([leaf('group.nope', 'EQ', 'x')])).toBe('UNKNOWN_KEY');
  expect(code([leaf('status', 'GT', 'x')])).toBe('UNKNOWN_OPERATOR');
  expect(code([{ key: 'status', value: 'x' }])).toBe('UNKNOWN_OPERATOR');
  expect(code([leaf('score', 'EQNUM', 'abc')])).toBe('INVALID_VALUE');
  expect(code([leaf('createdAt', 'BEFORE', 'yesterday')])).toBe('INVALID_VALUE');
  expect(code([leaf('status', 'EQ')])).toBe('MISSING_VALUE');
  expect(code([leaf('address', 'EQ', 'x')])).toBe('INVALID_KEY');
  expect(code([{}])).toBe('INVALID_QUERY');
  expect(code([{ or: [leaf('x.y', 'EQ', '1')] }])).toBe('UNKNOWN_KEY');
});

test('sorting by a dotted column, ASC by default, nulls last, stable ties', () => {
  const run = (sortColumn: string, direction?: 'ASC' | 'DESC') =>
    runQuery(ROWS, { conditions: [], sort: true, sortColumn, direction }, { spec: SPEC, resolve }).results.map((r) => r.id);
  expect(run('score')).toEqual([3, 2, 7, 1]);
  expect(run('score', 'DESC')).toEqual([1, 7, 2, 3]);
  expect(run('address.city')).toEqual([2, 7, 1, 3]);
  expect(run('address.city', 'DESC')).toEqual([1, 7, 2, 3]);
  expect(run('status')).toEqual([2, 1, 3, 7]);
  expect(run('group.name')).toEqual([1, 2, 3, 7]);
  expect(() => run('tags.name')).toThrow(QueryError);
  expect(() => run('nope')).toThrow(QueryError);
});

test('paging is 0-based with default size 20, a cap of 500, a short last page and an empty page past the end', () => {
  const many: Rec[] = Array.from({ length: 1234 }, (_, i) => ({ id: i + 1, score: i % 10 }));
  const q = (page?: number, size?: number) =>
    runQuery(many, { conditions: [], sort: true, sortColumn: 'id', page, size }, { spec: SPEC, resolve });
  const first = q();
  expect(first.size).toBe(20);
  expect(first.results.map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  const capped = q(0, 10_000);
  expect(capped.size).toBe(500);
  expect(capped.results).toHaveLength(500);
  const last = q(2, 500);
  expect(last.results).toHaveLength(234);
  expect(last.results[0]!.id).toBe(1001);
  expect(q(3, 500).results).toEqual([]);
  expect(q(61, 20).results.map((r) => r.id)).toEqual([1221, 1222, 1223, 1224, 1225, 1226, 1227, 1228, 1229, 1230, 1231, 1232, 1233, 1234]);
});

test('the partial sort used for early pages orders exactly like a full sort', () => {
  // 5,000 rows with many equal keys: early pages take the bounded-buffer path, late ones the full sort.
  const many: Rec[] = Array.from({ length: 5000 }, (_, i) => ({
    id: i + 1,
    score: (i * 7919) % 13,
    name: i % 3 === 0 ? null : `n${(i * 31) % 97}`,
  }));
  const full = [...many]
    .sort((a, b) => {
      const an = a.name == null,
        bn = b.name == null;
      if (an || bn) return an && bn ? Number(a.id) - Number(b.id) : an ? 1 : -1;
      return String(b.name).localeCompare(String(a.name), 'en') || Number(a.id) - Number(b.id);
    })
    .map((r) => r.id);
  for (const page of [0, 1, 7, 30]) {
    const got = runQuery(
      many,
      { conditions: [], sort: true, sortColumn: 'name', direction: 'DESC', page, size: 50 },
      { spec: SPEC, resolve },
    ).results.map((r) => r.id);
    expect(got).toEqual(full.slice(page * 50, page * 50 + 50));
  }
});

test('filtering through a reference by semi-join answers exactly like reading through it', () => {
  const scan = () => groups.values();
  for (const c of [
    leaf('group.name', 'EQ', 'Financeiro'),
    leaf('group.name', 'NEQ', 'Financeiro'),
    leaf('group.name', 'IS_NULL'),
    leaf('group.name', 'NOT_NULL'),
    leaf('group.name', 'NOT_LIKE', '%sup%'),
    leaf('group.name', 'NOT_IN', 'Financeiro,X'),
  ]) {
    const joined = ROWS.filter(compileConditions([c], SPEC, resolve, scan)).map((r) => r.id);
    const read = ROWS.filter(compileConditions([c], SPEC, resolve)).map((r) => r.id);
    expect(joined, `${c.key} ${c.operator}`).toEqual(read);
  }
  // A row whose group is missing reads as null: NEQ holds for it, EQ does not.
  expect(ROWS.filter(compileConditions([leaf('group.name', 'NEQ', 'Financeiro')], SPEC, resolve, scan)).map((r) => r.id)).toEqual([
    2, 3, 7,
  ]);
});
