/**
 * The demo's organisation: the company and its operation, the staff (admin, supervisor,
 * attendants with their agent records), the three attendance groups with their classification
 * trees, and the customers the sessions are drawn from.
 */
import { intBetween, pick } from './prng';
import type { Rec } from './query-engine';
import { EMAIL_DOMAINS, FIRST_NAMES, LAST_NAMES } from './texts';
import {
  ascii,
  CHANNEL_IDS,
  created,
  iso,
  makeCnpj,
  makeCpf,
  MIN,
  SUPERVISOR_USER_NAME,
  tokenFor,
  type Channel,
  type SeedContext,
} from './seed-base';

export interface Tokens {
  agent: string;
  supervisor: string;
  admin: string;
}

export interface Customer {
  rec: Rec;
  name: string;
  first: string;
  email: string;
  phone: string;
  cpf: string;
  handle: string;
}

interface StaffMember {
  name: string;
  userName: string;
  typeUser: string;
  status: string;
  token: string;
}

const DEMO_AGENT = 'ana.souza';

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

const PROFILES: Record<string, Rec> = {
  ADMINISTRATOR: { id: 1, name: 'Administrador', typeUser: 'ADMINISTRATOR', visible: true },
  SUPERVISOR: { id: 2, name: 'Supervisor', typeUser: 'SUPERVISOR', visible: true },
  AGENT: { id: 3, name: 'Atendente', typeUser: 'AGENT', visible: true },
  CUSTOMER: { id: 4, name: 'Cliente', typeUser: 'CUSTOMER', visible: false },
};

/** Classification trees, three levels deep. */
const TREES: Record<string, Array<[string, string[]]>> = {
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

interface GroupDef {
  name: string;
  channels: Channel[];
  sla: number;
  mandatory: boolean;
  media?: string;
}

const GROUP_DEFS: GroupDef[] = [
  { name: 'Atendimento Geral', channels: ['chatApp', 'messenger', 'social', 'email'], sla: 120, mandatory: false },
  // Finance takes documents only (boletos, invoices): the group whose acceptedMedias refuses a photo.
  { name: 'Financeiro', channels: ['chatApp', 'email', 'sms'], sla: 300, mandatory: true, media: 'text,document' },
  { name: 'Suporte Técnico', channels: ['chatApp', 'email', 'voice', 'social'], sla: 600, mandatory: true },
];

export function seedCompany(ctx: SeedContext): { company: Rec; operation: Rec } {
  const company: Rec = {
    id: 1,
    active: true,
    companyName: 'Vila Serena Comércio de Eletrônicos Ltda',
    tradeName: 'Vila Serena',
    cnpj: makeCnpj(ctx.rng),
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
    ...created(ctx.setupAt),
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
    ...created(ctx.setupAt),
  };
  return { company, operation };
}

function staffList(tokens: Tokens): StaffMember[] {
  return [
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
}

function putStaffUser(ctx: SeedContext, s: StaffMember, id: number, agentId: number | null, company: Rec): void {
  const { rng, now } = ctx;
  ctx.c.user.put({
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
    company: { id: 1, companyName: company.companyName, tradeName: company.tradeName, cnpj: company.cnpj },
    profile: PROFILES[s.typeUser],
    agent: agentId ? { id: agentId } : null,
    priority: 0,
    lastLogin: iso(now - intBetween(rng, 1, 600) * MIN),
    ...created(ctx.setupAt),
  });
}

function putAgent(ctx: SeedContext, s: StaffMember, id: number, agentId: number): void {
  const supervisor = s.typeUser === 'SUPERVISOR';
  ctx.c.agent.put({
    id: agentId,
    status: s.status,
    user: { id },
    department: supervisor ? 'Supervisão' : 'Atendimento',
    superAgent: supervisor,
    virtualAgent: false,
    maxChatChannels: 6,
    agentAllHistory: supervisor,
    agentAllHistoryOperation: false,
    agentAttendSimple: false,
    agentViewPhone: true,
    audioOn: true,
    pauseOnReceiveCall: true,
    attendanceServiceChannel: 'chatApp,email,sms,messenger,social,voice',
    extensionAttendance: String(2000 + agentId),
    loginAttendance: s.userName,
    ...created(ctx.setupAt),
  });
  ctx.c.userAgent.put({ associationId: { userId: id, agentId }, user: { id }, agent: { id: agentId }, ...created(ctx.setupAt) });
}

/** Users: 1 admin, 2 supervisor, 3..10 attendants (3 is the demo agent); agent records 1..9. */
export function seedStaff(ctx: SeedContext, company: Rec): { tokens: Tokens; attendants: Rec[]; demo: Rec; staffCount: number } {
  const tokens = { admin: tokenFor('admin'), supervisor: tokenFor(SUPERVISOR_USER_NAME), agent: tokenFor(DEMO_AGENT) };
  const staff = staffList(tokens);
  const attendants: Rec[] = [];
  staff.forEach((s, i) => {
    const id = i + 1;
    const agentId = s.typeUser === 'ADMINISTRATOR' ? null : i;
    putStaffUser(ctx, s, id, agentId, company);
    if (!agentId) return;
    putAgent(ctx, s, id, agentId);
    if (s.typeUser === 'AGENT') attendants.push(ctx.c.user.get(id)!);
  });
  return { tokens, attendants, demo: ctx.c.user.get(3)!, staffCount: staff.length };
}

function classificationTree(ctx: SeedContext, id: number, name: string): Rec {
  let nodeSeq = id * 100;
  const branches = TREES[name] ?? [];
  return {
    id,
    nodeId: null,
    value: name,
    active: true,
    ...created(ctx.setupAt),
    children: branches.map(([label, leaves]) => {
      const mid = ++nodeSeq;
      return {
        id: mid,
        nodeId: id,
        value: label,
        active: true,
        ...created(ctx.setupAt),
        children: leaves.map((leaf) => ({ id: ++nodeSeq, nodeId: mid, value: leaf, active: true, children: [], ...created(ctx.setupAt) })),
      };
    }),
  };
}

/** A group's routing and queue settings: the same for all three but for name, channels and SLA. */
function groupRecord(ctx: SeedContext, g: GroupDef, gi: number, operation: Rec): Rec {
  const id = gi + 1;
  return {
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
    ...shippingFlags(g.channels),
    ...created(ctx.setupAt),
  };
}

function shippingFlags(channels: Channel[]): Rec {
  return {
    chatAppActiveShipping: channels.includes('chatApp'),
    chatAppPartner: true,
    chatAppPartnerInactivity: 1440,
    emailActiveShipping: channels.includes('email'),
    smsActiveShipping: channels.includes('sms'),
    smsPartnerFlag: false,
    messengerActiveShipping: channels.includes('messenger'),
    pushShipping: false,
    uraActiveShipping: false,
    voiceActiveShipping: channels.includes('voice'),
  };
}

/** The three groups, each with its classification tree (same id). */
export function seedGroups(ctx: SeedContext, operation: Rec): Map<string, Rec> {
  const groupByName = new Map<string, Rec>();
  GROUP_DEFS.forEach((g, gi) => {
    ctx.c.classification.put(classificationTree(ctx, gi + 1, g.name));
    const group = groupRecord(ctx, g, gi, operation);
    ctx.c.group.put(group);
    groupByName.set(g.name, group);
  });
  return groupByName;
}

/** Customers: enough to recur across sessions, few enough to seed 100k sessions fast. */
export function seedCustomers(ctx: SeedContext, firstCustomerId: number): Customer[] {
  const { rng } = ctx;
  const customerCount = Math.max(60, Math.ceil(ctx.sessions / 8));
  const customers: Customer[] = [];
  for (let i = 0; i < customerCount; i++) {
    const first = pick(rng, FIRST_NAMES);
    const last = pick(rng, LAST_NAMES);
    const local = `${ascii(first)}.${ascii(last)}${i >= FIRST_NAMES.length ? i : ''}`;
    const email = `${local}@${pick(rng, EMAIL_DOMAINS)}`;
    const phone = `+55 ${intBetween(rng, 11, 99)} 9${intBetween(rng, 1000, 9999)}-${intBetween(rng, 1000, 9999)}`;
    const cpf = makeCpf(rng);
    const rec: Rec = {
      id: firstCustomerId + i,
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
      profile: PROFILES.CUSTOMER,
      createdFromSurvey: false,
      createdAt: iso(ctx.setupAt + i * MIN),
      createdBy: 'system',
    };
    ctx.c.user.put(rec);
    customers.push({ rec, name: `${first} ${last}`, first, email, phone, cpf, handle: `@${local}` });
  }
  return customers;
}
