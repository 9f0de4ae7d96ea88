// Zod-free, so the renderer can use the operator list without bundling the schemas.

/** The operators of the shared query body (interface §2.1; semantics in DESIGN.md §2). */
export const OPERATORS = [
  'EQ',
  'EQNUM',
  'NEQ',
  'NEQNUM',
  'IS_FALSE',
  'IS_TRUE',
  'LIKE',
  'NOT_LIKE',
  'IN',
  'NOT_IN',
  'IS_NULL',
  'NOT_NULL',
  'BEFORE',
  'AFTER',
] as const;
export type Operator = (typeof OPERATORS)[number];

export type Logic = 'AND' | 'OR';

/**
 * One condition of the shared query body. A leaf has key/operator/value; a group has
 * `and`, `or` or `conditions`. `logic` joins it to the condition before it (AND by default).
 */
export interface Condition {
  key?: string;
  value?: string;
  operator?: string;
  logic?: Logic;
  and?: Condition[];
  or?: Condition[];
  conditions?: Condition[];
}

/** Operators that ignore the value. */
export const NO_VALUE_OPERATORS: ReadonlySet<Operator> = new Set<Operator>(['IS_TRUE', 'IS_FALSE', 'IS_NULL', 'NOT_NULL']);
