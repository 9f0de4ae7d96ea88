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

test('views: a lazy view loads when first shown, once, and one that cannot load says so', async () => {
  const { ViewRegistry, lazy } = await importRunes<Views>('src-renderer/src/lib/views.svelte.ts');
  const views = new ViewRegistry();
  const Big = (() => undefined) as never;
  let loads = 0;
  let finish!: () => void;
  const loaded = new Promise<void>((r) => (finish = r));
  views.register({
    id: 'big',
    title: () => 'Big',
    icon: '◈',
    order: 1,
    component: lazy(async () => {
      loads++;
      await loaded;
      return { default: Big };
    }),
  });
  views.register({
    id: 'broken',
    title: () => 'Broken',
    icon: '!',
    order: 2,
    component: lazy(() => Promise.reject(new Error('chunk gone'))),
  });
  const [big, broken] = views.all;
  expect(views.componentOf(big!)).toBeUndefined();
  expect(views.componentOf(big!)).toBeUndefined();
  finish();
  await expect.poll(() => views.componentOf(big!)).toBe(Big);
  expect(loads).toBe(1);
  expect(views.failed(big!)).toBe(false);
  expect(views.componentOf(broken!)).toBeUndefined();
  await expect.poll(() => views.failed(broken!)).toBe(true);
  expect(views.componentOf(broken!)).toBeUndefined();
});

test("strings: each feature's namespace is its own (same key, two meanings), plurals and numbers follow the language", async () => {
  const { I18n } = await importRunes<I18n>('src-renderer/src/lib/i18n.svelte.ts');
  const i18n = new I18n();
  const voice = i18n.register('voice');
  const events = i18n.register('webhooks');
  i18n.setLocale('en-US');
  expect([
    voice('cmd.open'),
    events('cmd.open'),
    i18n.t('queue.sessions', { count: 1 }),
    i18n.t('queue.sessions', { count: 1234 }),
  ]).toEqual(['Open voice', 'Open the event log', '1 session', '1,234 sessions']);
  i18n.setLocale('pt-BR');
  await i18n.ready;
  expect([
    voice('cmd.open'),
    events('cmd.open'),
    i18n.t('queue.sessions', { count: 1 }),
    i18n.t('queue.sessions', { count: 1234 }),
  ]).toEqual(['Abrir voz', 'Abrir o registro de eventos', '1 sessão', '1.234 sessões']);
  // Zero reads as a plural in Brazilian interfaces (CLDR would say "0 sessão").
  expect([i18n.t('queue.sessions', { count: 0 })]).toEqual(['0 sessões']);
  // Spanish: CLDR's zero is plural there, and numbers group from five digits.
  i18n.setLocale('es-ES');
  await i18n.ready;
  expect([
    voice('cmd.open'),
    i18n.t('queue.sessions', { count: 0 }),
    i18n.t('queue.sessions', { count: 1 }),
    i18n.t('queue.sessions', { count: 12345 }),
  ]).toEqual(['Abrir la voz', '0 sesiones', '1 sesión', '12.345 sesiones']);
  i18n.setLocale('pt-BR');
  await i18n.ready;
  // A key made at run time that the catalog lacks reads as itself (callers show the code then).
  expect(voice('v.noSuchKey' as 'v.view')).toBe('v.noSuchKey');
  // A value left out reads as nothing, as before: never a thrown error.
  expect(i18n.t('ws.back')).toBe('Voltar para ');
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
