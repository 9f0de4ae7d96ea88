/**
 * The stand-in's field types, and the specs of the entities other resources embed or point to
 * (company, operation, profile, classification node, agent, user, channel, group, session).
 * fields.ts holds the spec of every collection built from these.
 */
export type Scalar = 'string' | 'int' | 'number' | 'boolean' | 'date' | 'any';
export type FieldType =
  | Scalar
  | { kind: 'object'; fields: () => Spec }
  | { kind: 'array'; of: FieldType }
  | { kind: 'ref'; collection: CollectionName; fields: () => Spec };
export type Spec = Readonly<Record<string, FieldType>>;

export type CollectionName =
  | 'agent'
  | 'userSession'
  | 'userAttribute'
  | 'userAttributeHistory'
  | 'userAgent'
  | 'botTag'
  | 'sessionComment'
  | 'attendanceTimeReport'
  | 'pauseReason'
  | 'message'
  | 'messageBundleGroup'
  | 'hsmTemplate'
  | 'hsmTemplateGroup'
  | 'holidayOperation'
  | 'attribute'
  | 'bot'
  | 'botAnswer'
  | 'call'
  | 'callLogHistory'
  | 'chatAnswer'
  | 'chatWebConfiguration'
  | 'classification'
  | 'classificationService'
  | 'cognition'
  | 'directMessage'
  | 'workSchedule'
  | 'user'
  // stand-in collections behind the §4.3 operations and the other families
  | 'group'
  | 'chatSuggestion'
  | 'npsAnswer'
  | 'ticket';

export const obj = (fields: () => Spec): FieldType => ({ kind: 'object', fields });
const arr = (of: FieldType): FieldType => ({ kind: 'array', of });
export const ref = (collection: CollectionName, fields: () => Spec): FieldType => ({ kind: 'ref', collection, fields });

export const AUDIT = { createdAt: 'date', createdBy: 'string', updatedAt: 'date', updatedBy: 'string' } as const;

export const GROUP_COMPANY: Spec = {
  active: 'boolean',
  companyName: 'string',
  createdAt: 'date',
  createdBy: 'string',
  id: 'int',
  updatedAt: 'date',
  updatedBy: 'string',
};

export const COMPANY: Spec = {
  active: 'boolean',
  address: 'string',
  cep: 'string',
  city: 'string',
  cnpj: 'string',
  companyName: 'string',
  complement: 'string',
  country: 'string',
  createdBy: 'string',
  defaultLocale: 'string',
  email: 'string',
  nameContact: 'string',
  neighborhood: 'string',
  number: 'string',
  phoneContact: 'string',
  sgemnet: 'string',
  site: 'string',
  sku: 'string',
  state: 'string',
  stateRegistration: 'string',
  tradeName: 'string',
  updatedBy: 'string',
  contractSignature: 'int',
  id: 'int',
  timeHistory: 'int',
  createdAt: 'date',
  dateEndPilot: 'date',
  updatedAt: 'date',
  groupCompany: obj(() => GROUP_COMPANY),
};

export const OPERATION: Spec = {
  company: obj(() => COMPANY),
  country: 'string',
  createdAt: 'date',
  createdBy: 'string',
  customerPortfolio: 'boolean',
  defaultLocale: 'string',
  id: 'int',
  operationName: 'string',
  operationStatus: 'boolean',
  updatedAt: 'date',
  updatedBy: 'string',
  verifyHoliday: 'string',
};

export const PROFILE: Spec = {
  createdAt: 'date',
  createdBy: 'string',
  id: 'int',
  name: 'string',
  typeUser: 'string',
  updatedAt: 'date',
  updatedBy: 'string',
  visible: 'boolean',
};

/** v2 shape: children are objects and `parent` is gone (interface §9.9). */
export const CLASSIFICATION_NODE: Spec = {
  active: 'boolean',
  children: arr(obj(() => CLASSIFICATION_NODE)),
  createdAt: 'date',
  createdBy: 'string',
  id: 'int',
  nodeId: 'int',
  updatedAt: 'date',
  updatedBy: 'string',
  value: 'string',
};

export const AGENT: Spec = {
  agentAllHistory: 'boolean',
  agentAllHistoryOperation: 'boolean',
  agentAttendSimple: 'boolean',
  agentViewPhone: 'boolean',
  audioOn: 'boolean',
  pauseOnReceiveCall: 'boolean',
  superAgent: 'boolean',
  virtualAgent: 'boolean',
  agentToken: 'string',
  attendanceServiceChannel: 'string',
  createdBy: 'string',
  department: 'string',
  extensionAttendance: 'string',
  loginAttendance: 'string',
  passwordAttendance: 'string',
  socialToken: 'string',
  status: 'string',
  updatedBy: 'string',
  createdAt: 'date',
  updatedAt: 'date',
  id: 'int',
  maxChatChannels: 'int',
  user: ref('user', () => USER),
};

export const USER: Spec = {
  accessKey: 'string',
  active: 'boolean',
  agent: ref('agent', () => AGENT),
  birthDate: 'date',
  createdAt: 'date',
  firstLogin: 'date',
  lastLogin: 'date',
  updatedAt: 'date',
  company: obj(() => COMPANY),
  country: 'string',
  cpf: 'string',
  createdBy: 'string',
  defaultLocale: 'string',
  displayName: 'string',
  email: 'string',
  externalCode: 'string',
  name: 'string',
  operation: 'string',
  originUser: 'string',
  phone: 'string',
  typeUser: 'string',
  updatedBy: 'string',
  userName: 'string',
  password: 'string',
  createdFromSurvey: 'boolean',
  firstAccess: 'boolean',
  formal: 'boolean',
  tm2: 'boolean',
  usingMFA: 'boolean',
  visible: 'boolean',
  id: 'int',
  priority: 'int',
  ticketUserId: 'int',
  profile: obj(() => PROFILE),
};

export const CHANNEL: Spec = { id: 'int', name: 'string' };

export const GROUP: Spec = {
  acceptedMedias: 'string',
  active: 'boolean',
  agentExpireSession: 'boolean',
  agentReplyMaxDelay: 'int',
  broker: 'string',
  businessUnit: 'string',
  channels: arr(obj(() => CHANNEL)),
  classificationTree: ref('classification', () => CLASSIFICATION_NODE),
  configInactivity: 'boolean',
  configInactivityTime: 'int',
  createdAt: 'date',
  createdBy: 'string',
  defaultAgent: ref('user', () => USER),
  emailActiveShipping: 'boolean',
  finalAgent: ref('user', () => USER),
  gatewayQueue: 'string',
  id: 'int',
  inactivityAction: 'string',
  inactivityAgent: ref('user', () => USER),
  inactivityGroup: 'int',
  pushShipping: 'boolean',
  interactQueueDelay: 'int',
  limitTimeWaitingForInteract: 'int',
  mandatoryClassificationTree: 'boolean',
  mandatoryFinalAgent: 'boolean',
  name: 'string',
  offlineAttendance: 'boolean',
  onlyBot: 'boolean',
  onlyReceptive: 'boolean',
  operation: obj(() => OPERATION),
  pausedTransfer: 'boolean',
  pending: 'boolean',
  queueControl: 'string',
  queueScheduleStrategy: 'boolean',
  redirectAttendanceAgentDisconnect: 'boolean',
  scheduleActiveSendTime: 'int',
  scheduleName: 'string',
  skipQueue: 'boolean',
  sla: 'int',
  smsActiveShipping: 'boolean',
  survey: 'int',
  messengerActiveShipping: 'boolean',
  timeMaxAttendance: 'int',
  timePending: 'int',
  timeUnit: 'string',
  updatedAt: 'date',
  updatedBy: 'string',
  uraActiveShipping: 'boolean',
  visible: 'boolean',
  voiceActiveShipping: 'boolean',
  warningRatio: 'int',
  smsPartnerFlag: 'boolean',
  chatAppActiveShipping: 'boolean',
  chatAppPartner: 'boolean',
  chatAppPartnerInactivity: 'int',
};

export const SESSION: Spec = {
  agent: ref('user', () => USER),
  agentConnectedInstance: 'string',
  agentConnectedResource: 'string',
  attendedAt: 'date',
  availableAt: 'date',
  closedAt: 'date',
  createdAt: 'date',
  updatedAt: 'date',
  closedBy: 'string',
  updatedBy: 'string',
  customProtocol: 'string',
  externalProtocol: 'string',
  protocol: 'string',
  directMessageId: 'int',
  externalOrderId: 'int',
  id: 'int',
  ticketId: 'int',
  groupConf: ref('group', () => GROUP),
  groupList: 'string',
  inactivity: 'string',
  lastAgent: 'string',
  properties: 'string',
  status: 'string',
  hasReservedWord: 'boolean',
  onlyBot: 'boolean',
  pending: 'boolean',
  priority: 'boolean',
  tma: 'int',
  tme: 'int',
  tmi: 'int',
  tmia: 'int',
  tmic: 'int',
  tmaTicket: 'int',
  user: ref('user', () => USER),
  userConnectedInstance: 'string',
  userConnectedResource: 'string',
};

export const sessionRef = ref('userSession', () => SESSION);
