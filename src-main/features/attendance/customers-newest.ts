import type { ThreadMessage } from '../../../src-shared/bridge/attendance';
import { sessionIdOf, type Parties } from '../../../src-shared/concepts';
import type { Read } from '../../../src-shared/envelopes';
import { isNewer, messageTime } from '../../../src-shared/newest';
import type { Message } from '../../../src-shared/schemas/index';
import { toThreadMessage } from './project';

/**
 * The customer's newest message of each session among `records` (by time, in whatever order the
 * service listed them). Where a record does not say who wrote it, a session no attendant holds yet
 * (`waiting`: only its customer writes there) counts it as the customer's, unless it names a bot
 * or the system: servers write a waiting customer's line with no flag and nobody to address.
 */
export function customersNewest(
  records: Iterable<Read<Message>>,
  partiesOf: (sessionId: number) => Parties | undefined,
  waiting: (sessionId: number) => boolean,
): Map<number, ThreadMessage> {
  return newestOfCustomers(messagesRead(records, partiesOf, waiting));
}

/** Message records as the thread reads them, by the same authorship rule as `customersNewest`. */
export function messagesRead(
  records: Iterable<Read<Message>>,
  partiesOf: (sessionId: number) => Parties | undefined,
  waiting: (sessionId: number) => boolean,
): ThreadMessage[] {
  const out: ThreadMessage[] = [];
  for (const r of records) {
    const sessionId = sessionIdOf(r);
    const read = toThreadMessage(r, undefined, sessionId === null ? undefined : partiesOf(sessionId));
    if (!read) continue;
    out.push(
      read.fromCustomer || read.author !== null || !waiting(read.sessionId)
        ? read
        : { ...read, fromCustomer: true, author: 'customer' as const },
    );
  }
  return out;
}

/** The customer's newest message of each session among `messages`. */
export function newestOfCustomers(messages: Iterable<ThreadMessage>): Map<number, ThreadMessage> {
  const newest = new Map<number, ThreadMessage>();
  for (const m of messages) {
    if (!m.fromCustomer) continue;
    const before = newest.get(m.sessionId);
    if (!before || isNewer(messageTime(m), messageTime(before))) newest.set(m.sessionId, m);
  }
  return newest;
}
