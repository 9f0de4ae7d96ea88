import { z } from 'zod';
import { anyValue, audit, bool, created, dateTime, int, scalar, nested, num, ref, str } from './common';
import { GroupConfigurationSchema } from './group';
import { AgentSchema, UserSchema } from './people';
import { SessionSchema } from './session';
import { BotSchema } from './automation';

/**
 * Attendance resources of §2.9 (field names only in the interface): ids and counters are
 * integers, names strings, flags booleans; a field whose type cannot be told stays unknown.
 */

export const AttributeSchema = z.object({ active: bool(), description: str(), id: int(), ...audit }).loose();

export const UserAttributeSchema = z
  .object({ attribute: ref(AttributeSchema), id: int(), user: ref(UserSchema), value: str(), ...audit })
  .loose();

export const UserAttributeHistorySchema = z
  .object({
    userAttributesHistId: nested(z.object({ sessionId: int(), userAttributesId: int() }).loose()),
    ...audit,
  })
  .loose();

export const UserAgentSchema = z
  .object({
    agent: ref(AgentSchema),
    associationId: nested(z.object({ userId: int(), agentId: int() }).loose()),
    user: ref(UserSchema),
    ...audit,
  })
  .loose();

export const AttendanceTimeReportRowSchema = z
  .object({
    agentName: str(),
    attendanceTime: num(),
    channelName: str(),
    closedAtProtocol: dateTime(),
    createdAtProtocol: dateTime(),
    groupName: str(),
    id: int(),
    lastGroup: str(),
    lastStatus: str(),
    nextGroup: str(),
    operationName: str(),
    protocol: str(),
    protocolDuration: num(),
    step: scalar(),
    waitingTime: num(),
    ...audit,
  })
  .loose();

export const PauseReasonSchema = z
  .object({
    active: bool(),
    controlPauseTime: scalar(),
    id: int(),
    notifySupervisor: bool(),
    pauseChat: bool(),
    pauseChatByVoice: bool(),
    pauseTime: num(),
    pauseVoice: bool(),
    value: str(),
    ...audit,
  })
  .loose();

export const MessageBundleGroupSchema = z
  .object({
    code: str(),
    description: str(),
    group: ref(GroupConfigurationSchema),
    id: int(),
    locale: str(),
    text: str(),
    use: anyValue(),
    ...audit,
  })
  .loose();

export const HsmTemplateSchema = z
  .object({
    active: bool(),
    description: str(),
    elementName: str(),
    id: int(),
    mediaParameterCount: int(),
    nameSpace: str(),
    parameterCount: int(),
    template: str(),
    language: str(),
    ...audit,
  })
  .loose();

export const HsmTemplateGroupSchema = z
  .object({
    hsmTemplateGroupId: nested(z.object({ groupConfId: int(), hsmTemplateId: int() }).loose()),
    hsmTemplate: ref(HsmTemplateSchema),
  })
  .loose();

export const HolidayOperationSchema = z
  .object({
    holiday: anyValue(),
    holidayOperationId: nested(z.object({ holidayId: int(), operationId: int() }).loose()),
    operations: anyValue(),
  })
  .loose();

export const WorkScheduleSchema = z
  .object({
    active: bool(),
    closeTime: str(),
    dayCode: int(),
    id: int(),
    name: str(),
    openTime: str(),
    scheduleName: str(),
    ...audit,
  })
  .loose();

export const BotTagSchema = z
  .object({
    bot: ref(BotSchema),
    id: int(),
    message: anyValue(),
    session: ref(SessionSchema),
    tag: str(),
    ...created,
  })
  .loose();

export type AttendanceTimeReportRow = z.infer<typeof AttendanceTimeReportRowSchema>;
export type PauseReason = z.infer<typeof PauseReasonSchema>;
export type MessageBundleGroup = z.infer<typeof MessageBundleGroupSchema>;
export type HsmTemplate = z.infer<typeof HsmTemplateSchema>;
export type HsmTemplateGroup = z.infer<typeof HsmTemplateGroupSchema>;
