import { z } from 'zod';

/**
 * Whether the service can be reached, as the main process sees it (network errors of any call,
 * and a light probe). Strict: we own this shape.
 */
export const ConnectivitySchema = z
  .object({
    state: z.enum(['online', 'offline']),
    /** When the service stopped answering (ms since epoch); null while online. */
    since: z.number().nullable(),
    /** The last network error, in words the attendant can act on. */
    reason: z.string().nullable(),
    /** When the next probe runs while offline. */
    nextProbeAt: z.number().nullable(),
    /** The last time the service answered anything. */
    lastOkAt: z.number().nullable(),
    /**
     * Reachable, told to wait: the service asked (Retry-After, capped at 5 minutes) that nothing
     * be sent before this time (ms since epoch); null when it asked for no wait.
     */
    waitUntil: z.number().nullable().optional(),
  })
  .strict();
export type Connectivity = z.infer<typeof ConnectivitySchema>;

const NoInput = z.object({}).strict();

export const offlineChannels = {
  'offline:status': { input: NoInput, output: ConnectivitySchema },
  /** "Try now": probe at once instead of waiting for the next scheduled probe. */
  'offline:retry': { input: NoInput, output: ConnectivitySchema },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export const offlineEvents = {
  'offline:status': ConnectivitySchema,
} as const satisfies Record<string, z.ZodType>;
