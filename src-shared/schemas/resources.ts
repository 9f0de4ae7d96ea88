import type { z } from 'zod';
import type { ResourceKey } from '../paths';
import {
  AttendanceTimeReportRowSchema,
  AttributeSchema,
  BotTagSchema,
  HolidayOperationSchema,
  HsmTemplateGroupSchema,
  HsmTemplateSchema,
  MessageBundleGroupSchema,
  PauseReasonSchema,
  UserAgentSchema,
  UserAttributeHistorySchema,
  UserAttributeSchema,
  WorkScheduleSchema,
} from './attendance';
import {
  BotAnswerSchema,
  BotSchema,
  CallLogHistorySchema,
  CallSchema,
  ChatAnswerSchema,
  ChatWebConfigurationSchema,
  ClassificationServiceSchema,
  CognitionSchema,
  DirectMessageSchema,
} from './automation';
import { ClassificationNodeSchema } from './group';
import { AgentSchema, UserSchema } from './people';
import { MessageSchema, SessionCommentSchema, SessionSchema } from './session';

/** The schema of each of the 27 resources of §4.4, keyed like `RESOURCES` in paths.ts. */
export const RESOURCE_SCHEMAS = {
  agent: AgentSchema,
  userSession: SessionSchema,
  userAttribute: UserAttributeSchema,
  userAttributeHistory: UserAttributeHistorySchema,
  userAgent: UserAgentSchema,
  botTag: BotTagSchema,
  sessionComment: SessionCommentSchema,
  attendanceTimeReport: AttendanceTimeReportRowSchema,
  pauseReason: PauseReasonSchema,
  message: MessageSchema,
  messageBundleGroup: MessageBundleGroupSchema,
  hsmTemplate: HsmTemplateSchema,
  hsmTemplateGroup: HsmTemplateGroupSchema,
  holidayOperation: HolidayOperationSchema,
  attribute: AttributeSchema,
  bot: BotSchema,
  botAnswer: BotAnswerSchema,
  call: CallSchema,
  callLogHistory: CallLogHistorySchema,
  chatAnswer: ChatAnswerSchema,
  chatWebConfiguration: ChatWebConfigurationSchema,
  classification: ClassificationNodeSchema,
  classificationService: ClassificationServiceSchema,
  cognition: CognitionSchema,
  directMessage: DirectMessageSchema,
  workSchedule: WorkScheduleSchema,
  user: UserSchema,
} as const satisfies Record<ResourceKey, z.ZodType>;

/** The record type of a resource, e.g. `ResourceRecord<'sessionComment'>`. */
export type ResourceRecord<K extends ResourceKey> = z.infer<(typeof RESOURCE_SCHEMAS)[K]>;
