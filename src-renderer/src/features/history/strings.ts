import { i18n } from '../../lib/i18n.svelte';

/** This feature's messages: the `history.*` keys of the catalogs in src-renderer/src/locales. */
export const ht = i18n.register('history');
