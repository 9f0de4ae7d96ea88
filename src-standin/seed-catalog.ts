/**
 * The demo's configuration and side records: tickets, suggestions, canned replies, message
 * templates, pause reasons, customer attributes, bots, the work schedule and holidays, the
 * cognition service, the web chat widgets and the outbound campaign.
 */
import { templateParameterCount } from '../src-shared/template';
import { intBetween, pick } from './prng';
import type { Rec } from './query-engine';
import { CANNED_REPLIES, CITIES, GENERAL_SUGGESTIONS, TICKET_TITLES } from './texts';
import { ascii, created, DAY, DEMO_TICKET_ID, HOUR, iso, money, TICKET_PREFIX, type SeedContext } from './seed-base';
import type { Customer } from './seed-org';

const TICKET_STATUSES = ['OPEN', 'IN_PROGRESS', 'WAITING_CUSTOMER', 'RESOLVED', 'CLOSED'];
const TICKET_PRIORITIES = ['LOW', 'MEDIUM', 'HIGH', 'URGENT'];

const HSM: Array<[string, string, string]> = [
  ['confirmacao_pedido', 'Confirmação de pedido', 'Olá {{1}}, seu pedido {{2}} foi confirmado e será entregue até {{3}}.'],
  ['lembrete_boleto', 'Lembrete de vencimento', 'Olá {{1}}, o boleto de {{2}} vence em {{3}}. Evite juros pagando em dia.'],
  ['retorno_atendimento', 'Retomar conversa', 'Olá {{1}}, aqui é {{2}} da Vila Serena. Podemos continuar o seu atendimento?'],
  ['pesquisa_nps', 'Pesquisa de satisfação', 'Olá {{1}}, de 0 a 10, quanto você recomendaria a Vila Serena a um amigo?'],
  ['codigo_rastreio', 'Código de rastreio', 'Olá {{1}}, o código de rastreio do pedido {{2}} é {{3}}.'],
];

const PAUSES: Array<[string, number]> = [
  ['Almoço', 60],
  ['Café', 15],
  ['Banheiro', 10],
  ['Treinamento', 120],
  ['Reunião', 60],
  ['Feedback com supervisor', 30],
];

const ATTRIBUTES = ['Plano', 'Cidade', 'Cliente VIP', 'Canal preferido'];

const WORK_DAYS: Array<[number, string, string]> = [
  [1, '08:00', '20:00'],
  [2, '08:00', '20:00'],
  [3, '08:00', '20:00'],
  [4, '08:00', '20:00'],
  [5, '08:00', '20:00'],
  [6, '09:00', '14:00'],
];

/** Tickets 4700..4749 with unique keys SUP-<id>; 4711 is the one the demo talks about. */
export function seedTickets(ctx: SeedContext, customers: Customer[]): void {
  const { rng, c, sessions } = ctx;
  for (let k = 0; k < 50; k++) {
    const id = 4700 + k;
    const demo = id === DEMO_TICKET_ID;
    const sessionId = Math.min(sessions, 1 + ((k * 7) % Math.max(1, sessions)));
    const cust = customers[(k * 13) % customers.length]!;
    const title = demo ? 'Cobrança em duplicidade no boleto de março' : pick(rng, TICKET_TITLES);
    const at = ctx.now - intBetween(rng, 1, 60) * DAY;
    c.ticket.put({
      id,
      key: `${TICKET_PREFIX}-${id}`,
      title,
      status: demo ? 'IN_PROGRESS' : pick(rng, TICKET_STATUSES),
      priority: demo ? 'HIGH' : pick(rng, TICKET_PRIORITIES),
      projectId: k % 2 === 0 ? 10 : 20,
      description: demo
        ? `${cust.name} (CPF ${cust.cpf}) foi cobrado duas vezes no boleto de março, ${money(18990)} cada. Contato: ${cust.email}.`
        : `Aberto a partir do atendimento ${sessionId}. Cliente ${cust.name}, e-mail ${cust.email}.`,
      requester: cust.rec.name,
      sessionId,
      createdAt: iso(at),
      updatedAt: iso(at + intBetween(rng, 1, 48) * HOUR),
    });
    const s = c.userSession.get(sessionId);
    if (s && s.ticketId == null) c.userSession.put({ ...s, ticketId: id });
  }
}

/** Suggestions not tied to a session, canned replies and the approved message templates. */
export function seedReplies(ctx: SeedContext, groupByName: Map<string, Rec>, firstSuggestionId: number): void {
  const { c, setupAt } = ctx;
  let suggestionId = firstSuggestionId;
  for (const text of GENERAL_SUGGESTIONS)
    c.chatSuggestion.put({ id: suggestionId++, session: null, suggestion: text, createdAt: iso(setupAt) });
  CANNED_REPLIES.forEach((m, k) => {
    c.messageBundleGroup.put({
      id: k + 1,
      code: m.code,
      description: m.description,
      text: m.text,
      locale: 'pt_BR',
      use: 'CHAT',
      group: m.group ? { id: groupByName.get(m.group)!.id } : null,
      ...created(setupAt),
    });
  });
  const groups = [...groupByName.values()];
  HSM.forEach(([elementName, description, template], k) => {
    c.hsmTemplate.put({
      id: k + 1,
      elementName,
      description,
      template,
      language: 'pt_BR',
      nameSpace: 'vila_serena_ns',
      active: true,
      parameterCount: templateParameterCount(template),
      mediaParameterCount: 0,
      ...created(setupAt),
    });
    for (const g of groups) {
      if (k === 1 && g.name !== 'Financeiro') continue;
      c.hsmTemplateGroup.put({ hsmTemplateGroupId: { groupConfId: g.id, hsmTemplateId: k + 1 }, hsmTemplate: { id: k + 1 } });
    }
  });
}

export function seedPauseReasons(ctx: SeedContext): void {
  PAUSES.forEach(([value, pauseTime], k) => {
    ctx.c.pauseReason.put({
      id: k + 1,
      value,
      pauseTime,
      active: true,
      controlPauseTime: pauseTime <= 30,
      notifySupervisor: pauseTime >= 60,
      pauseChat: true,
      pauseVoice: true,
      pauseChatByVoice: false,
      ...created(ctx.setupAt),
    });
  });
}

/** Attributes, the first 40 customers' plan and city, and the first sessions' attribute history. */
export function seedAttributes(ctx: SeedContext, customers: Customer[]): void {
  const { c, rng, setupAt } = ctx;
  ATTRIBUTES.forEach((description, k) => c.attribute.put({ id: k + 1, description, active: true, ...created(setupAt) }));
  let uaId = 1;
  for (const cust of customers.slice(0, 40)) {
    c.userAttribute.put({
      id: uaId++,
      attribute: { id: 1 },
      user: { id: cust.rec.id },
      value: pick(rng, ['Básico', 'Plus', 'Premium']),
      ...created(setupAt),
    });
    c.userAttribute.put({ id: uaId++, attribute: { id: 2 }, user: { id: cust.rec.id }, value: pick(rng, CITIES), ...created(setupAt) });
  }
  for (let k = 1; k <= Math.min(10, ctx.sessions); k++) {
    c.userAttributeHistory.put({ userAttributesHistId: { sessionId: k, userAttributesId: k }, ...created(ctx.now - k * HOUR, 'system') });
  }
}

/** Two bots, and the first sessions' triage tags and answers. */
export function seedBots(ctx: SeedContext): void {
  const { c, setupAt } = ctx;
  c.bot.put({ id: 1, active: true, external: false, survey: null, botTree: { id: 1, version: 3 }, agent: null, ...created(setupAt) });
  c.bot.put({ id: 2, active: true, external: false, survey: 1, botTree: { id: 2, version: 1 }, agent: null, ...created(setupAt) });
  for (let k = 1; k <= Math.min(30, ctx.sessions); k++) {
    const s = c.userSession.get(k)!;
    const topic = (JSON.parse(String(s.properties)) as { topic: string }).topic;
    c.botTag.put({
      id: k,
      bot: { id: 1 },
      session: { id: k },
      tag: `intencao:${ascii(topic).replace(/\s+/g, '-')}`,
      message: 'Triagem automática',
      createdAt: s.createdAt,
      createdBy: 'bot',
    });
    c.botAnswer.put({ id: k, answer: String(1 + (k % 3)), botQuestions: { id: 1, seq: 1 }, session: { id: k } });
  }
}

/** Business hours Monday to Saturday, and two holidays. */
export function seedSchedule(ctx: SeedContext): void {
  const { c } = ctx;
  WORK_DAYS.forEach(([dayCode, openTime, closeTime]) => {
    c.workSchedule.put({
      id: dayCode,
      dayCode,
      openTime,
      closeTime,
      name: `Dia ${dayCode}`,
      scheduleName: 'Horário comercial',
      active: true,
      ...created(ctx.setupAt),
    });
  });
  c.holidayOperation.put({
    holidayOperationId: { holidayId: 1, operationId: 1 },
    holiday: { id: 1, name: 'Natal', date: '12-25' },
    operations: [{ id: 1 }],
  });
  c.holidayOperation.put({
    holidayOperationId: { holidayId: 2, operationId: 1 },
    holiday: { id: 2, name: 'Tiradentes', date: '04-21' },
    operations: [{ id: 1 }],
  });
}

/** The cognition service and one web chat widget per group. */
export function seedIntegrations(ctx: SeedContext, groups: Rec[]): void {
  const { c, setupAt } = ctx;
  c.cognition.put({
    id: 1,
    name: 'Assistente de respostas',
    type: 'LLM',
    endPoint: 'https://llm.invalid/v1',
    appId: 'vila-serena',
    appKey: 'sbx-app-key',
    userName: 'standin',
    password: 'sbx-password',
    version: '1',
    createdAt: iso(setupAt),
    createdBy: 'admin',
  });
  for (const g of groups) {
    // The groups were made with a numeric id and a name.
    const { id: gid, name } = g as { id: number; name: string };
    c.chatWebConfiguration.put({
      id: g.id,
      chatGroupConf: { id: g.id },
      token: `web-${gid}-${(ctx.seed >>> 0).toString(36)}`,
      initialMessage: `Olá! Bem-vindo ao ${name} da Vila Serena.`,
      configuration: { color: '#2b6cb0', position: 'right' },
      cssScript: '',
      htmlScript: '',
      jsScript: '',
      ...created(setupAt),
    });
  }
}

/** Ten reminders of an outbound campaign, the last two failed. */
export function seedDirectMessages(ctx: SeedContext, customers: Customer[]): void {
  for (let k = 1; k <= 10; k++) {
    const cust = customers[k % customers.length]!;
    const at = ctx.now - k * DAY;
    const sent = k <= 8;
    ctx.c.directMessage.put({
      id: k,
      channel: k % 2 === 0 ? 'sms' : 'chatApp',
      campaignName: 'Lembrete de boleto',
      description: 'Envio ativo de lembrete',
      message: `Olá ${cust.first}, o boleto de ${money(12990 + k * 1000)} vence amanhã.`,
      phoneNumber: cust.phone,
      email: cust.email,
      user: { id: cust.rec.id },
      userId: cust.rec.id,
      groupConfId: 2,
      groupName: 'Financeiro',
      sendGroupConfId: 2,
      senderUserId: 2,
      status: sent ? 'SENT' : 'FAILED',
      sendTimestamp: iso(at),
      sentAt: sent ? iso(at + 2000) : null,
      dispatchId: `DSP-${1000 + k}`,
      generatedSession: false,
      createdAt: iso(at),
      createdBy: 'juliana.martins',
      updatedAt: iso(at + 2000),
    });
  }
}
