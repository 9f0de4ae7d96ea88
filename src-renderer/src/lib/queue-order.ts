import type { QueueItem } from '../../../src-shared/bridge/attendance';

/* What the queue's rows are ordered and searched by: each worked out once per row object and kept beside it. */

/** Snoozed: the soonest to wake first; those waiting for their customer after them. */
export const byWake = (x: QueueItem, y: QueueItem): number => {
  const at = (s: QueueItem) => (s.snoozedUntil ? Date.parse(s.snoozedUntil) : Infinity);
  return at(x) - at(y) || x.id - y.id;
};

const lastCustomerMs = new WeakMap<QueueItem, number>();
/** When the customer last wrote (ms), or when the session began; parsed once per item. */
export function activityMs(s: QueueItem): number {
  let t = lastCustomerMs.get(s);
  if (t === undefined) {
    t = s.lastCustomerAt ? Date.parse(s.lastCustomerAt) : NaN;
    if (Number.isNaN(t)) t = createdAtMs(s) || 0;
    lastCustomerMs.set(s, t);
  }
  return t;
}

/** Lower-case text a filter keystroke is matched against, built once per item. */
const haystacks = new WeakMap<QueueItem, string>();
export function haystack(s: QueueItem): string {
  let h = haystacks.get(s);
  if (h === undefined) {
    h = `${s.customerName}\n${s.groupName ?? ''}\n${s.channel ?? ''}\n${s.protocol ?? ''}\n#${s.id}`.toLowerCase();
    haystacks.set(s, h);
  }
  return h;
}

const createdMs = new WeakMap<QueueItem, number>();
export function createdAtMs(s: QueueItem): number {
  let t = createdMs.get(s);
  if (t === undefined) {
    t = s.createdAt ? Date.parse(s.createdAt) : NaN;
    createdMs.set(s, t);
  }
  return t;
}
