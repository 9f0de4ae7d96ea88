import { z } from 'zod';
import { NoInput } from './no-input';

/** Live updates: webhook events as hints, the safety-net poll, and their state. */
export const LiveStatusSchema = z
  .object({
    /** running: events arrive; stopped: the attendant paused live updates; failed: could not start. */
    state: z.enum(['running', 'stopped', 'failed', 'idle']),
    url: z.string().nullable(),
    signed: z.boolean(),
    registered: z.boolean(),
    detail: z.string().nullable(),
    lastEventAt: z.number().nullable(),
    lastResyncAt: z.number().nullable(),
    accepted: z.number().int(),
  })
  .strict();
export type LiveStatus = z.infer<typeof LiveStatusSchema>;

export const liveChannels = {
  'live:status': { input: NoInput, output: LiveStatusSchema },
  /** Pause or resume live updates (resuming resyncs every open session from its high-water mark). */
  'live:setRunning': { input: z.object({ running: z.boolean() }).strict(), output: LiveStatusSchema },
  /** A hint from the renderer (woke from sleep, back online): resync now. */
  'live:resync': { input: NoInput, output: LiveStatusSchema },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export const liveEvents = {
  'live:status': LiveStatusSchema,
} as const satisfies Record<string, z.ZodType>;
