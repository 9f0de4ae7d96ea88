import { z } from 'zod';
import { NoInput } from './no-input';

/** The command palette's key bindings, kept in the profile. */
export const paletteChannels = {
  'palette:keys': { input: NoInput, output: z.object({ bindings: z.record(z.string(), z.string().nullable()) }).strict() },
  'palette:setKeys': {
    input: z.object({ bindings: z.record(z.string().max(100), z.string().max(60).nullable()) }).strict(),
    output: z.object({ bindings: z.record(z.string(), z.string().nullable()) }).strict(),
  },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export const paletteEvents = {} as const satisfies Record<string, z.ZodType>;
