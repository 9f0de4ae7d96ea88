import { z } from 'zod';
import { int, opt, str } from './common';

/** Ticket (§2.4). */
export const TicketSchema = z
  .object({ id: int(), title: str(), description: str(), status: str(), priority: str(), projectId: int() })
  .loose();

/** Lookup envelope: SUCCESS with `data`, or ERROR with message and errorCode. */
export const TicketEnvelopeSchema = z.object({ status: str(), message: str(), data: opt(TicketSchema) }).loose();

export type Ticket = z.infer<typeof TicketSchema>;
export type TicketEnvelope = z.infer<typeof TicketEnvelopeSchema>;
