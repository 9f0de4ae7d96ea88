import { i18n } from '../../lib/i18n.svelte';

/** This feature's messages: the `voice.*` keys of the catalogs in src-renderer/src/locales. */
export const tt = i18n.register('voice');

export const LANGUAGES: ReadonlyArray<{ tag: string; label: string }> = [
  { tag: 'en-US', label: 'English (US)' },
  { tag: 'pt-BR', label: 'Português (Brasil)' },
  { tag: 'es', label: 'Español' },
];
