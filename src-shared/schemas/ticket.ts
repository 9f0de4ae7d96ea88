import type { z } from 'zod';
import { anyValue, dateTime, int, nested, ref, str, readObject } from './common';
import { SessionSchema } from './session';

/**
 * Ticket (§2.4). Beyond the six fields of the interface, what servers (the stand-in among them)
 * add and the ticket view shows: its unique key, who asked, who handles it, its session and its
 * dates, under the names they are known to use.
 */
export const TicketSchema = readObject({
  id: int(),
  title: str(),
  description: str(),
  status: str(),
  priority: str(),
  projectId: int(),
  key: str(),
  uniqueKey: str(),
  requester: anyValue(),
  requesterName: anyValue(),
  customer: anyValue(),
  user: anyValue(),
  assignee: anyValue(),
  assignedTo: anyValue(),
  responsible: anyValue(),
  agent: anyValue(),
  sessionId: int(),
  session: ref(SessionSchema),
  createdAt: dateTime(),
  creationDate: dateTime(),
  openedAt: dateTime(),
  updatedAt: dateTime(),
  lastUpdate: dateTime(),
  modifiedAt: dateTime(),
});

/** Lookup envelope: SUCCESS with `data`, or ERROR with message and errorCode. */
export const TicketEnvelopeSchema = readObject({ status: str(), message: str(), data: nested(TicketSchema) });

export type Ticket = z.infer<typeof TicketSchema>;
