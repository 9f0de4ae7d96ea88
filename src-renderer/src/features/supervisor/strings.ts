import { i18n, loadedCatalogs, type KeyOf, type MessageKey } from '../../lib/i18n.svelte';

/** This feature's messages: the `supervisor.*` keys of the catalogs in src-renderer/src/locales. */
export const tt = i18n.register('supervisor');

/** A field of the explorer's resources, in words (the `fields.*` keys; resource-fields.ts says which resource has which). */
export type FieldWord = KeyOf<'fields'>;
const fieldWords = i18n.register('fields');

/** A field of the explorer in words, in the interface language. */
export const fieldLabel = (word: FieldWord): string => fieldWords(word);

/** The field words a label names in English or the language shown, for a Field box typed in words. */
export function fieldWordOf(label: string): FieldWord[] {
  const t = label.trim();
  const catalogs = loadedCatalogs();
  return (Object.keys(catalogs[0]!) as MessageKey[])
    .filter((k) => k.startsWith('fields.') && catalogs.some((c) => c[k] === t))
    .map((k) => k.slice('fields.'.length) as FieldWord);
}
