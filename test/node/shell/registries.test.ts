import { expect, test } from '@playwright/test';
import { importRunes } from '../../support/runes';
import type * as commandsModule from '../../../src-renderer/src/lib/commands.svelte';
import type * as viewsModule from '../../../src-renderer/src/lib/views.svelte';
import type * as i18nModule from '../../../src-renderer/src/lib/i18n.svelte';
import type * as settingsNavModule from '../../../src-renderer/src/lib/settings-nav.svelte';
import type * as themeModule from '../../../src-renderer/src/lib/theme.svelte';

type Commands = typeof commandsModule;
type Views = typeof viewsModule;
type I18n = typeof i18nModule;
type Nav = typeof settingsNavModule;

test('commands: a rebind overrides the default shortcut, a disabled command does not run, unregistering removes it', async () => {
  const { CommandRegistry } = await importRunes<Commands>('src-renderer/src/lib/commands.svelte.ts');
  const commands = new CommandRegistry();
  let ran = 0;
  let enabled = false;
  const off = commands.register(
    { id: 'a', title: () => 'A', group: 'General', shortcut: 'Mod+K', run: () => void ran++ },
    { id: 'b', title: () => 'B', group: 'General', shortcut: () => 'Mod+J', enabled: () => enabled, run: () => void ran++ },
  );
  expect([commands.shortcutOf('a'), commands.shortcutOf('b')]).toEqual(['Mod+K', 'Mod+J']);
  commands.setOverrides({ a: 'Mod+Shift+K', b: null });
  expect([commands.shortcutOf('a'), commands.shortcutOf('b')]).toEqual(['Mod+Shift+K', null]);
  await commands.run('b');
  expect(ran).toBe(0);
  enabled = true;
  await commands.run('b');
  await commands.run('a');
  expect(ran).toBe(2);
  off();
  expect(commands.all).toEqual([]);
});

test('views: ordered, hidden when not visible, the first one active until another is shown; settings tabs reset', async () => {
  const { ViewRegistry } = await importRunes<Views>('src-renderer/src/lib/views.svelte.ts');
  const { SettingsNav } = await importRunes<Nav>('src-renderer/src/lib/settings-nav.svelte.ts');
  const views = new ViewRegistry();
  let supervisor = false;
  const component = (() => undefined) as never;
  views.register({ id: 'settings', title: () => 'Settings', icon: '⚙', order: 90, component });
  views.register({ id: 'supervisor', title: () => 'Supervisor', icon: '◈', order: 50, component, visible: () => supervisor });
  views.register({ id: 'attendance', title: () => 'Sessions', icon: '☰', order: 0, component });
  expect(views.all.map((v) => v.id)).toEqual(['attendance', 'settings']);
  supervisor = true;
  expect(views.all.map((v) => v.id)).toEqual(['attendance', 'supervisor', 'settings']);
  views.show('settings');
  expect(views.active?.id).toBe('settings');
  views.show('nothing-like-this');
  expect(views.active?.id).toBe('attendance');

  const nav = new SettingsNav();
  expect(nav.tab).toBe('general');
});

test("strings: each feature's table is its own (same key, two meanings), plurals and numbers follow the language", async () => {
  const { I18n } = await importRunes<I18n>('src-renderer/src/lib/i18n.svelte.ts');
  const i18n = new I18n();
  const voice = i18n.register({ en: { 'cmd.open': 'Open voice' }, 'pt-BR': { 'cmd.open': 'Abrir voz' } });
  const events = i18n.register({ en: { 'cmd.open': 'Open the event log' }, 'pt-BR': { 'cmd.open': 'Abrir o registro de eventos' } });
  const counts = i18n.register({
    en: { n: '{count} sessions', 'n.one': '{count} session' },
    'pt-BR': { n: '{count} sessões', 'n.one': '{count} sessão' },
  });
  i18n.setLocale('en-US');
  expect([voice('cmd.open'), events('cmd.open'), counts('n', { count: 1 }), counts('n', { count: 1234 })]).toEqual([
    'Open voice',
    'Open the event log',
    '1 session',
    '1,234 sessions',
  ]);
  i18n.setLocale('pt-BR');
  expect([voice('cmd.open'), events('cmd.open'), counts('n', { count: 1 }), counts('n', { count: 1234 })]).toEqual([
    'Abrir voz',
    'Abrir o registro de eventos',
    '1 sessão',
    '1.234 sessões',
  ]);
  // Zero reads as a plural in Brazilian interfaces (CLDR would say "0 sessão").
  expect([counts('n', { count: 0 })]).toEqual(['0 sessões']);
  i18n.choose('en');
  expect(i18n.locale).toBe('en');
  expect(i18n.t('queue.heading')).toBe('Sessions');
});

type Theme = typeof themeModule;

test('theme: follows the system until one is chosen, and the choice is remembered', async () => {
  const { Theme } = await importRunes<Theme>('src-renderer/src/lib/theme.svelte.ts');
  const theme = new Theme();
  expect([theme.choice, theme.resolved]).toEqual(['system', 'light']);
  theme.choose('dark');
  expect(theme.resolved).toBe('dark');
  expect(new Theme().choice).toBe('dark');
  theme.choose('system');
});
