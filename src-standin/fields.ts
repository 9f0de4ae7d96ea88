/**
 * The known fields of every stored resource (interface §2.6-2.9), as a small type tree. The
 * query engine validates condition keys and sort columns against it (dotted into nested
 * objects), and saves validate body shapes against it. A `ref` is stored as `{id}` (or `null`)
 * and resolved from its collection when read, so a session never carries a stale group copy.
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

const obj = (fields: () => Spec): FieldType => ({ kind: 'object', fields });
const arr = (of: FieldType): FieldType => ({ kind: 'array', of });
const ref = (collection: CollectionName, fields: () => Spec): FieldType => ({ kind: 'ref', collection, fields });

const AUDIT = { createdAt: 'date', createdBy: 'string', updatedAt: 'date', updatedBy: 'string' } as const;

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

const sessionRef = ref('userSession', () => SESSION);

/** Field specs of every collection. */
export const SPECS: Readonly<Record<CollectionName, Spec>> = {
  agent: AGENT,
  userSession: SESSION,
  user: USER,
  group: GROUP,
  classification: CLASSIFICATION_NODE,
  attribute: { active: 'boolean', description: 'string', id: 'int', ...AUDIT },
  userAttribute: {
    attribute: ref('attribute', () => SPECS.attribute),
    id: 'int',
    user: ref('user', () => USER),
    value: 'string',
    ...AUDIT,
  },
  userAttributeHistory: { userAttributesHistId: obj(() => ({ sessionId: 'int', userAttributesId: 'int' })), ...AUDIT },
  userAgent: {
    agent: ref('agent', () => AGENT),
    associationId: obj(() => ({ userId: 'int', agentId: 'int' })),
    user: ref('user', () => USER),
    ...AUDIT,
  },
  botTag: {
    bot: ref('bot', () => SPECS.bot),
    id: 'int',
    message: 'string',
    session: sessionRef,
    tag: 'string',
    createdAt: 'date',
    createdBy: 'string',
  },
  sessionComment: { comment: 'string', id: 'int', sessionId: 'int', createdAt: 'date', createdBy: 'string' },
  attendanceTimeReport: {
    agentName: 'string',
    attendanceTime: 'int',
    channelName: 'string',
    closedAtProtocol: 'date',
    createdAtProtocol: 'date',
    groupName: 'string',
    id: 'int',
    lastGroup: 'string',
    lastStatus: 'string',
    nextGroup: 'string',
    operationName: 'string',
    protocol: 'string',
    protocolDuration: 'int',
    step: 'int',
    waitingTime: 'int',
    ...AUDIT,
  },
  pauseReason: {
    active: 'boolean',
    controlPauseTime: 'boolean',
    id: 'int',
    notifySupervisor: 'boolean',
    pauseChat: 'boolean',
    pauseChatByVoice: 'boolean',
    pauseTime: 'int',
    pauseVoice: 'boolean',
    value: 'string',
    ...AUDIT,
  },
  message: {
    caption: 'string',
    cognition: 'boolean',
    contentType: 'string',
    createdAt: 'date',
    errorConversation: 'boolean',
    fromUser: 'boolean',
    id: 'int',
    message: 'string',
    repliedMessage: 'int',
    sendBy: 'string',
    sentBySuperAgent: 'boolean',
    sentiment: 'string',
    session: sessionRef,
    toUser: 'string',
  },
  messageBundleGroup: {
    code: 'string',
    description: 'string',
    group: ref('group', () => GROUP),
    id: 'int',
    locale: 'string',
    text: 'string',
    use: 'string',
    ...AUDIT,
  },
  hsmTemplate: {
    active: 'boolean',
    description: 'string',
    elementName: 'string',
    id: 'int',
    mediaParameterCount: 'int',
    nameSpace: 'string',
    parameterCount: 'int',
    template: 'string',
    language: 'string',
    ...AUDIT,
  },
  hsmTemplateGroup: {
    hsmTemplateGroupId: obj(() => ({ groupConfId: 'int', hsmTemplateId: 'int' })),
    hsmTemplate: ref('hsmTemplate', () => SPECS.hsmTemplate),
  },
  holidayOperation: { holiday: 'any', holidayOperationId: obj(() => ({ holidayId: 'int', operationId: 'int' })), operations: 'any' },
  bot: {
    active: 'boolean',
    agent: ref('user', () => USER),
    botTree: obj(() => ({ id: 'int', version: 'int' })),
    external: 'boolean',
    id: 'int',
    survey: 'int',
    ...AUDIT,
  },
  botAnswer: { answer: 'string', botQuestions: obj(() => ({ id: 'int', seq: 'int' })), id: 'int', session: sessionRef },
  call: {
    agentId: 'int',
    attendanceTime: 'int',
    callId: 'string',
    callMode: 'string',
    city: 'string',
    classified: 'boolean',
    comment: 'string',
    externalId: 'string',
    finishedAt: 'date',
    finishedByAgent: 'boolean',
    groupConfId: 'int',
    id: 'int',
    ivrTime: 'int',
    kind: 'string',
    liked: 'boolean',
    plataformCode: 'string',
    provider: 'string',
    ringingAt: 'date',
    sessionId: 'int',
    startedAt: 'date',
    startedByAgent: 'boolean',
    state: 'string',
    status: 'string',
    tme: 'int',
    userId: 'int',
    ...AUDIT,
  },
  callLogHistory: {
    callId: 'string',
    callerId: 'string',
    callerType: 'string',
    eventDate: 'date',
    eventType: 'string',
    groupConfId: 'int',
    id: 'int',
    origCallId: 'string',
    origin: 'string',
    ...AUDIT,
  },
  chatAnswer: { id: 'int', optionAnswerId: 'int', questionId: 'int', sessionId: 'int', value: 'string', ...AUDIT },
  chatWebConfiguration: {
    chatGroupConf: ref('group', () => GROUP),
    configuration: 'any',
    cssScript: 'string',
    htmlScript: 'string',
    id: 'int',
    initialMessage: 'string',
    jsScript: 'string',
    token: 'string',
    ...AUDIT,
  },
  classificationService: {
    agentId: 'int',
    classificationTree: 'any',
    classificationTreeSession: 'any',
    commentClassification: 'string',
    displayName: 'string',
    groupConfId: 'int',
    id: 'int',
    rootId: 'int',
    sessionId: 'int',
    ...AUDIT,
  },
  cognition: {
    appId: 'string',
    appKey: 'string',
    endPoint: 'string',
    id: 'int',
    name: 'string',
    password: 'string',
    type: 'string',
    userName: 'string',
    version: 'string',
    createdAt: 'date',
    createdBy: 'string',
  },
  directMessage: {
    additionalInfo: 'any',
    agentId: 'int',
    broadcastListId: 'int',
    callback: 'string',
    campaignName: 'string',
    channel: 'string',
    description: 'string',
    dispatchId: 'string',
    email: 'string',
    generatedSession: 'boolean',
    groupConfId: 'int',
    groupName: 'string',
    id: 'int',
    message: 'string',
    phoneNumber: 'string',
    sendGroupConfId: 'int',
    sendTimestamp: 'date',
    senderUserId: 'int',
    sentAt: 'date',
    sessionId: 'int',
    status: 'string',
    subject: 'string',
    user: ref('user', () => USER),
    userId: 'int',
    createdAt: 'date',
    createdBy: 'string',
    updatedAt: 'date',
  },
  workSchedule: {
    active: 'boolean',
    closeTime: 'string',
    dayCode: 'int',
    id: 'int',
    name: 'string',
    openTime: 'string',
    scheduleName: 'string',
    ...AUDIT,
  },
  chatSuggestion: { createdAt: 'date', id: 'int', session: sessionRef, suggestion: 'string' },
  /** One answer of an NPS survey: what nps-summary counts (conditions filter these fields). */
  npsAnswer: {
    id: 'int',
    surveyName: 'string',
    score: 'int',
    comment: 'string',
    sessionId: 'int',
    groupConf: ref('group', () => GROUP),
    agent: ref('user', () => USER),
    channel: 'string',
    createdAt: 'date',
  },
  ticket: {
    id: 'int',
    key: 'string',
    title: 'string',
    description: 'string',
    status: 'string',
    priority: 'string',
    projectId: 'int',
    requester: 'string',
    sessionId: 'int',
    createdAt: 'date',
    updatedAt: 'date',
  },
};

/** Resources keyed by a composite object instead of `id` (interface §2.9). */
export const COMPOSITE_KEYS: Partial<Record<CollectionName, { field: string; parts: readonly string[] }>> = {
  userAttributeHistory: { field: 'userAttributesHistId', parts: ['sessionId', 'userAttributesId'] },
  userAgent: { field: 'associationId', parts: ['userId', 'agentId'] },
  hsmTemplateGroup: { field: 'hsmTemplateGroupId', parts: ['groupConfId', 'hsmTemplateId'] },
  holidayOperation: { field: 'holidayOperationId', parts: ['holidayId', 'operationId'] },
};

/** A JSON object (not null, not an array). */
export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
