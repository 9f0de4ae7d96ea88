import { i18n } from '../../lib/i18n.svelte';

/** This feature's messages: the `settings.*` keys of the catalogs in src-renderer/src/locales. */
export const st = i18n.register('settings');

/** Each language named in itself, so a user can always find their own. */
export const LANGUAGE_NAMES = { 'pt-BR': 'Português (Brasil)', en: 'English', es: 'Español' } as const;
