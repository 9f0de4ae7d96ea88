/**
 * The query engine of the v2 list operations (interface §2.1, semantics in DESIGN.md §2 and
 * src-standin/README.md). Pure: it sees records, a field spec and a resolver for references,
 * never the HTTP layer or the store. Conditions are compiled once per request into closures so a
 * filtered, sorted page over 100,000 sessions stays well under the 50 ms budget.
 */
import { DEFAULT_PAGE_SIZE, OPERATORS, STANDIN_MAX_PAGE_SIZE, type Condition, type Operator } from '../src-shared/query';
import type { CollectionName, FieldType, Spec } from './fields';
import { likeMatcher } from './like';
import { scalarText } from './scalar';

export type Rec = Record<string, unknown>;
export type Resolver = (collection: CollectionName, id: unknown) => Rec | undefined;

export class QueryError extends Error {
  constructor(
    message: string,
    readonly errorCode: string,
  ) {
    super(message);
  }
}

export interface Getter {
  get: (rec: Rec) => unknown;
  /** `ref.field` paths (one reference, then a plain field): filterable by a semi-join. */
  join: { refField: string; collection: CollectionName; field: string } | null;
  /** Reading needs a reference lookup per record. */
  derefs: boolean;
  /** The path crosses an array: `get` returns every value found. */
  multi: boolean;
  type: FieldType;
}

interface Step {
  name: string;
  /** The value reached so far is a stored reference `{id}` to resolve before reading `name`. */
  deref: CollectionName | null;
  /** The value reached so far is an array: apply the rest to each element. */
  spread: boolean;
}

const isObjectType = (t: FieldType): t is Exclude<FieldType, string> => typeof t !== 'string';

/** Where a path goes after a field of type `t`: into a reference, an array's elements, an object's fields. */
function stepInto(t: FieldType): { ref: CollectionName | null; spread: boolean; fields: Spec | null } {
  let inner: FieldType = t;
  let spread = false;
  if (isObjectType(inner) && inner.kind === 'array') {
    spread = true;
    inner = inner.of;
  }
  if (!isObjectType(inner)) return { ref: null, spread, fields: null };
  return {
    ref: inner.kind === 'ref' ? inner.collection : null,
    spread,
    fields: inner.kind === 'ref' || inner.kind === 'object' ? inner.fields() : null,
  };
}

/** A `ref.field` path (one reference, then a plain single field) can be filtered by a semi-join. */
function joinOf(steps: Step[], spec: Spec, type: FieldType, multi: boolean): Getter['join'] {
  const [s0, s1] = steps;
  if (multi || steps.length !== 2 || !s0 || !s1?.deref || isObjectType(type)) return null;
  const refType = spec[s0.name];
  if (!refType || !isObjectType(refType) || refType.kind !== 'ref') return null;
  return { refField: s0.name, collection: refType.collection, field: s1.name };
}

/** Validates a dotted key against the spec and builds its reader. */
export function compileKey(key: string, spec: Spec, resolve: Resolver): Getter {
  if (key.length === 0) throw new QueryError('A condition key is empty.', 'UNKNOWN_KEY');
  const parts = key.split('.');
  const steps: Step[] = [];
  let at: ReturnType<typeof stepInto> = { ref: null, spread: false, fields: spec };
  let type: FieldType = 'any';
  let multi = false;
  for (const [i, name] of parts.entries()) {
    const t: FieldType | undefined = at.fields && Object.hasOwn(at.fields, name) ? at.fields[name] : undefined;
    if (!t)
      throw new QueryError(`Unknown key "${key}": "${parts.slice(0, i + 1).join('.')}" is not a field of this resource.`, 'UNKNOWN_KEY');
    // Reading `id` of a reference needs no lookup: the stored `{id}` already holds it.
    steps.push({ name, deref: name === 'id' ? null : at.ref, spread: at.spread });
    if (at.spread) multi = true;
    type = t;
    at = stepInto(t);
  }
  if (isObjectType(type) && type.kind === 'array') multi = true;
  const derefs = steps.some((s) => s.deref);
  const join = joinOf(steps, spec, type, multi);
  return { get: multi ? multiReader(steps, resolve) : singleReader(steps, resolve), multi, type, join, derefs };
}

/**
 * A reader with the field names written into its own code. A shared closure doing `rec[name]`
 * sees every name and record shape of every query and its property cache goes megamorphic;
 * a generated function per key keeps one cache per key, several times faster on 100k rows.
 * Names come from the field spec (validated above), never from the request as such.
 */
function plainReader(names: string[]): (rec: Rec) => unknown {
  let body = 'let v = rec;';
  for (const n of names) body += ` if (v == null) return undefined; v = v[${JSON.stringify(n)}];`;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the one compiled reader (above): names from the stand-in's own field spec, JSON-encoded
  return new Function('rec', `${body} return v;`) as (rec: Rec) => unknown;
}

function singleReader(steps: Step[], resolve: Resolver): (rec: Rec) => unknown {
  if (steps.every((s) => !s.deref)) return plainReader(steps.map((s) => s.name));
  return (rec) => {
    let cur: unknown = rec;
    for (const s of steps) {
      if (cur == null || typeof cur !== 'object') return undefined;
      if (s.deref) {
        cur = resolve(s.deref, (cur as Rec).id);
        if (cur == null) return undefined;
      }
      cur = (cur as Rec)[s.name];
    }
    return cur;
  };
}

function multiReader(steps: Step[], resolve: Resolver): (rec: Rec) => unknown[] {
  const walk = (cur: unknown, i: number, out: unknown[]): void => {
    if (i === steps.length) {
      if (Array.isArray(cur)) out.push(...(cur as unknown[]));
      else out.push(cur);
      return;
    }
    if (cur == null || typeof cur !== 'object') return;
    const s = steps[i] as Step;
    if (s.spread && Array.isArray(cur)) {
      for (const el of cur) walk(el, i, out);
      return;
    }
    let target: unknown = cur;
    if (s.deref) target = resolve(s.deref, (cur as Rec).id);
    if (target == null || typeof target !== 'object') return;
    walk((target as Rec)[s.name], i + 1, out);
  };
  return (rec) => {
    const out: unknown[] = [];
    walk(rec, 0, out);
    return out;
  };
}

type Test = (v: unknown) => boolean;
export type Predicate = (rec: Rec) => boolean;

/** What the stand-in stores: `YYYY-MM-DDTHH:mm:ss.sssZ`, which orders correctly as text. */
const isCanonicalDate = (v: string): boolean => v.length === 24 && v.charCodeAt(23) === 90 && v.charCodeAt(10) === 84;

/** Milliseconds of a date-time field, or NaN. Canonical ISO strings (what the stand-in stores) compare fast. */
function dateMs(v: unknown): number {
  if (typeof v === 'string') return Date.parse(v);
  if (typeof v === 'number') return v;
  return NaN;
}

function requireValue(c: Condition, op: string): string {
  if (typeof c.value !== 'string') throw new QueryError(`Operator ${op} on "${c.key}" needs a value.`, 'MISSING_VALUE');
  return c.value;
}

/** Builds the test of one operator on one (already read) field value. Negations are the exact complement. */
function operatorTest(op: Operator, c: Condition): Test {
  switch (op) {
    case 'EQ': {
      const value = requireValue(c, op);
      // String equality even on numbers and booleans: EQ "7" matches id 7, EQ "07" does not.
      return (v) => scalarText(v) === value;
    }
    case 'NEQ': {
      const eq = operatorTest('EQ', c);
      return (v) => !eq(v);
    }
    case 'EQNUM': {
      const n = Number(requireValue(c, op));
      if (c.value!.trim() === '' || !Number.isFinite(n))
        throw new QueryError(`EQNUM on "${c.key}" needs a number, got "${c.value}".`, 'INVALID_VALUE');
      return (v) => (typeof v === 'number' ? v === n : typeof v === 'string' && v.trim() !== '' && Number(v) === n);
    }
    case 'NEQNUM': {
      const eq = operatorTest('EQNUM', c);
      return (v) => !eq(v);
    }
    case 'IS_TRUE':
      return (v) => v === true;
    case 'IS_FALSE':
      return (v) => v === false;
    case 'LIKE': {
      const matches = likeMatcher(requireValue(c, op));
      return (v) => {
        const t = scalarText(v);
        return t !== null && matches(t);
      };
    }
    case 'NOT_LIKE': {
      const like = operatorTest('LIKE', c);
      return (v) => !like(v);
    }
    case 'IN': {
      const set = new Set(
        requireValue(c, op)
          .split(',')
          .map((s) => s.trim()),
      );
      return (v) => {
        const t = scalarText(v);
        return t !== null && set.has(t);
      };
    }
    case 'NOT_IN': {
      const inn = operatorTest('IN', c);
      return (v) => !inn(v);
    }
    case 'IS_NULL':
      return (v) => v == null;
    case 'NOT_NULL':
      return (v) => v != null;
    case 'BEFORE':
    case 'AFTER': {
      const raw = requireValue(c, op);
      const ms = Date.parse(raw);
      if (Number.isNaN(ms)) throw new QueryError(`${op} on "${c.key}" needs a date-time, got "${raw}".`, 'INVALID_VALUE');
      const iso = new Date(ms).toISOString();
      const before = op === 'BEFORE';
      return (v) => {
        if (typeof v === 'string' && isCanonicalDate(v)) return before ? v < iso : v > iso;
        const t = dateMs(v);
        if (Number.isNaN(t)) return false;
        return before ? t < ms : t > ms;
      };
    }
  }
}

const NEGATED: ReadonlySet<Operator> = new Set(['NEQ', 'NEQNUM', 'NOT_LIKE', 'NOT_IN']);
const VALUE_OPERATORS: ReadonlySet<Operator> = new Set([
  'EQ',
  'NEQ',
  'EQNUM',
  'NEQNUM',
  'LIKE',
  'NOT_LIKE',
  'IN',
  'NOT_IN',
  'BEFORE',
  'AFTER',
  'IS_TRUE',
  'IS_FALSE',
]);

interface Env {
  spec: Spec;
  resolve: Resolver;
  /** Every record of a collection, for semi-joins through references. */
  scan?: ((collection: CollectionName) => Iterable<Rec>) | undefined;
}

/** A predicate and a rough cost, so cheap tests run first inside an AND. */
type Costed = [Predicate, number];

function compileLeaf(c: Condition, env: Env): Costed {
  const { spec, resolve } = env;
  const key = c.key as string;
  if (typeof c.operator !== 'string') throw new QueryError(`The condition on "${key}" has no operator.`, 'UNKNOWN_OPERATOR');
  const op = c.operator.toUpperCase();
  if (!(OPERATORS as readonly string[]).includes(op)) {
    throw new QueryError(`Unknown operator "${c.operator}". Use one of ${OPERATORS.join(', ')}.`, 'UNKNOWN_OPERATOR');
  }
  const operator = op as Operator;
  const getter = compileKey(key, spec, resolve);
  const t = getter.type;
  // Only presence can be asked of a whole object; comparing it to a string says nothing.
  if (isObjectType(t) && t.kind !== 'array' && VALUE_OPERATORS.has(operator)) {
    throw new QueryError(`"${key}" is an object: use a dotted key such as "${key}.id", or IS_NULL / NOT_NULL.`, 'INVALID_KEY');
  }
  if (getter.join && env.scan) {
    // Test each referenced record once, then each row by a set lookup. A row whose reference is
    // missing reads as undefined, which is what `outside` holds.
    const { refField, collection, field } = getter.join;
    const test = operatorTest(operator, c);
    const outside = test(undefined);
    const flipped = new Set<unknown>();
    for (const t of env.scan(collection)) if (test(t[field]) !== outside) flipped.add(t.id);
    return [
      (rec) => {
        const r = rec[refField] as Rec | null | undefined;
        return r != null && flipped.has(r.id) ? !outside : outside;
      },
      1,
    ];
  }
  const cost = getter.derefs ? 2 : getter.multi ? 2 : 0;
  if (!getter.multi) {
    const test = operatorTest(operator, c);
    const get = getter.get;
    return [(rec) => test(get(rec)), cost];
  }
  const get = getter.get as (rec: Rec) => unknown[];
  if (operator === 'IS_NULL') return [(rec) => get(rec).every((v) => v == null), cost];
  if (operator === 'NOT_NULL') return [(rec) => get(rec).some((v) => v != null), cost];
  // Over an array: a positive operator holds when any element matches, a negated one when none does.
  if (NEGATED.has(operator)) {
    const positive = operatorTest(operator.replace('NOT_', '').replace(/^NEQ/, 'EQ') as Operator, c);
    return [(rec) => !get(rec).some(positive), cost];
  }
  const test = operatorTest(operator, c);
  return [(rec) => get(rec).some(test), cost];
}

/** All of them, cheapest first (the tests are pure, so order changes only the speed). */
function allOf(parts: Costed[]): Costed {
  if (parts.length === 1) return parts[0]!;
  const sorted = [...parts].sort((a, b) => a[1] - b[1]).map((p) => p[0]);
  const cost = Math.max(...parts.map((p) => p[1]));
  if (sorted.length === 2) {
    const [a, b] = sorted as [Predicate, Predicate];
    return [(rec) => a(rec) && b(rec), cost];
  }
  if (sorted.length === 3) {
    const [a, b, c] = sorted as [Predicate, Predicate, Predicate];
    return [(rec) => a(rec) && b(rec) && c(rec), cost];
  }
  return [(rec) => sorted.every((p) => p(rec)), cost];
}

function anyOf(parts: Costed[]): Costed {
  if (parts.length === 1) return parts[0]!;
  const ps = parts.map((p) => p[0]);
  return [(rec) => ps.some((p) => p(rec)), Math.max(...parts.map((p) => p[1])) + 1];
}

const ALWAYS: Costed = [() => true, 0];

/** Deepest nesting of and/or/conditions groups, and most conditions in one query, that are answered. */
export const MAX_CONDITION_DEPTH = 32;
export const MAX_CONDITIONS = 1000;

/**
 * Checks the shape of a condition tree before anything recursive reads it (the schema and the
 * compiler both recurse, and a tree thousands deep overflows the stack): iterative, and it stops
 * as soon as a limit is passed, so the cost is bounded by the limits, not by the input.
 */
export function checkConditionTree(conditions: unknown): void {
  const stack: Array<{ list: unknown; depth: number }> = [{ list: conditions, depth: 0 }];
  let count = 0;
  while (stack.length > 0) {
    const { list, depth } = stack.pop()!;
    if (!Array.isArray(list)) continue; // the schema names the wrong type
    if (depth > MAX_CONDITION_DEPTH) {
      throw new QueryError(`Conditions are nested more than ${MAX_CONDITION_DEPTH} levels deep.`, 'INVALID_QUERY');
    }
    count += list.length;
    if (count > MAX_CONDITIONS) throw new QueryError(`A query may hold at most ${MAX_CONDITIONS} conditions.`, 'INVALID_QUERY');
    for (const c of list) {
      if (c === null || typeof c !== 'object') continue;
      const node = c as { and?: unknown; or?: unknown; conditions?: unknown };
      for (const inner of [node.and, node.or, node.conditions]) if (inner !== undefined) stack.push({ list: inner, depth: depth + 1 });
    }
  }
}

function compileNode(c: Condition, env: Env, depth: number): Costed {
  if (depth > MAX_CONDITION_DEPTH)
    throw new QueryError(`Conditions are nested more than ${MAX_CONDITION_DEPTH} levels deep.`, 'INVALID_QUERY');
  const parts: Costed[] = [];
  if (c.key !== undefined) parts.push(compileLeaf(c, env));
  else if (c.operator !== undefined || c.value !== undefined)
    throw new QueryError('A condition has an operator or value but no key.', 'UNKNOWN_KEY');
  if (c.and) parts.push(c.and.length ? allOf(c.and.map((x) => compileNode(x, env, depth + 1))) : ALWAYS);
  if (c.or) parts.push(c.or.length ? anyOf(c.or.map((x) => compileNode(x, env, depth + 1))) : ALWAYS);
  if (c.conditions) parts.push(compileChain(c.conditions, env, depth + 1));
  if (parts.length === 0) throw new QueryError('A condition has neither a key nor a nested and/or/conditions group.', 'INVALID_QUERY');
  return allOf(parts);
}

/**
 * A list of conditions joined by their `logic` (AND by default). AND binds tighter than OR, as in
 * SQL: `a OR b AND c` is `a OR (b AND c)`. An empty list matches everything.
 */
function compileChain(list: Condition[], env: Env, depth: number): Costed {
  if (list.length === 0) return ALWAYS;
  const groups: Costed[][] = [[]];
  list.forEach((c, i) => {
    const p = compileNode(c, env, depth);
    if (i > 0 && c.logic === 'OR') groups.push([p]);
    else (groups[groups.length - 1] as Costed[]).push(p);
  });
  return anyOf(groups.map(allOf));
}

export function compileConditions(
  conditions: Condition[],
  spec: Spec,
  resolve: Resolver,
  scan?: (collection: CollectionName) => Iterable<Rec>,
): Predicate {
  return compileChain(conditions, { spec, resolve, scan }, 0)[0];
}

export interface ListQuery {
  conditions: Condition[];
  sort: boolean;
  direction?: 'ASC' | 'DESC' | undefined;
  sortColumn?: string | undefined;
  page?: number | undefined;
  size?: number | undefined;
}

export interface QueryOptions {
  spec: Spec;
  resolve: Resolver;
  scan?: (collection: CollectionName) => Iterable<Rec>;
  /** Narrows the scan when a top-level AND condition is EQNUM on an indexed key. */
  index?: (key: string, value: number) => Iterable<Rec> | undefined;
  maxSize?: number;
  /**
   * The order of a list that is not sorted (a reading that ignores `sort`): records by this key,
   * ascending. Without it, the collection's own order.
   */
  unsorted?: (rec: Rec) => number;
}

export interface PageResult<T> {
  page: number;
  size: number;
  results: T[];
  total: number;
}

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const sa = String(a),
    sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** Picks the candidate records: the whole collection, or an index hit when one applies. */
function candidates(all: Iterable<Rec>, conditions: Condition[], opts: QueryOptions): Iterable<Rec> {
  if (!opts.index || conditions.some((c, i) => i > 0 && c.logic === 'OR')) return all;
  for (const c of conditions) {
    if (c.key && c.operator?.toUpperCase() === 'EQNUM' && typeof c.value === 'string' && c.value.trim() !== '') {
      const n = Number(c.value);
      if (!Number.isFinite(n)) continue;
      const hit = opts.index(c.key, n);
      if (hit) return hit;
    }
  }
  return all;
}

/** The reader of the sort column, or null when the list is not sorted (or has no id to sort by). */
function sortReader(q: ListQuery, opts: QueryOptions): ((rec: Rec) => unknown) | null {
  if (!q.sort) return null;
  // Without a column, sort by id where the resource has one (composite-key resources keep their order).
  const column = q.sortColumn ?? (Object.hasOwn(opts.spec, 'id') ? 'id' : null);
  if (column === null) return null;
  const g = compileKey(column, opts.spec, opts.resolve);
  if (g.multi || isObjectType(g.type)) throw new QueryError(`Cannot sort by "${column}": it is not a single value.`, 'INVALID_SORT');
  return g.get;
}

/** Nulls last in both directions; ties keep the collection order so paging is stable. */
function rowComparator(keys: unknown[], direction: ListQuery['direction']): (i: number, j: number) => number {
  const sign = direction === 'DESC' ? -1 : 1;
  return (i, j) => {
    const a = keys[i],
      b = keys[j];
    const an = a == null,
      bn = b == null;
    if (an || bn) return an && bn ? i - j : an ? 1 : -1;
    return sign * compareValues(a, b) || i - j;
  };
}

/** The first `need` of `count` rows in order, by a sorted buffer instead of sorting everything. */
function firstInOrder(count: number, need: number, cmp: (i: number, j: number) => number): number[] {
  const order: number[] = [];
  for (let i = 0; i < count; i++) {
    if (order.length === need && cmp(i, order[need - 1] as number) >= 0) continue;
    let lo = 0,
      hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cmp(order[mid] as number, i) <= 0) lo = mid + 1;
      else hi = mid;
    }
    order.splice(lo, 0, i);
    if (order.length > need) order.pop();
  }
  return order;
}

/** Filters, sorts and pages. Throws QueryError for an unknown key, operator or sort column. */
export function runQuery(all: Iterable<Rec>, q: ListQuery, opts: QueryOptions): PageResult<Rec> {
  const predicate = compileConditions(q.conditions, opts.spec, opts.resolve, opts.scan);
  const page = q.page ?? 0;
  const size = Math.min(q.size ?? DEFAULT_PAGE_SIZE, opts.maxSize ?? STANDIN_MAX_PAGE_SIZE);
  const sortGet = sortReader(q, opts);
  const matched: Rec[] = [];
  for (const rec of candidates(all, q.conditions, opts)) if (predicate(rec)) matched.push(rec);
  const start = page * size;
  const pageOf = (rows: Rec[]): PageResult<Rec> => ({ page, size, results: rows, total: matched.length });
  if (!sortGet && opts.unsorted) {
    const key = opts.unsorted;
    const keyed = matched.map((rec, i) => ({ rec, k: key(rec), i }));
    keyed.sort((a, b) => a.k - b.k || a.i - b.i);
    return pageOf(keyed.slice(start, start + size).map((x) => x.rec));
  }
  if (!sortGet) return pageOf(matched.slice(start, start + size));
  if (start >= matched.length) return pageOf([]);
  const cmp = rowComparator(matched.map(sortGet), q.direction);
  const need = start + size;
  // Only the first `need` rows are shown: when they are few, keep a buffer of them.
  const order = need * 8 < matched.length ? firstInOrder(matched.length, need, cmp) : matched.map((_, i) => i).sort(cmp);
  return pageOf(order.slice(start, start + size).map((i) => matched[i] as Rec));
}
