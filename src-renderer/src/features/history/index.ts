import type { ConsoleFeature } from '../../lib/feature';
import { ht } from './strings';
import './history.css';

export { default as CustomerPanel } from './CustomerPanel.svelte';
export { default as SearchBox } from './SearchBox.svelte';
export { SearchStore } from './history.svelte';

/** The customer panel and the search: shown inside the attendance view; the palette's command here. */
export const historyFeature: ConsoleFeature = {
  id: 'history',
  commands: [
    {
      id: 'history.search',
      title: () => ht('s.command'),
      group: 'Queue',
      shortcut: 'Mod+Shift+S',
      run: () => queueMicrotask(() => document.getElementById('history-search')?.focus()),
    },
  ],
};
