import { z } from 'zod';
import { anyValue, bool, dateTime, flagOrRef, flagOrText, int, ref, reqInt, reqNum, str, readObject } from './common';
import { CognitionSchema } from './cognition';
import { GroupConfigurationSchema } from './group';
import { UserSchema } from './people';

/**
 * User session (§2.7): a conversation. The channel is in `userConnectedResource` or
 * `userConnectedInstance` (`channelOf`); v2 saves answer without `agent` and `user` (§4.3).
 * Servers embed the agent, the customer and the group as whole records, summaries or bare ids:
 * each is read as a reference and then through src-shared/concepts.ts (`sessionAgentOf`,
 * `sessionCustomerOf`, `sessionGroupOf`).
 */
export const SessionSchema = readObject({
  agent: ref(UserSchema),
  agentConnectedInstance: str(),
  agentConnectedResource: str(),
  attendedAt: dateTime(),
  availableAt: dateTime(),
  closedAt: dateTime(),
  createdAt: dateTime(),
  updatedAt: dateTime(),
  closedBy: str(),
  updatedBy: str(),
  customProtocol: str(),
  externalProtocol: str(),
  protocol: str(),
  directMessageId: int(),
  externalOrderId: int(),
  id: int(),
  ticketId: int(),
  groupConf: ref(GroupConfigurationSchema),
  groupList: str(),
  inactivity: str(),
  lastAgent: str(),
  properties: str(),
  status: str(),
  hasReservedWord: bool(),
  onlyBot: bool(),
  pending: bool(),
  priority: bool(),
  tma: int(),
  tme: int(),
  tmi: int(),
  tmia: int(),
  tmic: int(),
  tmaTicket: int(),
  user: ref(UserSchema),
  userConnectedInstance: str(),
  userConnectedResource: str(),
});

/**
 * Message (§2.9: field names only). Who wrote it (`fromUser`, `toUser`, `sendBy`,
 * `sentBySuperAgent`) and its session come in several shapes: each is read as a flag or a
 * reference here and then through src-shared/concepts.ts (`authorOf`, `sessionIdOf`);
 * `sentiment` (a word, an object, a score) is read by `sentimentOf`.
 */
export const MessageSchema = readObject({
  caption: str(),
  cognition: flagOrRef(CognitionSchema),
  contentType: str(),
  createdAt: dateTime(),
  errorConversation: flagOrText(),
  fromUser: flagOrRef(UserSchema),
  id: int(),
  message: str(),
  repliedMessage: ref(z.lazy((): z.ZodType => MessageSchema)),
  sendBy: ref(UserSchema),
  sentBySuperAgent: bool(),
  sentiment: anyValue(),
  session: ref(SessionSchema),
  sessionId: int(),
  toUser: ref(UserSchema),
});

/** Session comment (§2.9): an internal note. */
export const SessionCommentSchema = readObject({ comment: str(), id: int(), sessionId: int(), createdAt: dateTime(), createdBy: str() });

/** Chat suggestion item (§2.7); `session` is a Session by the interface, often only `{id}`. */
export const ChatSuggestionSchema = readObject({ createdAt: dateTime(), id: int(), session: ref(SessionSchema), suggestion: str() });

/** NPS summary (§2.3): every field required. */
export const NpsSummarySchema = readObject({
  averageNps: reqNum(),
  negative: reqInt(),
  neutral: reqInt(),
  positive: reqInt(),
  totalCount: reqInt(),
});

export type Session = z.infer<typeof SessionSchema>;
export type Message = z.infer<typeof MessageSchema>;
export type SessionComment = z.infer<typeof SessionCommentSchema>;
export type ChatSuggestion = z.infer<typeof ChatSuggestionSchema>;
export type NpsSummary = z.infer<typeof NpsSummarySchema>;
