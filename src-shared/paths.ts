/**
 * Every path of the interface (service-interface.md §4). Both the service client and the
 * stand-in are driven from these tables, so a path is spelled once.
 */
export const V2 = '/chatapi/1.0/api/v2';
export const TICKET = '/ticketapi/1.0/api/v1';
export const AI = '/transformersapi/1.0';
export const VOICE = '/voicemodelapi/1.0';

/** The 27 rows of §4.4: resource key -> list path and save path (null where none is listed). */
export const RESOURCES = {
  agent: { list: '/agent', save: '/agent/save' },
  userSession: { list: '/user-session', save: '/user-session/save' },
  userAttribute: { list: '/user-attributes', save: '/user-attributes/save' },
  userAttributeHistory: { list: '/user-attributes-hist', save: '/user-attributes-hist/save' },
  userAgent: { list: '/user-agent', save: '/user-agent/save' },
  botTag: { list: '/tag-bot', save: '/tag-bot/save' },
  sessionComment: { list: '/session-comment', save: '/session-comment/save' },
  attendanceTimeReport: { list: '/report-attendance-time', save: null },
  pauseReason: { list: '/pause-reasons', save: null },
  message: { list: '/messages', save: '/messages/save' },
  messageBundleGroup: { list: '/message-bundle-group', save: '/message-bundle-group/save' },
  hsmTemplate: { list: '/hsm-template', save: '/hsm-template/save' },
  hsmTemplateGroup: { list: '/hsm-template-group', save: '/hsm-template-group/save' },
  holidayOperation: { list: null, save: '/holiday-operation/save' },
  attribute: { list: '/attributes', save: '/attributes/save' },
  bot: { list: '/bot', save: '/bot/save' },
  botAnswer: { list: '/bot-answer', save: '/bot-answer/save' },
  call: { list: '/call', save: '/call/save' },
  callLogHistory: { list: '/call-log-hist', save: '/call-log-hist/save' },
  chatAnswer: { list: '/chat-answer', save: '/chat-answer/save' },
  chatWebConfiguration: { list: '/chat-web-conf', save: '/chat-web-conf/save' },
  classification: { list: '/classification', save: '/classification/save' },
  classificationService: { list: '/classification-service', save: '/classification-service/save' },
  cognition: { list: '/cognition', save: '/cognition/save' },
  directMessage: { list: '/direct-message', save: null },
  workSchedule: { list: '/work-schedule', save: '/work-schedule/save' },
  user: { list: '/users', save: '/users/save' },
} as const satisfies Record<string, { list: string | null; save: string | null }>;

export type ResourceKey = keyof typeof RESOURCES;
export const RESOURCE_KEYS = Object.keys(RESOURCES) as ResourceKey[];

/** §4.3 operations and the added v2 paths of §4.4. */
export const V2_OPS = {
  chatSuggestion: '/chat/suggestion',
  npsSummary: (surveyName: string) => `/user-session/survey/nps-summary/${encodeURIComponent(surveyName)}`,
  groupsUnique: '/groups/unique',
  sessionUnique: '/user-session/unique',
  saveAgentSupervisor: '/users/save/agent-supervisor',
  saveAgentUser: '/users/save/agent',
  saveAdministrator: '/users/save/administrator',
  userRules: '/users/rules',
  userChannels: '/users/channels',
} as const;

export const AI_OPS = {
  ner: `${AI}/ner`,
  nlp: `${AI}/nlp`,
  modelsByProviders: `${AI}/models_by_providers`,
  questions: `${AI}/questions`,
  uploadFiles: `${AI}/upload_files`,
  stt: `${VOICE}/stt`,
  tts: `${VOICE}/tts`,
} as const;

export const ticketPath = (ticketId: string) => `${TICKET}/tickets/${encodeURIComponent(ticketId)}`;

/** Roles a token carries (DESIGN.md §2). */
export const ROLES = ['agent', 'supervisor', 'admin'] as const;
export type Role = (typeof ROLES)[number];
