import { expect, test } from '@playwright/test';
import { importRunes, installFakeBridge } from '../../support/runes';
import type * as KeysModule from '../../../src-renderer/src/features/palette/keys.svelte';
import type * as PaletteModule from '../../../src-renderer/src/features/palette/palette.svelte';
import type * as CommandsModule from '../../../src-renderer/src/lib/commands.svelte';

type Keys = typeof KeysModule;
type Palette = typeof PaletteModule;
type Commands = typeof CommandsModule;

test('rebinding: a shortcut that types characters or is taken is refused with the reason; a good one applies and is stored', async () => {
  const stored: Array<Record<string, string | null>> = [];
  await installFakeBridge({
    'palette:keys': () => ({ bindings: { 'queue.next': 'Mod+Shift+N' } }),
    'palette:setKeys': ({ bindings }) => {
      stored.push(bindings);
      return { bindings };
    },
  });
  const { commands } = await importRunes<Commands>('src-renderer/src/lib/commands.svelte.ts');
  const { KeyBindings } = await importRunes<Keys>('src-renderer/src/features/palette/keys.svelte.ts');
  const off = commands.register(
    { id: 'queue.next', title: () => 'Next session', group: 'Queue', shortcut: 'Alt+ArrowDown', run: () => undefined },
    { id: 'queue.filter', title: () => 'Filter the queue', group: 'Queue', shortcut: 'Mod+Shift+F', run: () => undefined },
  );
  try {
    const keys = new KeyBindings();
    await keys.load();
    expect(commands.shortcutOf('queue.next')).toBe('Mod+Shift+N');

    expect(keys.bind('queue.next', 'Alt+J')).toBe(false);
    expect(keys.problem).toContain('types characters');
    expect(keys.bind('queue.next', 'Mod+Shift+F')).toBe(false);
    expect(keys.problem).toContain('Filter the queue');
    expect(keys.bind('queue.next', 'Mod+Shift+J')).toBe(true);
    expect([keys.problem, commands.shortcutOf('queue.next')]).toEqual([null, 'Mod+Shift+J']);
    await expect.poll(() => stored).toEqual([{ 'queue.next': 'Mod+Shift+J' }]);

    keys.capturing = 'queue.filter';
    keys.reset();
    expect([keys.capturing, keys.problem]).toEqual([null, null]);
  } finally {
    off();
    commands.setOverrides({});
  }
});

test('the palette opens empty at the first row and forgets its query on reset', async () => {
  const { PaletteState } = await importRunes<Palette>('src-renderer/src/features/palette/palette.svelte.ts');
  const palette = new PaletteState();
  palette.query = 'transfer';
  palette.cursor = 3;
  palette.show();
  expect([palette.open, palette.query, palette.cursor]).toEqual([true, '', 0]);
  palette.query = 'close';
  palette.reset();
  expect([palette.open, palette.query]).toEqual([false, '']);
});
