import { z } from 'zod';
import { bool, created, dateTime, int, opt, str, anyValue } from './common';
import { GroupConfigurationSchema } from './group';
import { UserSchema } from './people';

/**
 * User session (§2.7): a conversation. The stand-in names the channel in
 * `userConnectedResource`; v2 saves answer without `agent` and `user` (§4.3).
 */
export const SessionSchema = z
  .object({
    agent: opt(UserSchema),
    agentConnectedInstance: str(), agentConnectedResource: str(),
    attendedAt: dateTime(), availableAt: dateTime(), closedAt: dateTime(),
    createdAt: dateTime(), updatedAt: dateTime(),
    closedBy: str(), updatedBy: str(),
    customProtocol: str(), externalProtocol: str(), protocol: str(),
    directMessageId: int(), externalOrderId: int(), id: int(), ticketId: int(),
    groupConf: opt(GroupConfigurationSchema),
    groupList: str(), inactivity: str(), lastAgent: str(), properties: str(), status: str(),
    hasReservedWord: bool(), onlyBot: bool(), pending: bool(), priority: bool(),
    tma: int(), tme: int(), tmi: int(), tmia: int(), tmic: int(),
    tmaTicket: int(),
    user: opt(UserSchema),
    userConnectedInstance: str(), userConnectedResource: str(),
  })
  .loose();

/** A session as referenced from another record (often just `{id}`). */
export const SessionRefSchema = SessionSchema;

/**
 * Message (§2.9). Stand-in decisions: `fromUser` true marks the customer side, `sendBy` names
 * the sender, `session` is `{id}`. Fields the interface leaves untyped stay unknown.
 */
export const MessageSchema = z
  .object({
    caption: str(),
    cognition: anyValue(),
    contentType: str(),
    createdAt: dateTime(),
    errorConversation: anyValue(),
    fromUser: bool(),
    id: int(),
    message: str(),
    repliedMessage: anyValue(),
    sendBy: str(),
    sentBySuperAgent: bool(),
    sentiment: anyValue(),
    session: opt(SessionRefSchema),
    toUser: anyValue(),
  })
  .loose();

/** Session comment: an internal note (stand-in shape `{id, sessionId, comment, createdAt, createdBy}`). */
export const SessionCommentSchema = z
  .object({ comment: str(), id: int(), sessionId: int(), ...created })
  .loose();

/** Chat suggestion item (§2.7). */
export const ChatSuggestionSchema = z
  .object({ createdAt: dateTime(), id: int(), session: opt(SessionRefSchema), suggestion: str() })
  .loose();

/** NPS summary (§2.3): every field required. */
export const NpsSummarySchema = z
  .object({
    averageNps: z.number(),
    negative: z.number().int(),
    neutral: z.number().int(),
    positive: z.number().int(),
    totalCount: z.number().int(),
  })
  .loose();

export type Session = z.infer<typeof SessionSchema>;
export type Message = z.infer<typeof MessageSchema>;
export type SessionComment = z.infer<typeof SessionCommentSchema>;
export type ChatSuggestion = z.infer<typeof ChatSuggestionSchema>;
export type NpsSummary = z.infer<typeof NpsSummarySchema>;
