import { i18n } from '../../lib/i18n.svelte';

/** This feature's messages: the `webhooks.*` keys of the catalogs in src-renderer/src/locales. */
export const tt = i18n.register('webhooks');
