import { z } from 'zod';
import { anyValue, audit, bool, created, dateTime, int, scalar, nested, num, ref, str, readObject } from './common';
import { GroupConfigurationSchema } from './group';
import { AgentSchema, UserSchema } from './people';
import { SessionSchema } from './session';
import { BotSchema } from './automation';

/**
 * Attendance resources of §2.9 (field names only in the interface): ids and counters are
 * integers, names strings, flags booleans; a field whose type cannot be told stays unknown.
 */

export const AttributeSchema = readObject({ active: bool(), description: str(), id: int(), ...audit });

export const UserAttributeSchema = readObject({
  attribute: ref(AttributeSchema),
  id: int(),
  user: ref(UserSchema),
  value: str(),
  ...audit,
});

export const UserAttributeHistorySchema = readObject({
  userAttributesHistId: nested(z.object({ sessionId: int(), userAttributesId: int() }).loose()),
  ...audit,
});

export const UserAgentSchema = readObject({
  agent: ref(AgentSchema),
  associationId: nested(z.object({ userId: int(), agentId: int() }).loose()),
  user: ref(UserSchema),
  ...audit,
});

export const AttendanceTimeReportRowSchema = readObject({
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
});

export const PauseReasonSchema = readObject({
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
});

export const MessageBundleGroupSchema = readObject({
  code: str(),
  description: str(),
  group: ref(GroupConfigurationSchema),
  id: int(),
  locale: str(),
  text: str(),
  use: anyValue(),
  ...audit,
});

export const HsmTemplateSchema = readObject({
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
});

export const HsmTemplateGroupSchema = readObject({
  hsmTemplateGroupId: nested(z.object({ groupConfId: int(), hsmTemplateId: int() }).loose()),
  hsmTemplate: ref(HsmTemplateSchema),
});

export const HolidayOperationSchema = readObject({
  holiday: anyValue(),
  holidayOperationId: nested(z.object({ holidayId: int(), operationId: int() }).loose()),
  operations: anyValue(),
});

export const WorkScheduleSchema = readObject({
  active: bool(),
  closeTime: str(),
  dayCode: int(),
  id: int(),
  name: str(),
  openTime: str(),
  scheduleName: str(),
  ...audit,
});

export const BotTagSchema = readObject({
  bot: ref(BotSchema),
  id: int(),
  message: anyValue(),
  session: ref(SessionSchema),
  tag: str(),
  ...created,
});

export type AttendanceTimeReportRow = z.infer<typeof AttendanceTimeReportRowSchema>;
export type PauseReason = z.infer<typeof PauseReasonSchema>;
export type MessageBundleGroup = z.infer<typeof MessageBundleGroupSchema>;
export type HsmTemplate = z.infer<typeof HsmTemplateSchema>;
export type HsmTemplateGroup = z.infer<typeof HsmTemplateGroupSchema>;
