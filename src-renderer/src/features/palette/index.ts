import type { ConsoleFeature } from '../../lib/feature';
import { palette, pt } from './palette.svelte';

/** The palette itself is mounted by the shell; its opening command lives here. */
export const paletteFeature: ConsoleFeature = {
  id: 'palette',
  commands: [
    {
      id: 'palette.open',
      title: () => pt('p.open'),
      group: 'General',
      shortcut: 'Mod+K',
      run: () => (palette.open ? palette.hide() : palette.show()),
    },
  ],
};

// The key bindings other features name in their buttons and shortcuts.
export { ariaShortcut, isMac, withShortcut } from './keys.svelte';
