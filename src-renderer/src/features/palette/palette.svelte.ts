import { i18n } from '../../lib/i18n.svelte';

export const pt = i18n.register('palette');

// The attendant's work first, integration plumbing last.
const GROUP_ORDER = ['Queue', 'Session', 'Status', 'Voice', 'Supervisor', 'General', 'Settings', 'Events', 'Developer'];
const GROUPS = new Set(GROUP_ORDER);

/** Where a group sorts in the palette (unknown groups after the known ones). */
export const groupRank = (group: string): number => {
  const i = GROUP_ORDER.indexOf(group);
  return i < 0 ? GROUP_ORDER.length : i;
};

/** A command's group (registered as a stable English key) in the attendant's language. */
export const groupLabel = (group: string): string => (GROUPS.has(group) ? pt(`g.${group}` as 'g.General') : group);

/** The command palette's open state and query (Ctrl/Cmd+K). */
export class PaletteState {
  #open = $state(false);
  query = $state('');
  cursor = $state(0);

  get open() {
    return this.#open;
  }
  show(): void {
    this.query = '';
    this.cursor = 0;
    this.#open = true;
  }
  hide(): void {
    this.#open = false;
  }

  reset(): void {
    this.hide();
    this.query = '';
    this.cursor = 0;
  }
}

export const palette = new PaletteState();
