import { z } from 'zod';

import type { Condition } from './operators';
export { OPERATORS, type Operator, type Logic, type Condition } from './operators';

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
