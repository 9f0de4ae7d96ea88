import { AppError } from '../../src-shared/errors';
import { ticketPath } from '../../src-shared/paths';
import type { Read } from '../../src-shared/envelopes';
import { TicketEnvelopeSchema, type Ticket } from '../../src-shared/schemas/index';
import type { CallOptions, Core } from './core';

export interface TicketOps {
  /** The ticket by id or unique key; NotFound when there is none. */
  ticket(ticketId: string, o?: CallOptions): Promise<Read<Ticket>>;
}

export function createTicketOps(core: Core): TicketOps {
  return {
    async ticket(ticketId, o = {}) {
      const id = ticketId.trim();
      if (!id) throw new AppError({ kind: 'Invalid', message: 'Type a ticket number or key.', operation: 'ticket.get' });
      const env = await core.call({
        operation: 'ticket.get',
        action: 'open tickets',
        write: false,
        notFound: `Ticket ${id} was not found (404).`,
        method: 'GET',
        path: ticketPath(id),
        answer: { kind: 'json', schema: TicketEnvelopeSchema },
        signal: o.signal,
        timeoutMs: o.timeoutMs,
      });
      // A success reply without its ticket would look like an empty ticket: report it instead.
      if (!env.data) {
        throw new AppError({
          kind: 'BadResponse',
          message: `The service answered "ticket.get" without the ticket (field data).`,
          operation: 'ticket.get',
          field: 'data',
        });
      }
      return env.data as Read<Ticket>;
    },
  };
}
