import { i18n } from '../../lib/i18n.svelte';
import { clockTime, dayMonth, dayOf, stampOf } from '../../lib/format';

/** This feature's messages: the `attendance.*` keys of the catalogs in src-renderer/src/locales. */
export const tt = i18n.register('attendance');

/** A day as a thread separator says it: "Today", "Yesterday", "24/11" (with the year when not this one). */
export function dayLabel(iso: string, now: number): string {
  const day = dayOf(iso);
  const today = dayOf(now);
  const before = new Date(now);
  before.setDate(before.getDate() - 1);
  if (day === today) return tt('t.today');
  if (day === dayOf(before.getTime())) return tt('t.yesterday');
  return dayMonth(iso, now);
}

/** When a snoozed session wakes, as a phrase: "until today at 14:00", "until the customer writes". */
export function snoozeWhen(until: string | null, now = Date.now()): string {
  if (until === null) return tt('z.whenCustomer');
  const tomorrow = new Date(now);
  tomorrow.setDate(tomorrow.getDate() + 1);
  const day = dayOf(until);
  if (day === dayOf(now)) return tt('z.whenToday', { time: clockTime(until) });
  if (day === dayOf(tomorrow.getTime())) return tt('z.whenTomorrow', { time: clockTime(until) });
  return tt('z.whenDay', { time: stampOf(until, now) });
}

/** When a snoozed session wakes, as short as a queue row needs: "Wakes 14:00", "Wakes tomorrow 09:00". */
export function snoozeRow(until: string | null, now = Date.now()): string {
  if (until === null) return tt('z.rowCustomer');
  const tomorrow = new Date(now);
  tomorrow.setDate(tomorrow.getDate() + 1);
  const day = dayOf(until);
  const when =
    day === dayOf(now)
      ? clockTime(until)
      : day === dayOf(tomorrow.getTime())
        ? tt('z.rowTomorrow', { time: clockTime(until) })
        : stampOf(until, now);
  return tt('z.row', { when });
}
