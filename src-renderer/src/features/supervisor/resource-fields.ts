import type { ResourceKey } from '../../../../src-shared/paths';
import type { FieldWord } from './strings';

/**
 * The fields of each of the 27 resources of interface §4.4, as the explorer's form and
 * condition builder offer them: key, the word that names it (strings.ts) and what kind of input
 * it takes. Pure: no store, no bridge, no i18n.
 *
 * Where the interface gives a type (§2.6-2.8) the kind follows it; §2.9 names fields only, and
 * there the kind follows what the project's stand-in stores (src-standin/fields.ts and seed.ts):
 * e.g. a call's `agentId` holds the attendant's user id. A field the interface leaves open, or
 * whose value is a whole object with no list to pick it from, is `any` (edited as JSON).
 *
 * `ref` fields name a record of another list: `object` ones are sent as `{id}`, `id` ones as the
 * bare integer. Groups have no list operation in the interface (§4.4), so a group is picked from
 * the groups the console already knows (the attendance directory).
 *
 * `readOnly` marks a field the save operation does not take (§4.3, §9.8, §9.10, §9.11): the form
 * shows it as read and leaves it as it is.
 */

export type RefTarget = ResourceKey | 'group';

export type FieldKind =
  | { type: 'text' }
  | { type: 'number'; integer: boolean }
  | { type: 'boolean' }
  | { type: 'date' }
  | { type: 'ref'; target: RefTarget; shape: 'object' | 'id' }
  | { type: 'any' };

export interface FieldSpec {
  /** The field's key in the record; dotted for the parts of a composite key (`associationId.userId`). */
  key: string;
  /** Its word in strings.ts; null for a field of a record that this table does not know. */
  label: FieldWord | null;
  kind: FieldKind;
  readOnly: boolean;
}

const text: FieldKind = { type: 'text' };
const int: FieldKind = { type: 'number', integer: true };
const bool: FieldKind = { type: 'boolean' };
const date: FieldKind = { type: 'date' };
const any: FieldKind = { type: 'any' };
/** A reference sent as `{id}`. */
const ref = (target: RefTarget): FieldKind => ({ type: 'ref', target, shape: 'object' });
/** A reference sent as the bare id. */
const idOf = (target: RefTarget): FieldKind => ({ type: 'ref', target, shape: 'id' });

/** A field entry: its kind, or a kind with its own word or with `readOnly`. */
type Entry = FieldKind | { kind: FieldKind; label?: FieldWord; readOnly?: true };
type Table = Partial<Record<FieldWord, Entry>>;
const readOnly = (kind: FieldKind): Entry => ({ kind, readOnly: true });

const AUDIT: Table = { createdAt: date, createdBy: text, updatedAt: date, updatedBy: text };
const CREATED: Table = { createdAt: date, createdBy: text };

/** Fields per resource, in the order the form shows them (id first, audit fields last). */
const TABLE: Record<ResourceKey, Table> = {
  // §2.8 Agent. v2's agent save lost `user` (§9.10).
  agent: {
    id: int,
    status: text,
    department: text,
    loginAttendance: text,
    extensionAttendance: text,
    attendanceServiceChannel: text,
    maxChatChannels: int,
    superAgent: bool,
    virtualAgent: bool,
    agentAllHistory: bool,
    agentAllHistoryOperation: bool,
    agentAttendSimple: bool,
    agentViewPhone: bool,
    audioOn: bool,
    pauseOnReceiveCall: bool,
    agentToken: text,
    passwordAttendance: text,
    socialToken: text,
    user: readOnly(ref('user')),
    ...AUDIT,
  },
  // §2.7 Session. The save takes no agent (§4.3) and no user (§9.8).
  userSession: {
    id: int,
    protocol: text,
    status: text,
    pending: bool,
    priority: bool,
    groupConf: ref('group'),
    user: readOnly(ref('user')),
    agent: readOnly(ref('user')),
    lastAgent: text,
    userConnectedResource: text,
    userConnectedInstance: text,
    agentConnectedResource: text,
    agentConnectedInstance: text,
    createdAt: date,
    availableAt: date,
    attendedAt: date,
    closedAt: date,
    closedBy: text,
    updatedAt: date,
    updatedBy: text,
    customProtocol: text,
    externalProtocol: text,
    directMessageId: idOf('directMessage'),
    externalOrderId: int,
    ticketId: int,
    groupList: text,
    inactivity: text,
    properties: text,
    hasReservedWord: bool,
    onlyBot: bool,
    tma: int,
    tme: int,
    tmi: int,
    tmia: int,
    tmic: int,
    tmaTicket: int,
  },
  // §2.9; the user-attributes save lost `user` (§9.11).
  userAttribute: { id: int, attribute: ref('attribute'), user: readOnly(ref('user')), value: text, ...AUDIT },
  userAttributeHistory: {
    'userAttributesHistId.sessionId': idOf('userSession'),
    'userAttributesHistId.userAttributesId': idOf('userAttribute'),
    ...AUDIT,
  },
  userAgent: {
    'associationId.userId': idOf('user'),
    'associationId.agentId': idOf('agent'),
    user: ref('user'),
    agent: ref('agent'),
    ...AUDIT,
  },
  botTag: { id: int, tag: text, bot: ref('bot'), session: ref('userSession'), message: text, ...CREATED },
  sessionComment: { id: int, sessionId: idOf('userSession'), comment: text, ...CREATED },
  attendanceTimeReport: {
    id: int,
    protocol: text,
    agentName: text,
    groupName: text,
    channelName: text,
    operationName: text,
    createdAtProtocol: date,
    closedAtProtocol: date,
    waitingTime: int,
    attendanceTime: int,
    protocolDuration: int,
    lastStatus: text,
    lastGroup: text,
    nextGroup: text,
    step: int,
    ...AUDIT,
  },
  pauseReason: {
    id: int,
    value: text,
    active: bool,
    pauseTime: int,
    controlPauseTime: bool,
    notifySupervisor: bool,
    pauseChat: bool,
    pauseChatByVoice: bool,
    pauseVoice: bool,
    ...AUDIT,
  },
  message: {
    id: int,
    session: ref('userSession'),
    message: text,
    caption: text,
    contentType: text,
    fromUser: bool,
    sendBy: text,
    toUser: text,
    sentBySuperAgent: bool,
    sentiment: text,
    cognition: bool,
    errorConversation: bool,
    repliedMessage: idOf('message'),
    createdAt: date,
  },
  messageBundleGroup: { id: int, code: text, description: text, text, locale: text, use: text, group: ref('group'), ...AUDIT },
  hsmTemplate: {
    id: int,
    elementName: text,
    description: text,
    template: text,
    language: text,
    nameSpace: text,
    parameterCount: int,
    mediaParameterCount: int,
    active: bool,
    ...AUDIT,
  },
  hsmTemplateGroup: {
    'hsmTemplateGroupId.groupConfId': idOf('group'),
    'hsmTemplateGroupId.hsmTemplateId': idOf('hsmTemplate'),
    hsmTemplate: ref('hsmTemplate'),
  },
  holidayOperation: { 'holidayOperationId.holidayId': int, 'holidayOperationId.operationId': int, holiday: any, operations: any },
  attribute: { id: int, description: text, active: bool, ...AUDIT },
  // The bot save lost `agent` (§9.11); the stand-in keeps a bot's agent as a user.
  bot: {
    id: int,
    active: bool,
    external: bool,
    survey: int,
    'botTree.id': int,
    'botTree.version': int,
    agent: readOnly(ref('user')),
    ...AUDIT,
  },
  botAnswer: { id: int, session: ref('userSession'), answer: text, 'botQuestions.id': int, 'botQuestions.seq': int },
  call: {
    id: int,
    callId: text,
    sessionId: idOf('userSession'),
    agentId: idOf('user'),
    userId: idOf('user'),
    groupConfId: idOf('group'),
    kind: text,
    callMode: text,
    state: text,
    status: text,
    provider: text,
    plataformCode: text,
    city: text,
    externalId: text,
    ringingAt: date,
    startedAt: date,
    finishedAt: date,
    tme: int,
    ivrTime: int,
    attendanceTime: int,
    startedByAgent: bool,
    finishedByAgent: bool,
    classified: bool,
    liked: bool,
    comment: text,
    ...AUDIT,
  },
  callLogHistory: {
    id: int,
    callId: text,
    origCallId: text,
    callerId: text,
    callerType: text,
    eventType: text,
    eventDate: date,
    groupConfId: idOf('group'),
    origin: text,
    ...AUDIT,
  },
  chatAnswer: { id: int, sessionId: idOf('userSession'), questionId: int, optionAnswerId: int, value: text, ...AUDIT },
  chatWebConfiguration: {
    id: int,
    chatGroupConf: ref('group'),
    token: text,
    initialMessage: text,
    configuration: any,
    cssScript: text,
    htmlScript: text,
    jsScript: text,
    ...AUDIT,
  },
  // §2.8 Classification node.
  classification: { id: int, value: text, active: bool, nodeId: int, children: any, parent: any, ...AUDIT },
  // The classification-service save lost `classificationTree` (§9.11).
  classificationService: {
    id: int,
    sessionId: idOf('userSession'),
    agentId: idOf('user'),
    groupConfId: idOf('group'),
    rootId: idOf('classification'),
    displayName: text,
    commentClassification: text,
    classificationTreeSession: any,
    classificationTree: readOnly(any),
    ...AUDIT,
  },
  cognition: {
    id: int,
    name: text,
    type: text,
    endPoint: text,
    appId: text,
    appKey: text,
    userName: text,
    password: text,
    version: text,
    ...CREATED,
  },
  directMessage: {
    id: int,
    channel: text,
    campaignName: text,
    description: text,
    subject: text,
    message: text,
    status: text,
    phoneNumber: text,
    email: text,
    user: ref('user'),
    userId: { kind: idOf('user'), label: 'directMessage.userId' },
    agentId: idOf('user'),
    senderUserId: idOf('user'),
    groupConfId: idOf('group'),
    groupName: text,
    sendGroupConfId: idOf('group'),
    sessionId: idOf('userSession'),
    broadcastListId: int,
    dispatchId: text,
    callback: text,
    additionalInfo: any,
    generatedSession: bool,
    sendTimestamp: date,
    sentAt: date,
    ...CREATED,
    updatedAt: date,
  },
  workSchedule: {
    id: int,
    name: text,
    scheduleName: text,
    dayCode: int,
    openTime: text,
    closeTime: text,
    active: bool,
    ...AUDIT,
  },
  // §2.8 User.
  user: {
    id: int,
    name: text,
    displayName: text,
    userName: text,
    email: text,
    phone: text,
    cpf: text,
    typeUser: text,
    active: bool,
    visible: bool,
    profile: any,
    agent: ref('agent'),
    company: any,
    operation: text,
    country: text,
    defaultLocale: text,
    externalCode: text,
    originUser: text,
    accessKey: text,
    password: text,
    priority: int,
    ticketUserId: int,
    birthDate: date,
    firstLogin: date,
    lastLogin: date,
    createdFromSurvey: bool,
    firstAccess: bool,
    formal: bool,
    tm2: bool,
    usingMFA: bool,
    ...AUDIT,
  },
};

const isKind = (e: Entry): e is FieldKind => 'type' in e;

const specOf = ([key, e]: [FieldWord, Entry]): FieldSpec =>
  isKind(e) ? { key, label: key, kind: e, readOnly: false } : { key, label: e.label ?? key, kind: e.kind, readOnly: e.readOnly === true };
const SPECS = {} as Record<ResourceKey, readonly FieldSpec[]>;
for (const resource of Object.keys(TABLE) as ResourceKey[])
  SPECS[resource] = (Object.entries(TABLE[resource]) as Array<[FieldWord, Entry]>).map(specOf);

/** The known fields of a resource, in form order. */
export const fieldsOf = (resource: ResourceKey): readonly FieldSpec[] => SPECS[resource];

/**
 * The form's fields for one record: the known ones, then every other field the record carries
 * (a field this table lacks still shows, as JSON text, so a save never loses it).
 */
export function formFields(resource: ResourceKey, record: Record<string, unknown>): FieldSpec[] {
  const known = SPECS[resource];
  const covered = new Set(known.map((f) => f.key.split('.')[0]!));
  const extra = Object.keys(record)
    .filter((k) => !covered.has(k))
    .map((key): FieldSpec => ({ key, label: null, kind: any, readOnly: false }));
  return [...known, ...extra];
}

/** A field the condition builder offers: the key a condition tests, and its kind. */
export interface ConditionField {
  key: string;
  label: FieldWord | null;
  kind: FieldKind;
}

/**
 * The fields a condition can test: a reference sent as `{id}` is tested on its id
 * (`groupConf.id`, DESIGN.md §2), every other field as it is; then keys seen in records that
 * the table lacks.
 */
export function conditionFields(resource: ResourceKey, seen: readonly string[] = []): ConditionField[] {
  const out: ConditionField[] = SPECS[resource].map((f) => ({
    key: f.kind.type === 'ref' && f.kind.shape === 'object' ? `${f.key}.id` : f.key,
    label: f.label,
    kind: f.kind,
  }));
  const keys = new Set(out.map((f) => f.key));
  const parents = new Set(SPECS[resource].map((f) => f.key.split('.')[0]!));
  for (const key of seen) if (!keys.has(key) && !parents.has(key)) out.push({ key, label: null, kind: any });
  return out;
}
