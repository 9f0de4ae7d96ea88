import type { ResourceKey } from '../../../../src-shared/paths';
import type { Operator } from '../../../../src-shared/operators';
import { i18n } from '../../lib/i18n.svelte';

/** Resource names and query operators as supervisors read them, in both languages. */
const lt = i18n.register({
  en: {
    'res.agent': 'Agents', 'res.userSession': 'Sessions', 'res.userAttribute': 'User attributes', 'res.userAttributeHistory': 'User attribute history',
    'res.userAgent': 'User–agent links', 'res.botTag': 'Bot tags', 'res.sessionComment': 'Session notes', 'res.attendanceTimeReport': 'Attendance time report',
    'res.pauseReason': 'Pause reasons', 'res.message': 'Messages', 'res.messageBundleGroup': 'Canned replies', 'res.hsmTemplate': 'Message templates',
    'res.hsmTemplateGroup': 'Template groups', 'res.holidayOperation': 'Holidays', 'res.attribute': 'Attributes', 'res.bot': 'Bots', 'res.botAnswer': 'Bot answers',
    'res.call': 'Calls', 'res.callLogHistory': 'Call log', 'res.chatAnswer': 'Chat answers', 'res.chatWebConfiguration': 'Web chat configuration',
    'res.classification': 'Classifications', 'res.classificationService': 'Classified sessions', 'res.cognition': 'AI connections',
    'res.directMessage': 'Direct messages', 'res.workSchedule': 'Work schedules', 'res.user': 'Users',
    'op.EQ': 'is', 'op.EQNUM': 'equals the number', 'op.NEQ': 'is not', 'op.NEQNUM': 'is not the number', 'op.IS_FALSE': 'is false',
    'op.IS_TRUE': 'is true', 'op.LIKE': 'contains', 'op.NOT_LIKE': 'does not contain', 'op.IN': 'is one of', 'op.NOT_IN': 'is none of',
    'op.IS_NULL': 'is empty', 'op.NOT_NULL': 'is filled in', 'op.BEFORE': 'is before', 'op.AFTER': 'is after',
    'logic.AND': 'and', 'logic.OR': 'or',
  },
  'pt-BR': {
    'res.agent': 'Atendentes', 'res.userSession': 'Sessões', 'res.userAttribute': 'Atributos de usuário', 'res.userAttributeHistory': 'Histórico de atributos de usuário',
    'res.userAgent': 'Vínculos usuário–atendente', 'res.botTag': 'Etiquetas de robô', 'res.sessionComment': 'Notas de sessão', 'res.attendanceTimeReport': 'Relatório de tempo de atendimento',
    'res.pauseReason': 'Motivos de pausa', 'res.message': 'Mensagens', 'res.messageBundleGroup': 'Respostas prontas', 'res.hsmTemplate': 'Modelos de mensagem',
    'res.hsmTemplateGroup': 'Grupos de modelos', 'res.holidayOperation': 'Feriados', 'res.attribute': 'Atributos', 'res.bot': 'Robôs', 'res.botAnswer': 'Respostas de robô',
    'res.call': 'Chamadas', 'res.callLogHistory': 'Registro de chamadas', 'res.chatAnswer': 'Respostas de chat', 'res.chatWebConfiguration': 'Configuração do chat web',
    'res.classification': 'Classificações', 'res.classificationService': 'Sessões classificadas', 'res.cognition': 'Conexões de IA',
    'res.directMessage': 'Mensagens diretas', 'res.workSchedule': 'Escalas de trabalho', 'res.user': 'Usuários',
    'op.EQ': 'é', 'op.EQNUM': 'é igual ao número', 'op.NEQ': 'não é', 'op.NEQNUM': 'não é o número', 'op.IS_FALSE': 'é falso',
    'op.IS_TRUE': 'é verdadeiro', 'op.LIKE': 'contém', 'op.NOT_LIKE': 'não contém', 'op.IN': 'é um de', 'op.NOT_IN': 'não é nenhum de',
    'op.IS_NULL': 'está vazio', 'op.NOT_NULL': 'está preenchido', 'op.BEFORE': 'é antes de', 'op.AFTER': 'é depois de',
    'logic.AND': 'e', 'logic.OR': 'ou',
  },
});

export const resourceLabel = (k: ResourceKey): string => lt(`res.${k}`);
export const operatorLabel = (op: Operator): string => lt(`op.${op}`);
export const logicLabel = (logic: 'AND' | 'OR'): string => lt(`logic.${logic}`);
