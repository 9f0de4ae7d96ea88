import { i18n } from '../../lib/i18n.svelte';

export const nt = i18n.register('notes');
