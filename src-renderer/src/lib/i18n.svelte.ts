/** pt-BR and English; pt-BR when the system locale is Portuguese. */
const en = {
  'app.title': 'Agent console',
  'welcome.heading': 'Welcome to the agent console',
  'welcome.lead': 'Answer every channel from one place. Pick where to work:',
  'welcome.demo': 'Open the demo workspace',
  'welcome.demoHint': 'A local service with sample customers, sessions and a customer simulator. Nothing leaves this machine.',
  'welcome.connect': 'Connect to a service',
  'welcome.connectHint': 'Your company\'s service address and the access token from its commercial team.',
  'connect.baseUrl': 'Service address',
  'connect.token': 'Access token',
  'connect.userName': 'Your user name (optional)',
  'identity.title': 'Who are you on this service?',
  'identity.hint': 'Pick yourself: sessions assigned to you show under Mine, and you can accept new ones. The choice is kept for this workspace.',
  'identity.search': 'Search attendants',
  'identity.list': 'Attendants',
  'identity.none': 'No attendant matches.',
  'connect.allowWeak': 'Keep the token with weak protection on this machine',
  'connect.submit': 'Connect',
  'connect.checking': 'Checking…',
  'vault.weak': 'This machine has no keyring: the token can only be stored with weak protection.',
  'vault.unavailable': 'Encryption is unavailable: you will sign in again at every start.',
  'queue.heading': 'Sessions',
  'queue.waiting': 'Waiting',
  'queue.mine': 'Mine',
  'queue.pending': 'Pending',
  'queue.others': 'Others',
  'queue.empty': 'No sessions here.',
  'queue.loading': 'Loading sessions…',
  'queue.refresh': 'Refresh',
  'queue.fetched': 'Updated {time}',
  'queue.filter': 'Filter sessions',
  'queue.sessions': '{count} sessions',
  'queue.pick': 'Pick a session from the queue to read and answer it.',
  'session.waitingFor': 'waiting {duration}',
  'account.signOut': 'Sign out',
  'account.demo': 'Demo workspace',
  'token.refused': 'The service refused your token. Sign in again.',
} as const;

type CoreKey = keyof typeof en;

const ptBR: Record<CoreKey, string> = {
  'app.title': 'Console do atendente',
  'welcome.heading': 'Boas-vindas ao console do atendente',
  'welcome.lead': 'Atenda todos os canais em um só lugar. Escolha onde trabalhar:',
  'welcome.demo': 'Abrir o espaço de demonstração',
  'welcome.demoHint': 'Um serviço local com clientes, sessões de exemplo e um simulador de clientes. Nada sai desta máquina.',
  'welcome.connect': 'Conectar a um serviço',
  'welcome.connectHint': 'O endereço do serviço da sua empresa e o token de acesso fornecido pelo time comercial.',
  'connect.baseUrl': 'Endereço do serviço',
  'connect.token': 'Token de acesso',
  'connect.userName': 'Seu usuário (opcional)',
  'identity.title': 'Quem é você neste serviço?',
  'identity.hint': 'Escolha seu nome: as sessões atribuídas a você aparecem em Minhas, e você pode aceitar novas. A escolha fica guardada para este espaço de trabalho.',
  'identity.search': 'Buscar atendentes',
  'identity.list': 'Atendentes',
  'identity.none': 'Nenhum atendente encontrado.',
  'connect.allowWeak': 'Guardar o token com proteção fraca nesta máquina',
  'connect.submit': 'Conectar',
  'connect.checking': 'Verificando…',
  'vault.weak': 'Esta máquina não tem chaveiro: o token só pode ser guardado com proteção fraca.',
  'vault.unavailable': 'Criptografia indisponível: você entrará novamente a cada início.',
  'queue.heading': 'Sessões',
  'queue.waiting': 'Aguardando',
  'queue.mine': 'Minhas',
  'queue.pending': 'Pendentes',
  'queue.others': 'Outras',
  'queue.empty': 'Nenhuma sessão aqui.',
  'queue.loading': 'Carregando sessões…',
  'queue.refresh': 'Atualizar',
  'queue.fetched': 'Atualizado às {time}',
  'queue.filter': 'Filtrar sessões',
  'queue.sessions': '{count} sessões',
  'queue.pick': 'Escolha uma sessão da fila para ler e responder.',
  'session.waitingFor': 'aguardando há {duration}',
  'account.signOut': 'Sair',
  'account.demo': 'Espaço de demonstração',
  'token.refused': 'O serviço recusou seu token. Entre novamente.',
};

/** Strings of one feature, in both languages (every key in both). */
export interface Strings<K extends string> {
  en: Record<K, string>;
  'pt-BR': Record<K, string>;
}

class I18n {
  locale = $state('en');
  private tables: { en: Record<string, string>; 'pt-BR': Record<string, string> } = { en: { ...en }, 'pt-BR': { ...ptBR } };

  setLocale(systemLocale: string): void {
    this.locale = systemLocale.toLowerCase().startsWith('pt') ? 'pt-BR' : 'en';
    document.documentElement.lang = this.locale;
  }

  /** Each feature registers its strings once, at import. Returns a typed `t` for its keys. */
  register<K extends string>(strings: Strings<K>): (key: K, params?: Record<string, string | number>) => string {
    Object.assign(this.tables.en, strings.en);
    Object.assign(this.tables['pt-BR'], strings['pt-BR']);
    return (key, params) => this.t(key, params);
  }

  t(key: string, params: Record<string, string | number> = {}): string {
    const table = this.locale === 'pt-BR' ? this.tables['pt-BR'] : this.tables.en;
    const text = table[key] ?? this.tables.en[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? ''));
  }
}

export const i18n = new I18n();
export const t = (key: CoreKey, params?: Record<string, string | number>) => i18n.t(key, params);
