/*
 * Part of the page's one formatter (format.ts), apart because it needs no language: modules that
 * run without the page's runes (a Node test's plain imports) take it from here.
 */

/** Two digits, as clocks and date inputs write hours, minutes and days ("05"). */
export function twoDigits(n: number): string {
  return String(n).padStart(2, '0');
}
