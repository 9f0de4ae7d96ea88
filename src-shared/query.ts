import { z } from 'zod';

/** The operators of the shared query body (interface §2.1; semantics in DESIGN.md §2). */
export const OPERATORS = [
  'EQ', 'EQNUM', 'NEQ', 'NEQNUM', 'IS_FALSE', 'IS_TRUE', 'LIKE', 'NOT_LIKE',
  'IN', 'NOT_IN', 'IS_NULL', 'NOT_NULL', 'BEFORE', 'AFTER',
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

export const ConditionSchema: z.ZodType<Condition> = z.lazy(() =>
  z.object({
    key: z.string().optional(),
    value: z.string().optional(),
    operator: z.string().optional(),
    logic: z.enum(['AND', 'OR']).optional(),
    and: z.array(ConditionSchema).optional(),
    or: z.array(ConditionSchema).optional(),
    conditions: z.array(ConditionSchema).optional(),
  }),
);

/** Shared query body of the v2 list operations: conditions and sort are required there. */
export const QueryBodySchema = z.object({
  conditions: z.array(ConditionSchema),
  sort: z.boolean(),
  direction: z.enum(['ASC', 'DESC']).optional(),
  sortColumn: z.string().optional(),
  page: z.number().int().min(0).optional(),
  size: z.number().int().min(1).optional(),
});
export type QueryBody = z.infer<typeof QueryBodySchema>;

/** Body of the lookup operations (groups/unique, nps-summary, user-session/unique): no paging. */
export const LookupBodySchema = QueryBodySchema.omit({ page: true, size: true });
export type LookupBody = z.infer<typeof LookupBodySchema>;

export const DEFAULT_PAGE_SIZE = 20;
export const STANDIN_MAX_PAGE_SIZE = 500;
