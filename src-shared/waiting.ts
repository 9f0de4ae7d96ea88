import { msOf } from './concepts';
import { slaChangesAt, slaDue, slaState, type SlaState } from './sla';

/**
 * How long a customer has waited for an answer: the one rule the queue's timers, their SLA
 * colours and "Needs me" follow.
 *
 * The wait starts at the customer's first message that no attendant answered yet and stops at the
 * attendant's next reply (a message of an attendant newer than it); the customer's next message
 * starts it again. Only times decide ("newer" is by the messages' own times, never by the order
 * they reached the console), so a reply read before an older customer message still answers it.
 */

/** Customer messages remembered per session after the last reply (the oldest one is the wait's start). */
export const UNANSWERED_KEPT = 50;

/** What the console saw of a session's conversation, for its wait. */
export interface Conversation {
  /** The attendant's newest message (ISO), null when none was seen. */
  repliedAt: string | null;
  /** The customer's messages newer than that reply (ISO), oldest first. */
  unanswered: string[];
}

export const NO_CONVERSATION: Conversation = { repliedAt: null, unanswered: [] };

/** A time as a comparable instant (unreadable ones are the oldest of all, as in newest.ts). */
function instant(at: string | null): number {
  const ms = msOf(at);
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

/** The conversation after a customer's message at `at`; the same object when it changes nothing. */
export function withCustomerMessage(c: Conversation, at: string): Conversation {
  const t = instant(at);
  // Already answered (a reply newer than it was seen), or already counted.
  if (c.repliedAt !== null && t <= instant(c.repliedAt)) return c;
  if (c.unanswered.includes(at)) return c;
  const unanswered = [...c.unanswered, at].sort((a, b) => instant(a) - instant(b));
  // Past the cap the newest are dropped: the oldest one is where the wait starts.
  return { repliedAt: c.repliedAt, unanswered: unanswered.slice(0, UNANSWERED_KEPT) };
}

/** The conversation after an attendant's message at `at`: every customer message up to it is answered. */
export function withReply(c: Conversation, at: string): Conversation {
  const t = instant(at);
  if (c.repliedAt !== null && t <= instant(c.repliedAt)) return c;
  return { repliedAt: at, unanswered: c.unanswered.filter((u) => instant(u) > t) };
}

/** When the customer's wait began, null when nothing they wrote is unanswered. */
export function waitingSinceOf(c: Conversation): string | null {
  return c.unanswered[0] ?? null;
}

/** What a queue row carries for the rule (a queue item has all of it). */
export interface WaitSubject {
  createdAt: string | null;
  /** The customer's first unanswered message (ISO); null: none unanswered; absent: not known. */
  waitingSince?: string | null | undefined;
  /** The attendant's newest message (ISO); absent or null: none seen. */
  repliedAt?: string | null | undefined;
  slaSeconds: number | null;
  slaWarningRatio?: number | null | undefined;
}

/**
 * Since when the customer has waited (ISO), or null when they are not waiting: their first
 * unanswered message; nothing when the attendant answered everything; the session's start when
 * the console saw nothing of its conversation (a customer who just arrived waits since then).
 */
export function waitStartOf(s: WaitSubject): string | null {
  if (s.waitingSince) return s.waitingSince;
  return s.repliedAt ? null : s.createdAt;
}

/** Seconds the customer has waited at `now` (ms), null when not waiting. */
export function waitedSeconds(s: WaitSubject, now: number): number | null {
  const start = msOf(waitStartOf(s));
  return Number.isNaN(start) ? null : Math.max(0, (now - start) / 1000);
}

/** When the wait runs past the group's SLA (ms), Infinity when the customer is not waiting or there is none. */
export function waitDue(s: WaitSubject): number {
  const start = waitStartOf(s);
  return start === null ? Infinity : slaDue({ createdAt: start, slaSeconds: s.slaSeconds });
}

/** The wait against the group's SLA: the timer's colour ('none' when the customer is not waiting or there is no SLA). */
export function waitSla(s: WaitSubject, now: number): { state: SlaState; leftSeconds: number } {
  const start = waitStartOf(s);
  if (start === null) return { state: 'none', leftSeconds: NaN };
  return slaState({ createdAt: start, slaSeconds: s.slaSeconds, slaWarningRatio: s.slaWarningRatio }, now);
}

/** The next moment after `now` (ms) at which `waitSla` says another colour; Infinity when none comes. */
export function waitSlaChangesAt(s: WaitSubject, now: number): number {
  const start = waitStartOf(s);
  return start === null ? Infinity : slaChangesAt({ createdAt: start, slaSeconds: s.slaSeconds, slaWarningRatio: s.slaWarningRatio }, now);
}

/** A conversation no attendant has answered yet: nobody replied in it as far as the console saw. */
export const isNewConversation = (s: Pick<WaitSubject, 'repliedAt'>): boolean => !s.repliedAt;
