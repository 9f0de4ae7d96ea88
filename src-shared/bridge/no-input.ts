import { z } from 'zod';

/** The input of a channel that takes none. */
export const NoInput = z.object({}).strict();
