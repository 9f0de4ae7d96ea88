import { i18n } from './i18n.svelte';

/** The channels' names are attendance messages (`attendance.ch.*`), read by every view that shows a channel. */
const words = i18n.register('attendance');

/** A channel's name in the interface language; a channel the catalogs lack reads as its code. */
export const channelName = (c: string | null): string =>
  c ? (words(`ch.${c}` as 'ch.chatApp') === `ch.${c}` ? c : words(`ch.${c}` as 'ch.chatApp')) : '—';
