/*
 * Part of the page's one formatter (format.ts), apart because it needs no language: modules that
 * run without the page's runes (a Node test's plain imports) take it from here.
 */

/** Two digits, as clocks and date inputs write hours, minutes and days ("05"). */
export function twoDigits(n: number): string {
  return String(n).padStart(2, '0');
}

/** A duration, short (a pause, an absence, a late SLA): "35s", "4m 05s", "2h 07m", "3d 4h". */
export function compactDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${twoDigits(s % 60)}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ${twoDigits(m % 60)}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/**
 * A customer's wait as a queue row shows it: the seconds only in its first minute ("35s", "4m",
 * "2h 07m", "3d 4h"). Attendants triage by minutes, and a row's text then changes once a minute,
 * not every second (each change costs the list a layout and a paint).
 */
export function waitDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m` : compactDuration(s);
}

/** Seconds from a wait of `seconds` until `waitDuration` shows something else. */
export function waitDurationChangesIn(seconds: number): number {
  const s = Math.max(0, seconds);
  const unit = s < 60 ? 1 : s < 86_400 ? 60 : 3600;
  return unit - (s % unit);
}
