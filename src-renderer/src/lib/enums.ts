import { i18n } from './i18n.svelte';

/**
 * Words the service sends as codes (statuses, priorities, channel kinds, sentiments, operators),
 * as people read them in each language. Unknown codes read as words ("WAITING_CUSTOMER" ->
 * "Waiting customer") rather than as a code.
 */
const en: Record<string, string> = {
  OPEN: 'Open',
  CLOSED: 'Closed',
  IN_PROGRESS: 'In progress',
  WAITING_CUSTOMER: 'Waiting for the customer',
  RESOLVED: 'Resolved',
  PENDING: 'Pending',
  WAITING: 'Waiting',
  FINISHED: 'Finished',
  ANSWERED: 'Answered',
  SENT: 'Sent',
  FAILED: 'Failed',
  LOW: 'Low',
  MEDIUM: 'Medium',
  HIGH: 'High',
  URGENT: 'Urgent',
  CRITICAL: 'Critical',
  ONLINE: 'Online',
  OFFLINE: 'Offline',
  BUSY: 'Busy',
  PAUSED: 'Paused',
  AWAY: 'Away',
  POSITIVE: 'Positive',
  NEUTRAL: 'Neutral',
  NEGATIVE: 'Negative',
  MIXED: 'Mixed',
  CHATAPP: 'Chat app',
  EMAIL: 'E-mail',
  SMS: 'SMS',
  MESSENGER: 'Messenger',
  SOCIAL: 'Social network',
  VOICE: 'Voice',
  WEBCHAT: 'Web chat',
  AGENT: 'Attendant',
  SUPERVISOR: 'Supervisor',
  ADMINISTRATOR: 'Administrator',
  ADMIN: 'Administrator',
  CUSTOMER: 'Customer',
  BOT: 'Bot',
  INBOUND: 'Incoming',
  OUTBOUND: 'Outgoing',
  RINGING: 'Ringing',
  HANGUP: 'Hung up',
  AUDIO: 'Audio',
  VIDEO: 'Video',
};
const ptBR: Record<string, string> = {
  OPEN: 'Aberto',
  CLOSED: 'Encerrado',
  IN_PROGRESS: 'Em andamento',
  WAITING_CUSTOMER: 'Aguardando o cliente',
  RESOLVED: 'Resolvido',
  PENDING: 'Pendente',
  WAITING: 'Aguardando',
  FINISHED: 'Finalizado',
  ANSWERED: 'Atendido',
  SENT: 'Enviado',
  FAILED: 'Falhou',
  LOW: 'Baixa',
  MEDIUM: 'Média',
  HIGH: 'Alta',
  URGENT: 'Urgente',
  CRITICAL: 'Crítica',
  ONLINE: 'Disponível',
  OFFLINE: 'Desconectado',
  BUSY: 'Ocupado',
  PAUSED: 'Em pausa',
  AWAY: 'Ausente',
  POSITIVE: 'Positivo',
  NEUTRAL: 'Neutro',
  NEGATIVE: 'Negativo',
  MIXED: 'Misto',
  CHATAPP: 'Aplicativo de mensagens',
  EMAIL: 'E-mail',
  SMS: 'SMS',
  MESSENGER: 'Messenger',
  SOCIAL: 'Rede social',
  VOICE: 'Voz',
  WEBCHAT: 'Chat web',
  AGENT: 'Atendente',
  SUPERVISOR: 'Supervisor',
  ADMINISTRATOR: 'Administrador',
  ADMIN: 'Administrador',
  CUSTOMER: 'Cliente',
  BOT: 'Robô',
  INBOUND: 'Recebida',
  OUTBOUND: 'Realizada',
  RINGING: 'Chamando',
  HANGUP: 'Desligada',
  AUDIO: 'Áudio',
  VIDEO: 'Vídeo',
};

const codeOf = (value: string) =>
  value
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');

/** A known code as a word of the interface language; a name of the service's own as it is. */
export function knownLabel(value: string | null | undefined): string {
  if (!value) return '';
  return (i18n.locale === 'pt-BR' ? ptBR : en)[codeOf(value)] ?? value;
}

/** A service code as a word in the interface language; '' for null. */
export function enumLabel(value: string | null | undefined): string {
  if (!value) return '';
  const known = (i18n.locale === 'pt-BR' ? ptBR : en)[codeOf(value)];
  if (known) return known;
  const words = value
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
