import { i18n } from '../../lib/i18n.svelte';

/** Settings strings, English and pt-BR (every key in both). */
export const st = i18n.register({
  en: {
    'set.view': 'Settings',
    'set.tabs': 'Settings sections',
    'set.tab.general': 'General',
    'set.tab.developer': 'Developer / integration',
    'set.language': 'Language',
    'set.language.system': 'As the system ({name})',
    'set.theme': 'Appearance',
    'set.sound': 'Sound',
    'set.sound.on': 'Play a sound when a customer writes in another session while the console is in front',
    'set.live': 'Live updates',
    'set.live.on': 'Receive the service\'s events as they happen (uncheck to pause them; the console then reads nothing until you resume)',
    'set.theme.system': 'As the system',
    'set.theme.light': 'Light',
    'set.theme.dark': 'Dark',
    'set.cmd.language': 'Switch the language to {name}',
    'set.cmd.theme': 'Use the {name} appearance',
    'set.cmd.open': 'Open the settings',
    'set.group': 'Settings',
  },
  'pt-BR': {
    'set.view': 'Configurações',
    'set.tabs': 'Seções das configurações',
    'set.tab.general': 'Geral',
    'set.tab.developer': 'Desenvolvimento / integração',
    'set.language': 'Idioma',
    'set.language.system': 'Como o sistema ({name})',
    'set.theme': 'Aparência',
    'set.sound': 'Som',
    'set.sound.on': 'Tocar um som quando um cliente escreve em outra sessão com o console em primeiro plano',
    'set.live': 'Atualizações ao vivo',
    'set.live.on': 'Receber os eventos do serviço na hora (desmarque para pausá-los; o console não lê nada até você retomar)',
    'set.theme.system': 'Como o sistema',
    'set.theme.light': 'Clara',
    'set.theme.dark': 'Escura',
    'set.cmd.language': 'Mudar o idioma para {name}',
    'set.cmd.theme': 'Usar a aparência {name}',
    'set.cmd.open': 'Abrir as configurações',
    'set.group': 'Configurações',
  },
});

/** Each language named in itself, so a user can always find their own. */
export const LANGUAGE_NAMES = { 'pt-BR': 'Português (Brasil)', en: 'English' } as const;
