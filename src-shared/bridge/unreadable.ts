import { z } from 'zod';
import { NONE_UNREADABLE } from '../unreadable';

/** Records a view could not use (src-shared/unreadable.ts): how many, and the first one. */
export const UnreadableSchema = z
  .object({
    count: z.number().int().min(0),
    first: z
      .object({ resource: z.string(), id: z.number().int().nullable(), field: z.string().nullable(), reason: z.string() })
      .strict()
      .nullable(),
  })
  .strict()
  .default(NONE_UNREADABLE);
