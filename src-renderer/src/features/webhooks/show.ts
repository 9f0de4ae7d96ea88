import { views } from '../../lib/views.svelte';
import { settingsNav } from '../../lib/settings-nav.svelte';
import { listener } from './listener.svelte';

/** Opens the event log or the listener where they live: settings, "Developer / integration". */
export function showEvents(tab: 'log' | 'listener' | 'source'): void {
  listener.tab = tab;
  settingsNav.tab = 'developer';
  views.show('settings');
}
