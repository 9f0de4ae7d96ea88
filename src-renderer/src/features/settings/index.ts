import type { ConsoleFeature } from '../../lib/feature';
import { lazy, views } from '../../lib/views.svelte';
import { i18n, LANGUAGES } from '../../lib/i18n.svelte';
import { theme, THEMES } from '../../lib/theme.svelte';
import { SettingsNav } from '../../lib/settings-nav.svelte';
import { frontStore } from '../../lib/scope.svelte';
import { st, LANGUAGE_NAMES } from './strings';

const themeWord: Record<(typeof THEMES)[number], () => string> = {
  system: () => st('set.theme.system'),
  light: () => st('set.theme.light'),
  dark: () => st('set.theme.dark'),
};
export const settingsFeature: ConsoleFeature = {
  id: 'settings',
  views: [{ id: 'settings', title: () => st('set.view'), icon: '⚙', order: 90, component: lazy(() => import('./SettingsView.svelte')) }],
  commands: [
    {
      id: 'settings.open',
      title: () => st('set.cmd.open'),
      group: 'Settings',
      run: () => {
        const nav = frontStore(SettingsNav);
        if (nav) nav.tab = 'general';
        views.show('settings');
      },
    },
    ...LANGUAGES.map((l) => ({
      id: `settings.language.${l}`,
      title: () => st('set.cmd.language', { name: LANGUAGE_NAMES[l] }),
      group: 'Settings',
      enabled: () => i18n.locale !== l,
      run: () => i18n.choose(l),
    })),
    ...THEMES.map((c) => ({
      id: `settings.theme.${c}`,
      // "As the system" does not fit "Use the … appearance": the system choice has its own words.
      title: () => (c === 'system' ? st('set.cmd.themeSystem') : st('set.cmd.theme', { name: themeWord[c]().toLowerCase() })),
      group: 'Settings',
      enabled: () => theme.choice !== c,
      run: () => theme.choose(c),
    })),
  ],
};
