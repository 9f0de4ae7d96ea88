import { z } from 'zod';

/** v2 list answer (interface §2.2). */
export const pageEnvelope = <T extends z.ZodType>(item: T) =>
  z.object({ page: z.number().int(), size: z.number().int(), results: z.array(item) }).loose();

/** Envelope with a status: SUCCESS, or ERROR with message and errorCode (interface §7.3). */
export const ErrorEnvelopeSchema = z
  .object({ status: z.literal('ERROR'), message: z.string().optional(), errorCode: z.union([z.string(), z.number()]).optional() })
  .loose();
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

/** 401/403/404 bodies of the AI and ticket families (interface §7.1). */
export const StatusBodySchema = z.object({ status: z.string() }).loose();
