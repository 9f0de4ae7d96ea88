import { i18n } from '../../lib/i18n.svelte';

/** The figures view's strings (overview, per attendant and group, trend), in English and Brazilian Portuguese. */
export const ft = i18n.register('figures');
