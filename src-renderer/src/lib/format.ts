import { compactDuration, twoDigits, waitDuration, waitDurationChangesIn } from './digits';
import { i18n } from './i18n.svelte';

export { compactDuration, twoDigits, waitDuration, waitDurationChangesIn };

/*
 * How the page writes times, dates and durations: the one module that does (eslint:
 * one-place/date-format). Words around them ("Today", "until 14:00") are messages of the
 * catalogs; the forms of the language come from Intl through i18n.dateTime, whose formatters are
 * made once per language and options.
 */

/** "14:05": a time of day in the interface language ('' for none). */
export function clockTime(at: string | number | null | undefined): string {
  return i18n.dateTime(at, { hour: '2-digit', minute: '2-digit' });
}

/** "14:05:09", always on 24 hours: the time an event came in, where seconds tell events apart. */
export function clockSeconds(at: string | number | null | undefined): string {
  return i18n.dateTime(at, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
}

/** "24/11 14:05": the day and time of a ticket or a report row ('' for none). */
export function dayMonthTime(iso: string | null): string {
  return i18n.dateTime(iso, { day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit' });
}

/** The date and the time to the second, as the language writes them. */
export function fullDateTime(at: string | number | null | undefined): string {
  return i18n.dateTime(at, { dateStyle: 'short', timeStyle: 'medium' });
}

/** "24/11" (with the year when it is not `now`'s): a day on its own. */
export function dayMonth(iso: string, now: number): string {
  const sameYear = new Date(iso).getFullYear() === new Date(now).getFullYear();
  return i18n.dateTime(iso, sameYear ? { day: '2-digit', month: '2-digit' } : { day: '2-digit', month: '2-digit', year: 'numeric' });
}

/** The local calendar day of an instant (ISO or ms), as a number (20261124); null for no date. */
export function dayOf(value: string | number | null): number | null {
  if (value === null || value === '') return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.getFullYear() * 10_000 + (d.getMonth() + 1) * 100 + d.getDate();
}

/** When something was written: the time for today's, the day and time for any other (the year when not this one). */
export function stampOf(iso: string | null, now: number): string {
  if (!iso) return '';
  if (dayOf(iso) === dayOf(now)) return clockTime(iso);
  const sameYear = new Date(iso).getFullYear() === new Date(now).getFullYear();
  return i18n.dateTime(iso, {
    day: '2-digit',
    month: '2-digit',
    ...(sameYear ? {} : { year: 'numeric' }),
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** "2026-11-24": the day a `date` input and the service's day filters take (this machine's calendar). */
export function dateInputValue(d: Date): string {
  return `${d.getFullYear()}-${twoDigits(d.getMonth() + 1)}-${twoDigits(d.getDate())}`;
}

/** A figure's duration, spelled out: "35 s", "4 min 10 s", "1 h 05 min"; "—" for none. */
export function spelledDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${twoDigits(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${twoDigits(Math.floor((s % 3600) / 60))} min`;
}

/** A place in a recording: "1:05". */
export function minuteSecond(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${twoDigits(Math.floor(seconds % 60))}`;
}
