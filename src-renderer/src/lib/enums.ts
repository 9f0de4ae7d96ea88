import { i18n } from './i18n.svelte';

/**
 * Words the service sends as codes (statuses, priorities, channel kinds, sentiments, operators),
 * as people read them in each language: the `enums.*` keys of the catalogs. Unknown codes read as
 * words ("WAITING_CUSTOMER" -> "Waiting customer") rather than as a code.
 */
function wordOf(code: string): string | null {
  const key = `enums.${code}`;
  return i18n.has(key) ? i18n.format(key) : null;
}

const codeOf = (value: string) =>
  value
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');

/** A known code as a word of the interface language; a name of the service's own as it is. */
export function knownLabel(value: string | null | undefined): string {
  if (!value) return '';
  return wordOf(codeOf(value)) ?? value;
}

/** A service code as a word in the interface language; '' for null. */
export function enumLabel(value: string | null | undefined): string {
  if (!value) return '';
  const known = wordOf(codeOf(value));
  if (known) return known;
  const words = value
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
