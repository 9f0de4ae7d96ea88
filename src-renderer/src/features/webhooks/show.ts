import { views } from '../../lib/views.svelte';
import { SettingsNav } from '../../lib/settings-nav.svelte';
import { frontStore } from '../../lib/scope.svelte';
import { ListenerStore } from './listener.svelte';

/** Opens the event log or the listener where they live: settings, "Developer / integration". */
export function showEvents(tab: 'log' | 'listener' | 'source'): void {
  const listener = frontStore(ListenerStore);
  const nav = frontStore(SettingsNav);
  if (listener) listener.tab = tab;
  if (nav) nav.tab = 'developer';
  views.show('settings');
}
