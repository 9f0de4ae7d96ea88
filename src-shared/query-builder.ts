import type { Condition, Logic, LookupBody, Operator, QueryBody } from './query';

/**
 * A typed builder for the shared query body (interface §2.1, DESIGN.md §2). No Node imports:
 * the renderer's explorer uses it too.
 *
 *   query().where('status').eq('OPEN').and('groupConf.id').eqNum(7)
 *     .anyOf((q) => q.where('pending').isTrue().or('lastAgent').isNull())
 *     .sortBy('createdAt', 'DESC').size(100).build()
 *
 * Numeric values go through eqNum/neqNum only: the real service fails EQ on ids, so `eq`
 * refuses numbers and digit-only values on id-like keys.
 */

export type Direction = 'ASC' | 'DESC';
type DateLike = string | Date;

const ID_KEY = /(^|\.)id$|Id$/;

function refuse(message: string): never {
  throw new TypeError(message);
}

function textValue(op: 'EQ' | 'NEQ', key: string, value: unknown): string {
  if (typeof value !== 'string') refuse(`${op} compares text; use ${op === 'EQ' ? 'eqNum' : 'neqNum'} for the number on "${key}".`);
  if (ID_KEY.test(key) && /^-?\d+$/.test(value)) refuse(`"${key}" is numeric; use ${op === 'EQ' ? 'eqNum' : 'neqNum'}(${value}).`);
  return value;
}

function numberValue(key: string, value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) refuse(`EQNUM/NEQNUM on "${key}" needs a finite number.`);
  return String(value);
}

function listValue(key: string, values: ReadonlyArray<string | number>): string {
  if (values.length === 0) refuse(`IN/NOT_IN on "${key}" needs at least one value.`);
  for (const v of values) if (String(v).includes(',')) refuse(`IN/NOT_IN values are comma-separated; "${v}" contains a comma.`);
  return values.map(String).join(',');
}

function dateValue(key: string, value: DateLike): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) refuse(`BEFORE/AFTER on "${key}" got an invalid date.`);
    return value.toISOString();
  }
  return value;
}

/** The operator step after `where(key)`: each method adds one condition and returns the list. */
export class FieldStep<B> {
  readonly #list: B;
  readonly #push: (c: Condition) => void;
  readonly #key: string;
  readonly #logic: Logic | undefined;
  constructor(list: B, push: (c: Condition) => void, key: string, logic: Logic | undefined) {
    this.#list = list;
    this.#push = push;
    this.#key = key;
    this.#logic = logic;
  }

  #add(operator: Operator, value?: string): B {
    const c: Condition = { key: this.#key, operator };
    if (value !== undefined) c.value = value;
    if (this.#logic) c.logic = this.#logic;
    this.#push(c);
    return this.#list;
  }

  eq(value: string): B {
    return this.#add('EQ', textValue('EQ', this.#key, value));
  }
  neq(value: string): B {
    return this.#add('NEQ', textValue('NEQ', this.#key, value));
  }
  eqNum(value: number): B {
    return this.#add('EQNUM', numberValue(this.#key, value));
  }
  neqNum(value: number): B {
    return this.#add('NEQNUM', numberValue(this.#key, value));
  }
  isTrue(): B {
    return this.#add('IS_TRUE');
  }
  isFalse(): B {
    return this.#add('IS_FALSE');
  }
  /** `%` any run, `_` one character; case-insensitive on the stand-in. */
  like(pattern: string): B {
    return this.#add('LIKE', pattern);
  }
  notLike(pattern: string): B {
    return this.#add('NOT_LIKE', pattern);
  }
  in(values: ReadonlyArray<string | number>): B {
    return this.#add('IN', listValue(this.#key, values));
  }
  notIn(values: ReadonlyArray<string | number>): B {
    return this.#add('NOT_IN', listValue(this.#key, values));
  }
  isNull(): B {
    return this.#add('IS_NULL');
  }
  notNull(): B {
    return this.#add('NOT_NULL');
  }
  before(when: DateLike): B {
    return this.#add('BEFORE', dateValue(this.#key, when));
  }
  after(when: DateLike): B {
    return this.#add('AFTER', dateValue(this.#key, when));
  }
}

/** A list of conditions: the top level of a query, or a nested group. */
export class ConditionList {
  protected readonly items: Condition[] = [];

  #step(key: string, logic: Logic | undefined): FieldStep<this> {
    if (!key) refuse('A condition needs a key.');
    return new FieldStep(this, (c) => this.items.push(c), key, logic);
  }

  /** First condition (or one joined with AND). */
  where(key: string): FieldStep<this> {
    return this.#step(key, this.items.length ? 'AND' : undefined);
  }
  and(key: string): FieldStep<this> {
    return this.#step(key, 'AND');
  }
  or(key: string): FieldStep<this> {
    return this.#step(key, 'OR');
  }

  /** A nested group `{conditions:[...]}`, joined to the previous condition with `logic`. */
  group(fill: (g: ConditionList) => unknown, logic: Logic = 'AND'): this {
    return this.#nest('conditions', fill, logic);
  }
  /** `{or:[...]}`: any of the nested conditions. */
  anyOf(fill: (g: ConditionList) => unknown, logic: Logic = 'AND'): this {
    return this.#nest('or', fill, logic);
  }
  /** `{and:[...]}`: all of the nested conditions. */
  allOf(fill: (g: ConditionList) => unknown, logic: Logic = 'AND'): this {
    return this.#nest('and', fill, logic);
  }

  /** Adds a ready-made condition (e.g. one the explorer parsed). */
  raw(condition: Condition): this {
    this.items.push(structuredClone(condition));
    return this;
  }

  #nest(field: 'conditions' | 'or' | 'and', fill: (g: ConditionList) => unknown, logic: Logic): this {
    const inner = new ConditionList();
    fill(inner);
    const nested = inner.conditions();
    if (nested.length === 0) return this;
    const c: Condition = { [field]: nested };
    if (this.items.length) c.logic = logic;
    this.items.push(c);
    return this;
  }

  conditions(): Condition[] {
    return structuredClone(this.items);
  }
}

export class QueryBuilder extends ConditionList {
  #sortColumn: string | undefined;
  #direction: Direction | undefined;
  #pageIndex: number | undefined;
  #pageSize: number | undefined;

  sortBy(column: string, direction: Direction = 'ASC'): this {
    this.#sortColumn = column;
    this.#direction = direction;
    return this;
  }

  page(index: number): this {
    if (!Number.isInteger(index) || index < 0) refuse('page is a 0-based integer.');
    this.#pageIndex = index;
    return this;
  }

  size(n: number): this {
    if (!Number.isInteger(n) || n < 1) refuse('size is a positive integer.');
    this.#pageSize = n;
    return this;
  }

  /** The body of a lookup (groups/unique, nps-summary, user-session/unique): no paging. */
  buildLookup(): LookupBody {
    const body: LookupBody = { conditions: this.conditions(), sort: this.#sortColumn !== undefined };
    if (this.#sortColumn !== undefined) {
      body.sortColumn = this.#sortColumn;
      body.direction = this.#direction ?? 'ASC';
    }
    return body;
  }

  /** The body of a list operation. */
  build(): QueryBody {
    const body: QueryBody = this.buildLookup();
    if (this.#pageIndex !== undefined) body.page = this.#pageIndex;
    if (this.#pageSize !== undefined) body.size = this.#pageSize;
    return body;
  }
}

export const query = (): QueryBuilder => new QueryBuilder();

/** Anything a list call accepts: a builder, or a body (conditions and sort default to none). */
export type QueryInput = QueryBuilder | Partial<QueryBody> | undefined;

export function toQueryBody(input: QueryInput): QueryBody {
  if (input instanceof QueryBuilder) return input.build();
  const body: QueryBody = { conditions: input?.conditions ?? [], sort: input?.sort ?? false };
  if (input?.sortColumn !== undefined) body.sortColumn = input.sortColumn;
  if (input?.direction !== undefined) body.direction = input.direction;
  if (input?.page !== undefined) body.page = input.page;
  if (input?.size !== undefined) body.size = input.size;
  return body;
}

export function toLookupBody(input: QueryBuilder | Partial<LookupBody> | undefined): LookupBody {
  if (input instanceof QueryBuilder) return input.buildLookup();
  const { page: _p, size: _s, ...rest } = toQueryBody(input);
  return rest;
}

// ---- "is one of" without a multi-value IN ----------------------------------------------------------

/** The values of an IN / NOT_IN condition (comma-separated, DESIGN.md §2), trimmed, blanks dropped. */
const inValues = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

function equalities(key: string, values: ReadonlyArray<string | number>, negated: boolean): Condition[] {
  const texts = values.map(String);
  // Numeric ids are compared with the number operators (DESIGN.md §2).
  const numeric = ID_KEY.test(key) && texts.every((v) => /^-?\d+$/.test(v));
  const operator = numeric ? (negated ? 'NEQNUM' : 'EQNUM') : negated ? 'NEQ' : 'EQ';
  return texts.map((value, i) => ({ key, operator, value, ...(i > 0 ? { logic: negated ? 'AND' : 'OR' } : {}) }));
}

/**
 * "`key` is one of `values`" as an OR group of equalities (EQNUM on numeric ids), never a
 * multi-value IN: integrators report servers that answer a multi-value IN with an empty page.
 */
export function oneOf(key: string, values: ReadonlyArray<string | number>, logic?: Logic): Condition {
  if (values.length === 0) refuse(`oneOf on "${key}" needs at least one value.`);
  return { or: equalities(key, values, false), ...(logic ? { logic } : {}) };
}

/**
 * "`key` is the number `value`" (EQNUM) as one condition, for a body written as an object: the
 * one way a numeric equality is written (eslint: one-place/eqnum). Digits are taken as the
 * service writes an int64.
 */
export function eqNum(key: string, value: number | string, logic?: Logic): Condition {
  const v = typeof value === 'number' ? numberValue(key, value) : value.trim();
  if (!/^-?\d+$/.test(v)) refuse(`EQNUM on "${key}" needs an integer; got "${String(value)}".`);
  return { key, operator: 'EQNUM', value: v, ...(logic ? { logic } : {}) };
}

/** "`key` is none of `values`" as an AND group of inequalities, never a multi-value NOT_IN. */
export function noneOf(key: string, values: ReadonlyArray<string | number>, logic?: Logic): Condition {
  if (values.length === 0) refuse(`noneOf on "${key}" needs at least one value.`);
  return { and: equalities(key, values, true), ...(logic ? { logic } : {}) };
}

const isMultiValueIn = (c: Condition): boolean => (c.operator === 'IN' || c.operator === 'NOT_IN') && inValues(c.value).length > 1;

/** Whether the conditions hold an IN or NOT_IN with more than one value, at any depth. */
export function hasMultiValueIn(conditions: readonly Condition[]): boolean {
  return conditions.some((c) => isMultiValueIn(c) || [c.and, c.or, c.conditions].some((g) => !!g && hasMultiValueIn(g)));
}

/** The same conditions with each multi-value IN read as `oneOf` and each NOT_IN as `noneOf`. */
export function splitMultiValueIn(conditions: readonly Condition[]): Condition[] {
  return conditions.map((c) => {
    if (isMultiValueIn(c) && c.key) {
      const split = (c.operator === 'IN' ? oneOf : noneOf)(c.key, inValues(c.value));
      return c.logic ? { ...split, logic: c.logic } : split;
    }
    const out: Condition = { ...c };
    for (const g of ['and', 'or', 'conditions'] as const) {
      const inner = c[g];
      if (inner) out[g] = splitMultiValueIn(inner);
    }
    return out;
  });
}
