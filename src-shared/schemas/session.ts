import { z } from 'zod';
import { anyValue, bool, dateTime, int, str } from './common';

/**
 * User session (§2.7): a conversation. The stand-in names the channel in
 * `userConnectedResource`; v2 saves answer without `agent` and `user` (§4.3). Servers embed the
 * agent, the customer and the group as whole records, summaries or bare ids: those three are
 * read through src-shared/concepts.ts (`sessionAgentOf`, `sessionCustomerOf`, `sessionGroupOf`).
 */
export const SessionSchema = z
  .object({
    agent: anyValue(),
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
    groupConf: anyValue(),
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
    user: anyValue(),
    userConnectedInstance: str(),
    userConnectedResource: str(),
  })
  .loose();

/**
 * Message (§2.9: field names only). Who wrote it (`fromUser`, `toUser`, `sendBy`,
 * `sentBySuperAgent`), its session, id, time and sentiment come in several shapes: they stay
 * unknown here and are read through src-shared/concepts.ts (`authorOf`, `sessionIdOf`,
 * `idOf`, `instantOf`, `sentimentOf`).
 */
export const MessageSchema = z
  .object({
    caption: str(),
    cognition: anyValue(),
    contentType: str(),
    createdAt: anyValue(),
    errorConversation: anyValue(),
    fromUser: anyValue(),
    id: anyValue(),
    message: str(),
    repliedMessage: anyValue(),
    sendBy: anyValue(),
    sentBySuperAgent: anyValue(),
    sentiment: anyValue(),
    session: anyValue(),
    toUser: anyValue(),
  })
  .loose();

/** Session comment (§2.9): an internal note; id, session and time read through concepts.ts. */
export const SessionCommentSchema = z
  .object({ comment: str(), id: anyValue(), sessionId: anyValue(), createdAt: anyValue(), createdBy: str() })
  .loose();

/** Chat suggestion item (§2.7); `session` is a Session by the interface, often only `{id}`. */
export const ChatSuggestionSchema = z.object({ createdAt: dateTime(), id: int(), session: anyValue(), suggestion: str() }).loose();

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
