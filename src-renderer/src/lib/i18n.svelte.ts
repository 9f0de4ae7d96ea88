/**
 * pt-BR and English: the user's choice (kept in this profile's storage), else pt-BR when the
 * system locale is Portuguese. Plurals through Intl.PluralRules: a `{count}` string may have
 * `key.one`, `key.few`... forms beside its `key` (the "other" form).
 */
const en = {
  'app.title': 'Agent console',
  'welcome.heading': 'Welcome to the agent console',
  'welcome.lead': 'Answer every channel from one place. Pick where to work:',
  'welcome.demo': 'Open the demo workspace',
  'welcome.demoSupervisor': 'Open it as the supervisor',
  'welcome.demoHint': 'A local service with sample customers, sessions and a customer simulator. Nothing leaves this machine.',
  'welcome.connect': 'Connect to a service',
  'welcome.connectHint': "Your company's service address and the access token from its commercial team.",
  'connect.baseUrl': 'Service address',
  'connect.token': 'Access token',
  'connect.userName': 'Your user name (optional)',
  'identity.title': 'Who are you on this service?',
  'identity.hint':
    'The service did not say whose token this is. Pick yourself (attendants, supervisors and administrators are listed): sessions assigned to you show under Mine, and you can accept new ones. The choice is kept for this workspace.',
  'identity.search': 'Search people',
  'identity.list': 'People on this service',
  'identity.none': 'Nobody matches.',
  'connect.allowWeak': 'Keep the token with weak protection on this machine',
  'connect.submit': 'Connect',
  'connect.checking': 'Checking…',
  'vault.weak': 'This machine has no keyring: the token can only be stored with weak protection.',
  'vault.unavailable': 'Encryption is unavailable: you will sign in again at every start.',
  'vault.weakNotice':
    'No OS keyring is reachable: secrets are encrypted with a key kept in your profile folder, so anyone who can read that folder can read them.',
  'queue.heading': 'Sessions',
  'queue.waiting': 'Waiting',
  'queue.mine': 'Mine',
  'queue.others': 'Others',
  'queue.snoozed': 'Snoozed',
  'queue.empty': 'No sessions here.',
  'queue.loading': 'Loading sessions…',
  'queue.refresh': 'Refresh',
  'queue.fetched': 'Updated {time}',
  'queue.filter': 'Filter sessions',
  'queue.sessions': '{count} sessions',
  'queue.sessions.one': '{count} session',
  'queue.pick': 'Pick a session from the queue to read and answer it.',
  'session.waitingFor': 'waiting {duration}',
  'account.signOut': 'Sign out',
  'account.demo': 'Demo workspace',
  'account.demoAs': 'See the demo workspace as',
  'account.demoAgent': 'The attendant',
  'account.demoSupervisor': 'The supervisor',
  'token.refused': 'The service refused your token. Sign in again.',
  'account.signedInAs': 'Signed in as',
  'nav.views': 'Views',
  'shell.language': 'Language',
  'shell.dismissKeyring': 'Understood, hide this',
  'shell.setAside': 'The console could not read {file} and set it aside as {keptAs}; it started without it.',
  'shell.toDark': 'Switch to the dark appearance',
  'shell.toLight': 'Switch to the light appearance',
  'shell.viewFailed': 'This view could not be loaded. Restart the console to try again.',
  'ws.list': 'Workspaces',
  'ws.add': 'Add a workspace',
  'ws.addShort': 'Add',
  'ws.addHeading': 'Add a workspace',
  'ws.addLead': 'Connect another service account, or open the demo workspace beside yours. Each keeps its own sessions, notes and token.',
  'ws.back': 'Back to {name}',
  'ws.others': 'Your other workspaces',
  'ws.demo': 'Demo',
  'ws.unread': '{name}: {count} sessions with unread messages',
  'ws.unread.one': '{name}: {count} session with unread messages',
  'ws.needsMe': 'Needs me',
  'ws.needsMeHeading': 'Needs me, in every workspace',
  'ws.needsMeHint': 'Your sessions where the customer waits for you, and customers waiting for an attendant, nearest SLA first.',
  'ws.needsMeEmpty': 'Nothing needs you right now.',
  'ws.needsMeMore': "{count} more, less urgent, in the workspaces' queues.",
  'ws.reason.unread': '{count} unread',
  'ws.reason.unread.one': '{count} unread',
  'ws.reason.reply': 'Waiting for your reply',
  'ws.reason.waiting': 'Waiting for an attendant',
  'ws.sla.late': 'SLA passed {duration} ago',
  'ws.sla.left': 'SLA in {duration}',
  'ws.signOutOf': 'Sign out of {name}',
  'ws.openIn': 'Open in {name}',
  'ws.mentions': 'Mentions of you',
  'ws.mentioned': '{who} mentioned you',
  'ws.mentionSession': 'Session #{id}',
  'unreadable.note': '{count} records could not be read and are not shown (details in the log).',
  'unreadable.note.one': '{count} record could not be read and is not shown (details in the log).',
  'unreadable.first': 'The first: {what}',
} as const;

type CoreKey = keyof typeof en;

const ptBR: Record<CoreKey, string> = {
  'app.title': 'Console do atendente',
  'welcome.heading': 'Boas-vindas ao console do atendente',
  'welcome.lead': 'Atenda todos os canais em um só lugar. Escolha onde trabalhar:',
  'welcome.demo': 'Abrir o espaço de demonstração',
  'welcome.demoSupervisor': 'Abrir como supervisora',
  'welcome.demoHint': 'Um serviço local com clientes, sessões de exemplo e um simulador de clientes. Nada sai desta máquina.',
  'welcome.connect': 'Conectar a um serviço',
  'welcome.connectHint': 'O endereço do serviço da sua empresa e o token de acesso fornecido pelo time comercial.',
  'connect.baseUrl': 'Endereço do serviço',
  'connect.token': 'Token de acesso',
  'connect.userName': 'Seu usuário (opcional)',
  'identity.title': 'Quem é você neste serviço?',
  'identity.hint':
    'O serviço não disse de quem é este token. Escolha seu nome (atendentes, supervisores e administradores aparecem na lista): as sessões atribuídas a você aparecem em Minhas, e você pode aceitar novas. A escolha fica guardada para este espaço de trabalho.',
  'identity.search': 'Buscar pessoas',
  'identity.list': 'Pessoas neste serviço',
  'identity.none': 'Ninguém encontrado.',
  'connect.allowWeak': 'Guardar o token com proteção fraca nesta máquina',
  'connect.submit': 'Conectar',
  'connect.checking': 'Verificando…',
  'vault.weak': 'Esta máquina não tem chaveiro: o token só pode ser guardado com proteção fraca.',
  'vault.unavailable': 'Criptografia indisponível: você entrará novamente a cada início.',
  'vault.weakNotice':
    'Nenhum chaveiro do sistema está disponível: os segredos são cifrados com uma chave guardada na pasta do seu perfil, e quem puder ler essa pasta poderá lê-los.',
  'queue.heading': 'Sessões',
  'queue.waiting': 'Aguardando',
  'queue.mine': 'Minhas',
  'queue.others': 'Outras',
  'queue.snoozed': 'Adiadas',
  'queue.empty': 'Nenhuma sessão aqui.',
  'queue.loading': 'Carregando sessões…',
  'queue.refresh': 'Atualizar',
  'queue.fetched': 'Atualizado às {time}',
  'queue.filter': 'Filtrar sessões',
  'queue.sessions': '{count} sessões',
  'queue.sessions.one': '{count} sessão',
  'queue.pick': 'Escolha uma sessão da fila para ler e responder.',
  'session.waitingFor': 'aguardando há {duration}',
  'account.signOut': 'Sair',
  'account.demo': 'Espaço de demonstração',
  'account.demoAs': 'Ver o espaço de demonstração como',
  'account.demoAgent': 'A atendente',
  'account.demoSupervisor': 'A supervisora',
  'token.refused': 'O serviço recusou seu token. Entre novamente.',
  'account.signedInAs': 'Conectado como',
  'nav.views': 'Telas',
  'shell.language': 'Idioma',
  'shell.dismissKeyring': 'Entendi, ocultar',
  'shell.setAside': 'O console não conseguiu ler {file} e o guardou à parte como {keptAs}; iniciou sem ele.',
  'shell.toDark': 'Mudar para a aparência escura',
  'shell.toLight': 'Mudar para a aparência clara',
  'shell.viewFailed': 'Não foi possível carregar esta tela. Reinicie o console para tentar de novo.',
  'ws.list': 'Espaços de trabalho',
  'ws.add': 'Adicionar espaço',
  'ws.addShort': 'Adicionar',
  'ws.addHeading': 'Adicionar um espaço de trabalho',
  'ws.addLead':
    'Conecte outra conta de serviço, ou abra o espaço de demonstração ao lado do seu. Cada um guarda as próprias sessões, notas e token.',
  'ws.back': 'Voltar para {name}',
  'ws.others': 'Seus outros espaços',
  'ws.demo': 'Demo',
  'ws.unread': '{name}: {count} sessões com mensagens não lidas',
  'ws.unread.one': '{name}: {count} sessão com mensagens não lidas',
  'ws.needsMe': 'Precisa de mim',
  'ws.needsMeHeading': 'Precisa de mim, em todos os espaços',
  'ws.needsMeHint': 'Suas sessões em que o cliente espera por você, e clientes aguardando um atendente, o SLA mais próximo primeiro.',
  'ws.needsMeEmpty': 'Nada precisa de você agora.',
  'ws.needsMeMore': 'Mais {count}, menos urgentes, nas filas dos espaços.',
  'ws.reason.unread': '{count} não lidas',
  'ws.reason.unread.one': '{count} não lida',
  'ws.reason.reply': 'Aguardando sua resposta',
  'ws.reason.waiting': 'Aguardando um atendente',
  'ws.sla.late': 'SLA vencido há {duration}',
  'ws.sla.left': 'SLA em {duration}',
  'ws.signOutOf': 'Sair de {name}',
  'ws.openIn': 'Abrir em {name}',
  'ws.mentions': 'Menções a você',
  'ws.mentioned': '{who} mencionou você',
  'ws.mentionSession': 'Sessão #{id}',
  'unreadable.note': '{count} registros não puderam ser lidos e não aparecem (detalhes no log).',
  'unreadable.note.one': '{count} registro não pôde ser lido e não aparece (detalhes no log).',
  'unreadable.first': 'O primeiro: {what}',
};

/** Strings of one feature, in both languages (every key in both). */
export interface Strings<K extends string> {
  en: Record<K, string>;
  'pt-BR': Record<K, string>;
}

const core: Strings<CoreKey> = { en, 'pt-BR': ptBR };

export const LANGUAGES = ['pt-BR', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
const LANGUAGE_KEY = 'console.language';

function storedLanguage(): Language | null {
  try {
    const v = globalThis.localStorage?.getItem(LANGUAGE_KEY);
    return LANGUAGES.find((l) => l === v) ?? null;
  } catch {
    return null;
  }
}

export class I18n {
  #locale = $state<Language>('en');
  /** What the user picked in the console; null follows the system. */
  #chosen = $state<Language | null>(storedLanguage());

  get locale() {
    return this.#locale;
  }
  get chosen() {
    return this.#chosen;
  }
  #system: Language = 'en';

  setLocale(systemLocale: string): void {
    this.#system = systemLocale.toLowerCase().startsWith('pt') ? 'pt-BR' : 'en';
    this.#apply();
  }

  /** The in-app switch: remembered for the next start; null goes back to the system's. */
  choose(language: Language | null): void {
    this.#chosen = language;
    try {
      if (language) globalThis.localStorage?.setItem(LANGUAGE_KEY, language);
      else globalThis.localStorage?.removeItem(LANGUAGE_KEY);
    } catch {
      // Storage refused: the choice holds for this run.
    }
    this.#apply();
  }

  #apply(): void {
    this.#locale = this.#chosen ?? this.#system;
    // No page (or a stand-in without a root element) in the stores' unit tests.
    const root = globalThis.document?.documentElement;
    if (root) root.lang = this.#locale;
  }

  number(value: number, digits?: number): string {
    const o = digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits };
    return new Intl.NumberFormat(this.#locale, o).format(value);
  }

  /** Formatters made so far, per language and options: making one costs far more than using it (a long thread formats thousands of times). */
  readonly #dateFormats = new Map<string, Intl.DateTimeFormat>();

  /** A date and time in the interface language ('' for nothing or not a date). */
  dateTime(value: string | number | null | undefined, o: Intl.DateTimeFormatOptions = { dateStyle: 'short', timeStyle: 'short' }): string {
    if (value === null || value === undefined) return '';
    const d = new Date(value);
    if (Number.isNaN(d.getTime())) return '';
    const key = `${this.#locale}|${JSON.stringify(o)}`;
    let f = this.#dateFormats.get(key);
    if (!f) {
      f = new Intl.DateTimeFormat(this.#locale, o);
      this.#dateFormats.set(key, f);
    }
    return f.format(d);
  }

  /**
   * A feature's own table: the returned `t` looks keys up there only, so two features may use
   * the same key without one hiding the other, and its keys are typed (a key missing in either
   * language fails the type check).
   */
  register<K extends string>(strings: Strings<K>): (key: K, params?: Record<string, string | number>) => string {
    return (key, params) => this.#format(strings, key, params);
  }

  /** The console's own strings (workspace, shell). */
  t(key: CoreKey, params: Record<string, string | number> = {}): string {
    return this.#format(core, key, params);
  }

  #format<K extends string>(strings: Strings<K>, key: K, params: Record<string, string | number> = {}): string {
    const table: Record<string, string> = this.#locale === 'pt-BR' ? strings['pt-BR'] : strings.en;
    const count = params.count;
    // CLDR puts 0 with 1 in Portuguese ("one"); Brazilian interfaces say "0 sessões".
    const plural = typeof count === 'number' ? (count === 0 ? 'other' : new Intl.PluralRules(this.#locale).select(count)) : null;
    const form = plural ? `${key}.${plural}` : null;
    const text = (form && table[form]) ?? table[key] ?? (strings.en as Record<string, string>)[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (_, name: string) => {
      const v = params[name];
      // Counts read as numbers of the language (1.234 in pt-BR); ids and other values as given.
      return name === 'count' && typeof v === 'number' ? this.number(v) : String(v ?? '');
    });
  }
}

export const i18n = new I18n();
export const t = (key: CoreKey, params?: Record<string, string | number>) => i18n.t(key, params);
