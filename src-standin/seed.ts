/**
 * Deterministic demo data: a Brazilian retailer with three attendance groups, eight attendants,
 * sessions across every channel and state, and everything the console shows around them. The
 * same seed always yields the same records; dates are laid out backwards from `anchorMs`.
 */
import { randomBytes } from 'node:crypto';
import { createRng, intBetween, pick, type Rng } from './prng';
import type { Rec } from './query-engine';
import type { Store } from './store';
import { MEDIA, MEDIA_PATH } from './media';
import { fillPlaceholders, templateParameterCount } from '../src-shared/template';
import {
  CANNED_REPLIES,
  CITIES,
  EMAIL_DOMAINS,
  FIRST_NAMES,
  GENERAL_SUGGESTIONS,
  INTERNAL_NOTES,
  LAST_NAMES,
  NPS_COMMENTS,
  SCRIPTS,
  TICKET_TITLES,
  type Script,
} from './texts';

/** Channels a session can come from, stored in `userConnectedResource` (README: channel field). */
export const CHANNELS = ['chatApp', 'email', 'sms', 'messenger', 'social', 'voice'] as const;
export type Channel = (typeof CHANNELS)[number];
export const CHANNEL_IDS: Record<Channel, number> = { chatApp: 1, email: 2, sms: 3, messenger: 4, social: 5, voice: 6 };

export const NPS_SURVEY = 'nps-atendimento';
/** Chat answers to the survey's open question are numbered from here (scores keep the NPS answers' ids). */
const COMMENT_ANSWER_IDS = 10_000_000;
export const TICKET_PREFIX = 'SUP';
export const DEMO_TICKET_ID = 4711;

export interface SeedResult {
  tokens: { agent: string; supervisor: string; admin: string };
  demoAgent: { userName: string; id: number; name: string };
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The supervisor of the seeded operation: the supervisor token is theirs. */
export const SUPERVISOR_USER_NAME = 'juliana.martins';
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** CPF with valid check digits, formatted 000.000.000-00. */
export function makeCpf(rng: Rng): string {
  const d = Array.from({ length: 9 }, () => intBetween(rng, 0, 9));
  if (d.every((x) => x === d[0])) d[8] = (d[8]! + 1) % 10;
  for (const len of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += d[i]! * (len + 1 - i);
    const r = (sum * 10) % 11;
    d.push(r === 10 ? 0 : r);
  }
  const s = d.join('');
  return `${s.slice(0, 3)}.${s.slice(3, 6)}.${s.slice(6, 9)}-${s.slice(9)}`;
}

/** CNPJ with valid check digits, formatted 00.000.000/0000-00. */
export function makeCnpj(rng: Rng): string {
  const d = [...Array.from({ length: 8 }, () => intBetween(rng, 0, 9)), 0, 0, 0, 1];
  for (const weights of [
    [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
    [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
  ]) {
    const sum = weights.reduce((acc, w, i) => acc + w * d[i]!, 0);
    const r = sum % 11;
    d.push(r < 2 ? 0 : 11 - r);
  }
  const s = d.join('');
  return `${s.slice(0, 2)}.${s.slice(2, 5)}.${s.slice(5, 8)}/${s.slice(8, 12)}-${s.slice(12)}`;
}

export const money = (cents: number): string =>
  `R$ ${Math.floor(cents / 100).toLocaleString('pt-BR')},${String(cents % 100).padStart(2, '0')}`;

const ascii = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

export function fillScript(line: string, v: Record<string, string>): string {
  return fillPlaceholders(line, v);
}

/**
 * A user's token: random, never derived from the seed (a seed is public, so its tokens would be
 * too). The data set stays the same for a seed; the tokens are kept with it in the data folder.
 */
export function tokenFor(userName: string): string {
  return `sbx_${ascii(userName).replace(/[^a-z0-9]/g, '')}_${randomBytes(18).toString('base64url')}`;
}

const AGENTS: Array<{ name: string; status: string }> = [
  { name: 'Ana Souza', status: 'ONLINE' },
  { name: 'Bruno Lima', status: 'ONLINE' },
  { name: 'Carla Mendes', status: 'BUSY' },
  { name: 'Diego Ferreira', status: 'ONLINE' },
  { name: 'Eduarda Rocha', status: 'PAUSED' },
  { name: 'Felipe Santos', status: 'ONLINE' },
  { name: 'Gabriela Alves', status: 'OFFLINE' },
  { name: 'Henrique Costa', status: 'OFFLINE' },
];

export function seedStore(store: Store, opts: { seed: number; sessions: number; anchorMs: number }): SeedResult {
  const rng = createRng(opts.seed);
  const now = opts.anchorMs;
  const c = store.c;
  const created = (ms: number, by = 'admin'): Rec => ({ createdAt: iso(ms), createdBy: by, updatedAt: iso(ms), updatedBy: by });
  const setupAt = now - 400 * DAY;

  const companyCnpj = makeCnpj(rng);
  const company: Rec = {
    id: 1,
    active: true,
    companyName: 'Vila Serena Comércio de Eletrônicos Ltda',
    tradeName: 'Vila Serena',
    cnpj: companyCnpj,
    address: 'Avenida Paulista',
    number: '1578',
    complement: 'Conjunto 1203',
    neighborhood: 'Bela Vista',
    city: 'São Paulo',
    state: 'SP',
    cep: '01310-200',
    country: 'BR',
    defaultLocale: 'pt_BR',
    email: 'atendimento@vilaserena.com.br',
    nameContact: 'Juliana Martins',
    phoneContact: '+55 11 3555-0100',
    site: 'https://vilaserena.com.br',
    groupCompany: { id: 1, active: true, companyName: 'Grupo Vila Serena' },
    ...created(setupAt),
  };
  const operation: Rec = {
    id: 1,
    operationName: 'Operação Brasil',
    operationStatus: true,
    country: 'BR',
    defaultLocale: 'pt_BR',
    customerPortfolio: false,
    verifyHoliday: 'true',
    company,
    ...created(setupAt),
  };

  // Users: 1 admin, 2 supervisor, 3..10 attendants (3 is the demo agent), then customers.
  const DEMO_AGENT = 'ana.souza';
  const tokens = { admin: tokenFor('admin'), supervisor: tokenFor(SUPERVISOR_USER_NAME), agent: tokenFor(DEMO_AGENT) };
  const staff: Array<{ name: string; userName: string; typeUser: string; status: string; token: string }> = [
    { name: 'Roberto Teixeira', userName: 'admin', typeUser: 'ADMINISTRATOR', status: 'OFFLINE', token: tokens.admin },
    { name: 'Juliana Martins', userName: SUPERVISOR_USER_NAME, typeUser: 'SUPERVISOR', status: 'ONLINE', token: tokens.supervisor },
    ...AGENTS.map((a) => {
      const userName = ascii(a.name).replace(' ', '.');
      return {
        name: a.name,
        userName,
        typeUser: 'AGENT',
        status: a.status,
        token: userName === DEMO_AGENT ? tokens.agent : tokenFor(userName),
      };
    }),
  ];
  const profiles: Record<string, Rec> = {
    ADMINISTRATOR: { id: 1, name: 'Administrador', typeUser: 'ADMINISTRATOR', visible: true },
    SUPERVISOR: { id: 2, name: 'Supervisor', typeUser: 'SUPERVISOR', visible: true },
    AGENT: { id: 3, name: 'Atendente', typeUser: 'AGENT', visible: true },
    CUSTOMER: { id: 4, name: 'Cliente', typeUser: 'CUSTOMER', visible: false },
  };
  const attendants: Rec[] = [];
  staff.forEach((s, i) => {
    const id = i + 1;
    const agentId = s.typeUser === 'ADMINISTRATOR' ? null : i; // agent records 1..9
    c.user.put({
      id,
      name: s.name,
      displayName: s.name.split(' ')[0],
      userName: s.userName,
      email: `${s.userName}@vilaserena.com.br`,
      typeUser: s.typeUser,
      active: true,
      visible: true,
      accessKey: s.token,
      cpf: makeCpf(rng),
      country: 'BR',
      defaultLocale: 'pt_BR',
      phone: `+55 11 9${intBetween(rng, 1000, 9999)}-${intBetween(rng, 1000, 9999)}`,
      formal: false,
      firstAccess: false,
      usingMFA: false,
      operation: 'Operação Brasil',
      company: { id: 1, companyName: company.companyName, tradeName: company.tradeName, cnpj: companyCnpj },
      profile: profiles[s.typeUser],
      agent: agentId ? { id: agentId } : null,
      priority: 0,
      lastLogin: iso(now - intBetween(rng, 1, 600) * MIN),
      ...created(setupAt),
    });
    if (agentId) {
      c.agent.put({
        id: agentId,
        status: s.status,
        user: { id },
        department: s.typeUser === 'SUPERVISOR' ? 'Supervisão' : 'Atendimento',
        superAgent: s.typeUser === 'SUPERVISOR',
        virtualAgent: false,
        maxChatChannels: 6,
        agentAllHistory: s.typeUser === 'SUPERVISOR',
        agentAllHistoryOperation: false,
        agentAttendSimple: false,
        agentViewPhone: true,
        audioOn: true,
        pauseOnReceiveCall: true,
        attendanceServiceChannel: 'chatApp,email,sms,messenger,social,voice',
        extensionAttendance: String(2000 + agentId),
        loginAttendance: s.userName,
        ...created(setupAt),
      });
      c.userAgent.put({ associationId: { userId: id, agentId }, user: { id }, agent: { id: agentId }, ...created(setupAt) });
      if (s.typeUser === 'AGENT') attendants.push(c.user.get(id)!);
    }
  });
  const demo = c.user.get(3)!;

  // Classification trees, three levels deep.
  const trees: Record<string, Array<[string, string[]]>> = {
    'Atendimento Geral': [
      ['Pedidos', ['Atraso na entrega', 'Pedido incompleto', 'Alteração de endereço']],
      ['Trocas', ['Produto com defeito', 'Arrependimento']],
      ['Informações', ['Horário de funcionamento', 'Lojas físicas']],
    ],
    Financeiro: [
      ['Boleto', ['Segunda via', 'Pagamento não identificado']],
      ['Cartão', ['Cobrança em duplicidade', 'Estorno']],
      ['Reembolso', ['Frete', 'Cancelamento de pedido']],
    ],
    'Suporte Técnico': [
      ['Conexão', ['Internet lenta', 'Sem sinal']],
      ['Aplicativo', ['Acesso e senha', 'Erro ao pagar']],
      ['Equipamento', ['Roteador', 'Fone e acessórios']],
    ],
  };
  const groupDefs: Array<{ name: string; channels: Channel[]; sla: number; mandatory: boolean; media?: string }> = [
    { name: 'Atendimento Geral', channels: ['chatApp', 'messenger', 'social', 'email'], sla: 120, mandatory: false },
    // Finance takes documents only (boletos, invoices): the group whose acceptedMedias refuses a photo.
    { name: 'Financeiro', channels: ['chatApp', 'email', 'sms'], sla: 300, mandatory: true, media: 'text,document' },
    { name: 'Suporte Técnico', channels: ['chatApp', 'email', 'voice', 'social'], sla: 600, mandatory: true },
  ];
  const groupByName = new Map<string, Rec>();
  groupDefs.forEach((g, gi) => {
    const id = gi + 1;
    let nodeSeq = id * 100;
    const branches = trees[g.name] ?? [];
    const root: Rec = {
      id,
      nodeId: null,
      value: g.name,
      active: true,
      ...created(setupAt),
      children: branches.map(([label, leaves]) => {
        const mid = ++nodeSeq;
        return {
          id: mid,
          nodeId: id,
          value: label,
          active: true,
          ...created(setupAt),
          children: leaves.map((leaf) => ({ id: ++nodeSeq, nodeId: mid, value: leaf, active: true, children: [], ...created(setupAt) })),
        };
      }),
    };
    c.classification.put(root);
    const group: Rec = {
      id,
      name: g.name,
      active: true,
      visible: true,
      sla: g.sla,
      timeUnit: 'SECONDS',
      businessUnit: 'Varejo',
      broker: 'standin',
      channels: g.channels.map((ch) => ({ id: CHANNEL_IDS[ch], name: ch })),
      acceptedMedias: g.media ?? 'text,image,audio,document',
      classificationTree: { id },
      mandatoryClassificationTree: g.mandatory,
      mandatoryFinalAgent: false,
      defaultAgent: { id: 3 + gi },
      finalAgent: { id: 2 },
      inactivityAgent: null,
      inactivityAction: 'CLOSE',
      inactivityGroup: null,
      configInactivity: true,
      configInactivityTime: 30,
      agentExpireSession: false,
      agentReplyMaxDelay: 300,
      queueControl: 'FIFO',
      queueScheduleStrategy: false,
      redirectAttendanceAgentDisconnect: true,
      skipQueue: false,
      onlyBot: false,
      onlyReceptive: false,
      offlineAttendance: false,
      pausedTransfer: false,
      pending: true,
      timePending: 1440,
      timeMaxAttendance: 3600,
      interactQueueDelay: 5,
      limitTimeWaitingForInteract: 600,
      warningRatio: 80,
      scheduleName: 'Horário comercial',
      scheduleActiveSendTime: 60,
      gatewayQueue: `fila-${ascii(g.name).replace(/\s+/g, '-')}`,
      survey: 1,
      operation,
      chatAppActiveShipping: g.channels.includes('chatApp'),
      chatAppPartner: true,
      chatAppPartnerInactivity: 1440,
      emailActiveShipping: g.channels.includes('email'),
      smsActiveShipping: g.channels.includes('sms'),
      smsPartnerFlag: false,
      messengerActiveShipping: g.channels.includes('messenger'),
      pushShipping: false,
      uraActiveShipping: false,
      voiceActiveShipping: g.channels.includes('voice'),
      ...created(setupAt),
    };
    c.group.put(group);
    groupByName.set(g.name, group);
  });

  // Customers: enough to recur across sessions, few enough to seed 100k sessions fast.
  const customerCount = Math.max(60, Math.ceil(opts.sessions / 8));
  const customers: Array<{ rec: Rec; name: string; first: string; email: string; phone: string; cpf: string; handle: string }> = [];
  const firstCustomerId = staff.length + 1;
  for (let i = 0; i < customerCount; i++) {
    const first = pick(rng, FIRST_NAMES);
    const last = pick(rng, LAST_NAMES);
    const id = firstCustomerId + i;
    const local = `${ascii(first)}.${ascii(last)}${i >= FIRST_NAMES.length ? i : ''}`;
    const email = `${local}@${pick(rng, EMAIL_DOMAINS)}`;
    const phone = `+55 ${intBetween(rng, 11, 99)} 9${intBetween(rng, 1000, 9999)}-${intBetween(rng, 1000, 9999)}`;
    const cpf = makeCpf(rng);
    const rec: Rec = {
      id,
      name: `${first} ${last}`,
      displayName: first,
      userName: email,
      email,
      phone,
      cpf,
      typeUser: 'CUSTOMER',
      active: true,
      visible: false,
      country: 'BR',
      defaultLocale: 'pt_BR',
      originUser: 'chat',
      profile: profiles.CUSTOMER,
      createdFromSurvey: false,
      createdAt: iso(setupAt + i * MIN),
      createdBy: 'system',
    };
    c.user.put(rec);
    customers.push({ rec, name: `${first} ${last}`, first, email, phone, cpf, handle: `@${local}` });
  }

  const scriptsByGroup = new Map<string, Script[]>();
  for (const s of SCRIPTS) scriptsByGroup.set(s.group, [...(scriptsByGroup.get(s.group) ?? []), s]);
  const groups = [...groupByName.values()];
  const usesCnpj = new Set(SCRIPTS.filter((sc) => sc.lines.some((l) => l.includes('{cnpj}'))));
  const workingAgents = attendants.filter((a) => {
    const ag = c.agent.get((a.agent as Rec).id)!;
    return ag.status !== 'OFFLINE';
  });

  let messageId = 1,
    commentId = 1,
    callSeq = 1,
    reportId = 1,
    npsId = 1,
    suggestionId = 1,
    classServiceId = 1,
    callLogId = 1;
  let activeCount = 0;
  /** The demo attendant's first conversation: the customer sends a photo, a voice note and a document in it. */
  let mediaSession: { id: number; at: number; customer: unknown; agent: unknown } | null = null;
  const detailed = Math.min(opts.sessions, 2000);
  for (let i = 0; i < opts.sessions; i++) {
    const id = i + 1;
    const group = groups[i % 3 === 0 ? 0 : intBetween(rng, 0, 2)]!;
    const groupChannels = (group.channels as Array<{ name: Channel }>).map((ch) => ch.name);
    const channel = pick(rng, groupChannels);
    const script = pick(rng, scriptsByGroup.get(group.name as string)!);
    const cust = customers[intBetween(rng, 0, customers.length - 1)]!;
    const r = rng();
    const state = r < 0.15 ? 'waiting' : r < 0.45 ? 'active' : 'closed';
    const ageMs =
      state === 'waiting'
        ? intBetween(rng, 1, 40) * MIN
        : state === 'active'
          ? intBetween(rng, 10, 180) * MIN
          : intBetween(rng, 200, 30 * 24 * 60) * MIN;
    const createdAt = now - ageMs;
    // Every third active session goes to the demo agent so the demo opens with work to do.
    const agentUser =
      state === 'waiting'
        ? null
        : state === 'active' && activeCount++ % 3 === 0
          ? demo
          : pick(rng, state === 'active' ? workingAgents : attendants);
    const tme = state === 'waiting' ? null : intBetween(rng, 20, Math.min(900, Math.floor(ageMs / 1000 / 2)));
    const attendedAt = tme == null ? null : createdAt + tme * 1000;
    const tma = state === 'closed' ? intBetween(rng, 120, 2400) : null;
    const closedAt = tma != null && attendedAt != null ? attendedAt + tma * 1000 : null;
    const protocol = `${iso(createdAt).slice(0, 10).replace(/-/g, '')}${String(id).padStart(6, '0')}`;
    const instance = channel === 'email' ? cust.email : channel === 'messenger' || channel === 'social' ? cust.handle : cust.phone;
    const vars: Record<string, string> = {
      nome: cust.first,
      agente: agentUser ? String(agentUser.displayName) : 'Atendente',
      cpf: cust.cpf,
      cnpj: usesCnpj.has(script) ? makeCnpj(rng) : '',
      email: cust.email,
      valor: money(intBetween(rng, 1990, 250000)),
      pedido: `PED-${intBetween(rng, 100000, 999999)}`,
      protocolo: protocol,
    };
    // Waiting sessions hold only the customer's opening; others a prefix of the script.
    const lineCount = state === 'waiting' ? 1 : i < detailed ? intBetween(rng, 2, script.lines.length) : 2;
    let t = createdAt;
    let lastFromUser = true;
    for (let k = 0; k < lineCount; k++) {
      const fromUser = k % 2 === 0;
      t = k === 0 ? createdAt : k === 1 && attendedAt ? attendedAt + 15_000 : t + intBetween(rng, 20, 180) * 1000;
      c.message.put({
        id: messageId++,
        session: { id },
        message: fillScript(script.lines[k]!, vars),
        contentType: 'text',
        fromUser,
        sendBy: fromUser ? cust.rec.userName : agentUser?.userName,
        toUser: fromUser ? (agentUser?.userName ?? null) : cust.rec.userName,
        createdAt: iso(t),
        cognition: false,
        errorConversation: false,
        sentBySuperAgent: false,
        repliedMessage: null,
        caption: null,
        sentiment: fromUser && script.topic === 'cobrança em duplicidade' ? 'NEGATIVE' : 'NEUTRAL',
      });
      lastFromUser = fromUser;
    }
    if (!mediaSession && state === 'active' && agentUser === demo && lineCount >= 2)
      mediaSession = { id, at: createdAt, customer: cust.rec.userName, agent: demo.userName };
    const lastAt = closedAt ?? t;
    const session: Rec = {
      id,
      protocol,
      status: state === 'closed' ? 'CLOSED' : 'OPEN',
      pending: state === 'active' && !lastFromUser,
      priority: rng() < 0.05,
      onlyBot: false,
      hasReservedWord: false,
      groupConf: { id: group.id },
      user: { id: cust.rec.id },
      agent: agentUser ? { id: agentUser.id } : null,
      lastAgent: agentUser?.userName ?? null,
      userConnectedResource: channel,
      userConnectedInstance: instance,
      agentConnectedResource: agentUser ? 'console' : null,
      groupList: String(group.id),
      createdAt: iso(createdAt),
      availableAt: iso(createdAt),
      attendedAt: attendedAt ? iso(attendedAt) : null,
      closedAt: closedAt ? iso(closedAt) : null,
      closedBy: closedAt ? (agentUser?.userName ?? null) : null,
      updatedAt: iso(lastAt),
      updatedBy: agentUser?.userName ?? 'system',
      tme,
      tma,
      ticketId: null,
      properties: JSON.stringify({ topic: script.topic }),
    };
    c.userSession.put(session);
    if (i >= detailed) continue;

    if (agentUser && attendedAt && i % 4 === 1) {
      c.sessionComment.put({
        id: commentId++,
        sessionId: id,
        comment: pick(rng, INTERNAL_NOTES),
        createdAt: iso(attendedAt + 60_000),
        createdBy: agentUser.userName,
      });
    }
    if (state !== 'closed' && i % 2 === 0) {
      c.chatSuggestion.put({ id: suggestionId++, session: { id }, suggestion: fillScript(script.suggestion, vars), createdAt: iso(t) });
    }
    if (state === 'closed' && agentUser && closedAt) {
      c.attendanceTimeReport.put({
        id: reportId++,
        agentName: agentUser.name,
        attendanceTime: tma,
        channelName: channel,
        groupName: group.name,
        protocol,
        createdAtProtocol: iso(createdAt),
        closedAtProtocol: iso(closedAt),
        lastGroup: group.name,
        nextGroup: null,
        lastStatus: 'CLOSED',
        operationName: 'Operação Brasil',
        protocolDuration: Math.round((closedAt - createdAt) / 1000),
        step: 1,
        waitingTime: tme,
        ...created(closedAt, 'system'),
      });
      if (rng() < 0.6) {
        const sr = rng();
        const score = sr < 0.55 ? intBetween(rng, 9, 10) : sr < 0.8 ? intBetween(rng, 7, 8) : intBetween(rng, 0, 6);
        c.npsAnswer.put({
          id: npsId++,
          surveyName: NPS_SURVEY,
          score,
          comment: pick(rng, NPS_COMMENTS),
          sessionId: id,
          groupConf: { id: group.id },
          agent: { id: agentUser.id },
          channel,
          createdAt: iso(closedAt + 5 * MIN),
        });
        c.chatAnswer.put({
          id: npsId,
          questionId: 1,
          optionAnswerId: score + 1,
          sessionId: id,
          value: String(score),
          ...created(closedAt + 5 * MIN, 'system'),
        });
        // The survey's open question: the customer's words, when they left some (the same comment the summary's answer keeps).
        const said = c.npsAnswer.get(npsId - 1)?.comment;
        if (typeof said === 'string') {
          c.chatAnswer.put({
            id: COMMENT_ANSWER_IDS + npsId,
            questionId: 2,
            optionAnswerId: null,
            sessionId: id,
            value: said,
            ...created(closedAt + 5 * MIN + 30_000, 'system'),
          });
        }
      }
      if (group.mandatoryClassificationTree) {
        const root = c.classification.get(group.id)!;
        const branch = pick(rng, root.children as Rec[]);
        const leaf = pick(rng, branch.children as Rec[]);
        c.classificationService.put({
          id: classServiceId++,
          sessionId: id,
          groupConfId: group.id,
          // README: the closing classification record (agent record's id, chosen node, readable path).
          agentId: (agentUser.agent as Rec | null | undefined)?.id ?? null,
          rootId: root.id,
          classificationTreeSession: { id: leaf.id, value: leaf.value },
          displayName: [root.value, branch.value, leaf.value].join(' > '),
          commentClassification: `Cliente atendido sobre ${script.topic}.`,
          ...created(closedAt, agentUser.userName as string),
        });
      }
    }
    if (channel === 'voice' && attendedAt) {
      const callId = `CALL-${String(callSeq++).padStart(6, '0')}`;
      const finished = closedAt ?? null;
      c.call.put({
        id: callSeq - 1,
        callId,
        sessionId: id,
        agentId: agentUser?.id ?? null,
        userId: cust.rec.id,
        groupConfId: group.id,
        kind: 'INBOUND',
        callMode: 'AUDIO',
        provider: 'standin-voice',
        plataformCode: 'SBX',
        city: pick(rng, CITIES),
        ringingAt: iso(createdAt),
        startedAt: iso(attendedAt),
        finishedAt: finished ? iso(finished) : null,
        state: finished ? 'FINISHED' : 'IN_PROGRESS',
        status: 'ANSWERED',
        tme,
        ivrTime: intBetween(rng, 5, 40),
        attendanceTime: tma,
        startedByAgent: false,
        finishedByAgent: finished != null,
        classified: finished != null,
        liked: null,
        ...created(createdAt, 'system'),
      });
      const events: Array<[string, number]> = [
        ['RINGING', createdAt],
        ['ANSWERED', attendedAt],
      ];
      if (finished) events.push(['HANGUP', finished]);
      for (const [eventType, at] of events) {
        c.callLogHistory.put({
          id: callLogId++,
          callId,
          origCallId: callId,
          callerId: cust.phone,
          callerType: eventType === 'HANGUP' ? 'AGENT' : 'CUSTOMER',
          eventType,
          eventDate: iso(at),
          groupConfId: group.id,
          origin: 'PSTN',
          ...created(at, 'system'),
        });
      }
    }
  }
  // Media messages take the ids after all others (the rest of the seed keeps its ids), timed
  // just after the customer's opening message.
  if (mediaSession)
    MEDIA.forEach((file, k) => {
      c.message.put({
        id: messageId++,
        session: { id: mediaSession.id },
        message: `${MEDIA_PATH}${file.name}`,
        contentType: file.kind,
        caption: file.caption,
        fromUser: true,
        sendBy: mediaSession.customer,
        toUser: mediaSession.agent,
        createdAt: iso(mediaSession.at + (k + 1) * 1000),
        cognition: false,
        errorConversation: false,
        sentBySuperAgent: false,
        repliedMessage: null,
        sentiment: 'NEUTRAL',
      });
    });

  // Tickets 4700..4749 with unique keys SUP-<id>; 4711 is the one the demo talks about.
  const statuses = ['OPEN', 'IN_PROGRESS', 'WAITING_CUSTOMER', 'RESOLVED', 'CLOSED'];
  const priorities = ['LOW', 'MEDIUM', 'HIGH', 'URGENT'];
  for (let k = 0; k < 50; k++) {
    const id = 4700 + k;
    const sessionId = Math.min(opts.sessions, 1 + ((k * 7) % Math.max(1, opts.sessions)));
    const cust = customers[(k * 13) % customers.length]!;
    const title = id === DEMO_TICKET_ID ? 'Cobrança em duplicidade no boleto de março' : pick(rng, TICKET_TITLES);
    const at = now - intBetween(rng, 1, 60) * DAY;
    c.ticket.put({
      id,
      key: `${TICKET_PREFIX}-${id}`,
      title,
      status: id === DEMO_TICKET_ID ? 'IN_PROGRESS' : pick(rng, statuses),
      priority: id === DEMO_TICKET_ID ? 'HIGH' : pick(rng, priorities),
      projectId: k % 2 === 0 ? 10 : 20,
      description:
        id === DEMO_TICKET_ID
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

  const hsm: Array<[string, string, string]> = [
    ['confirmacao_pedido', 'Confirmação de pedido', 'Olá {{1}}, seu pedido {{2}} foi confirmado e será entregue até {{3}}.'],
    ['lembrete_boleto', 'Lembrete de vencimento', 'Olá {{1}}, o boleto de {{2}} vence em {{3}}. Evite juros pagando em dia.'],
    ['retorno_atendimento', 'Retomar conversa', 'Olá {{1}}, aqui é {{2}} da Vila Serena. Podemos continuar o seu atendimento?'],
    ['pesquisa_nps', 'Pesquisa de satisfação', 'Olá {{1}}, de 0 a 10, quanto você recomendaria a Vila Serena a um amigo?'],
    ['codigo_rastreio', 'Código de rastreio', 'Olá {{1}}, o código de rastreio do pedido {{2}} é {{3}}.'],
  ];
  hsm.forEach(([elementName, description, template], k) => {
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

  const pauses: Array<[string, number]> = [
    ['Almoço', 60],
    ['Café', 15],
    ['Banheiro', 10],
    ['Treinamento', 120],
    ['Reunião', 60],
    ['Feedback com supervisor', 30],
  ];
  pauses.forEach(([value, pauseTime], k) => {
    c.pauseReason.put({
      id: k + 1,
      value,
      pauseTime,
      active: true,
      controlPauseTime: pauseTime <= 30,
      notifySupervisor: pauseTime >= 60,
      pauseChat: true,
      pauseVoice: true,
      pauseChatByVoice: false,
      ...created(setupAt),
    });
  });

  const attrs = ['Plano', 'Cidade', 'Cliente VIP', 'Canal preferido'];
  attrs.forEach((description, k) => c.attribute.put({ id: k + 1, description, active: true, ...created(setupAt) }));
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
  for (let k = 1; k <= Math.min(10, opts.sessions); k++) {
    c.userAttributeHistory.put({ userAttributesHistId: { sessionId: k, userAttributesId: k }, ...created(now - k * HOUR, 'system') });
  }

  c.bot.put({ id: 1, active: true, external: false, survey: null, botTree: { id: 1, version: 3 }, agent: null, ...created(setupAt) });
  c.bot.put({ id: 2, active: true, external: false, survey: 1, botTree: { id: 2, version: 1 }, agent: null, ...created(setupAt) });
  for (let k = 1; k <= Math.min(30, opts.sessions); k++) {
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

  const days: Array<[number, string, string]> = [
    [1, '08:00', '20:00'],
    [2, '08:00', '20:00'],
    [3, '08:00', '20:00'],
    [4, '08:00', '20:00'],
    [5, '08:00', '20:00'],
    [6, '09:00', '14:00'],
  ];
  days.forEach(([dayCode, openTime, closeTime]) => {
    c.workSchedule.put({
      id: dayCode,
      dayCode,
      openTime,
      closeTime,
      name: `Dia ${dayCode}`,
      scheduleName: 'Horário comercial',
      active: true,
      ...created(setupAt),
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
    // The groups were made above with a numeric id and a name.
    const { id: gid, name } = g as { id: number; name: string };
    c.chatWebConfiguration.put({
      id: g.id,
      chatGroupConf: { id: g.id },
      token: `web-${gid}-${(opts.seed >>> 0).toString(36)}`,
      initialMessage: `Olá! Bem-vindo ao ${name} da Vila Serena.`,
      configuration: { color: '#2b6cb0', position: 'right' },
      cssScript: '',
      htmlScript: '',
      jsScript: '',
      ...created(setupAt),
    });
  }
  for (let k = 1; k <= 10; k++) {
    const cust = customers[k % customers.length]!;
    const at = now - k * DAY;
    c.directMessage.put({
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
      status: k <= 8 ? 'SENT' : 'FAILED',
      sendTimestamp: iso(at),
      sentAt: k <= 8 ? iso(at + 2000) : null,
      dispatchId: `DSP-${1000 + k}`,
      generatedSession: false,
      createdAt: iso(at),
      createdBy: 'juliana.martins',
      updatedAt: iso(at + 2000),
    });
  }

  return { tokens, demoAgent: { userName: String(demo.userName), id: Number(demo.id), name: String(demo.name) } };
}
