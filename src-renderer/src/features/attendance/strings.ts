import { i18n } from '../../lib/i18n.svelte';

/** This feature's messages: the `attendance.*` keys of the catalogs in src-renderer/src/locales. */
export const tt = i18n.register('attendance');

export function duration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

export const channelName = (c: string | null): string =>
  c ? (tt(`ch.${c}` as 'ch.chatApp') === `ch.${c}` ? c : tt(`ch.${c}` as 'ch.chatApp')) : '—';

export function timeOf(iso: string | null): string {
  return i18n.dateTime(iso, { hour: '2-digit', minute: '2-digit' });
}

/** The local calendar day of an instant (ISO or ms), as a number (20261124); null for no date. */
export function dayOf(value: string | number | null): number | null {
  if (value === null || value === '') return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.getFullYear() * 10_000 + (d.getMonth() + 1) * 100 + d.getDate();
}

/** A day as a thread separator says it: "Today", "Yesterday", "24/11" (with the year when not this one). */
export function dayLabel(iso: string, now: number): string {
  const day = dayOf(iso);
  const today = dayOf(now);
  const before = new Date(now);
  before.setDate(before.getDate() - 1);
  if (day === today) return tt('t.today');
  if (day === dayOf(before.getTime())) return tt('t.yesterday');
  const sameYear = day !== null && today !== null && Math.floor(day / 10_000) === Math.floor(today / 10_000);
  return i18n.dateTime(iso, sameYear ? { day: '2-digit', month: '2-digit' } : { day: '2-digit', month: '2-digit', year: 'numeric' });
}

/** When a message was written: the time for today's, the day and time for any other (older ones say their date). */
export function stampOf(iso: string | null, now: number): string {
  if (!iso) return '';
  if (dayOf(iso) === dayOf(now)) return timeOf(iso);
  const sameYear = new Date(iso).getFullYear() === new Date(now).getFullYear();
  return i18n.dateTime(iso, {
    day: '2-digit',
    month: '2-digit',
    ...(sameYear ? {} : { year: 'numeric' }),
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** When a snoozed session wakes, as a phrase: "until today at 14:00", "until the customer writes". */
export function snoozeWhen(until: string | null, now = Date.now()): string {
  if (until === null) return tt('z.whenCustomer');
  const tomorrow = new Date(now);
  tomorrow.setDate(tomorrow.getDate() + 1);
  const day = dayOf(until);
  if (day === dayOf(now)) return tt('z.whenToday', { time: timeOf(until) });
  if (day === dayOf(tomorrow.getTime())) return tt('z.whenTomorrow', { time: timeOf(until) });
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
      ? timeOf(until)
      : day === dayOf(tomorrow.getTime())
        ? tt('z.rowTomorrow', { time: timeOf(until) })
        : stampOf(until, now);
  return tt('z.row', { when });
}
