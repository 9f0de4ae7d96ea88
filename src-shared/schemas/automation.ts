import { z } from 'zod';
import { anyValue, audit, bool, created, dateTime, externalId, flagOrRef, int, nested, num, ref, scalar, str, readObject } from './common';
import { GroupConfigurationSchema } from './group';
import { AgentSchema, UserSchema } from './people';
import { SessionSchema } from './session';
export { CognitionSchema } from './cognition';

/**
 * Bots, calls, chat widgets, classification services, cognition and direct messages (§2.9).
 * v2 dropped classificationTree from the classification-service save (§9.11): left untyped.
 */

export const BotSchema = readObject({
  active: bool(),
  agent: ref(AgentSchema),
  botTree: nested(z.object({ id: int(), version: scalar() }).loose()),
  external: bool(),
  id: int(),
  survey: scalar(),
  ...audit,
});

export const BotAnswerSchema = readObject({
  answer: str(),
  botQuestions: nested(z.object({ id: int(), seq: int() }).loose()),
  id: int(),
  session: ref(SessionSchema),
});

export const CallSchema = readObject({
  agentId: int(),
  attendanceTime: num(),
  callId: externalId(),
  callMode: str(),
  city: str(),
  classified: bool(),
  comment: str(),
  externalId: externalId(),
  finishedAt: dateTime(),
  finishedByAgent: bool(),
  groupConfId: int(),
  id: int(),
  ivrTime: num(),
  kind: str(),
  liked: bool(),
  plataformCode: str(),
  provider: str(),
  ringingAt: dateTime(),
  sessionId: int(),
  startedAt: dateTime(),
  startedByAgent: bool(),
  state: str(),
  status: str(),
  tme: num(),
  userId: int(),
  ...audit,
});

export const CallLogHistorySchema = readObject({
  callId: externalId(),
  callerId: externalId(),
  callerType: str(),
  eventDate: dateTime(),
  eventType: str(),
  groupConfId: int(),
  id: int(),
  origCallId: externalId(),
  origin: str(),
  ...audit,
});

export const ChatAnswerSchema = readObject({
  id: int(),
  optionAnswerId: int(),
  questionId: int(),
  sessionId: int(),
  value: str(),
  ...audit,
});

export const ChatWebConfigurationSchema = readObject({
  chatGroupConf: ref(GroupConfigurationSchema),
  configuration: anyValue(),
  cssScript: str(),
  htmlScript: str(),
  id: int(),
  initialMessage: str(),
  jsScript: str(),
  token: str(),
  ...audit,
});

export const ClassificationServiceSchema = readObject({
  agentId: int(),
  classificationTree: anyValue(),
  classificationTreeSession: anyValue(),
  commentClassification: str(),
  displayName: str(),
  groupConfId: int(),
  id: int(),
  rootId: int(),
  sessionId: int(),
  ...audit,
});

export const DirectMessageSchema = readObject({
  additionalInfo: anyValue(),
  agentId: int(),
  broadcastListId: int(),
  callback: anyValue(),
  campaignName: str(),
  channel: str(),
  description: str(),
  dispatchId: externalId(),
  email: str(),
  generatedSession: flagOrRef(SessionSchema),
  groupConfId: int(),
  groupName: str(),
  id: int(),
  message: str(),
  phoneNumber: str(),
  sendGroupConfId: int(),
  sendTimestamp: dateTime(),
  senderUserId: int(),
  sentAt: dateTime(),
  sessionId: int(),
  status: str(),
  subject: str(),
  user: ref(UserSchema),
  userId: int(),
  ...created,
  updatedAt: dateTime(),
});

export type ClassificationService = z.infer<typeof ClassificationServiceSchema>;
