import { z } from 'zod';
import { ThreadMessageSchema } from './attendance';
import { UnreadableSchema } from './unreadable';

/**
 * The attendant's context: a customer's earlier sessions with their tickets and survey answers,
 * an earlier session read without opening it, and the search over sessions and messages.
 * Strict: we own these shapes.
 */

const id = z.number().int();

/** One earlier session of the customer, as the panel lists it. */
export const PastSessionSchema = z
  .object({
    id,
    createdAt: z.string().nullable(),
    closedAt: z.string().nullable(),
    status: z.string(),
    groupName: z.string().nullable(),
    channel: z.string().nullable(),
    agentName: z.string().nullable(),
    protocol: z.string().nullable(),
    /** The closing classification as its record reads (the path chosen). */
    classification: z.string().nullable(),
    /** Seconds from creation to close; null while open or when either date is unknown. */
    durationSeconds: z.number().int().min(0).nullable(),
    ticketId: id.nullable(),
    /** The customer's survey answers given for this session, as the service wrote them. */
    survey: z.array(z.string()),
  })
  .strict();
export type PastSession = z.infer<typeof PastSessionSchema>;

export const CustomerTicketSchema = z
  .object({ id, title: z.string().nullable(), status: z.string().nullable(), sessionId: id.nullable() })
  .strict();
export type CustomerTicket = z.infer<typeof CustomerTicketSchema>;

/** Parts of the panel that could not be read: the rest is shown and these named. */
export const HISTORY_PARTS = ['classifications', 'survey', 'tickets'] as const;

export const CustomerHistorySchema = z
  .object({
    customerName: z.string().nullable(),
    /** The customer's other sessions, newest first (the open one left out). */
    sessions: z.array(PastSessionSchema),
    tickets: z.array(CustomerTicketSchema),
    /** More sessions exist than the panel read. */
    more: z.boolean(),
    failed: z.array(z.enum(HISTORY_PARTS)),
    unreadable: UnreadableSchema,
    fetchedAt: z.string(),
  })
  .strict();
export type CustomerHistory = z.infer<typeof CustomerHistorySchema>;

export const MATCH_FIELDS = ['name', 'protocol', 'email', 'phone', 'ticket', 'order', 'message'] as const;
export type MatchField = (typeof MATCH_FIELDS)[number];

export const SearchHitSchema = z
  .object({
    sessionId: id,
    customerName: z.string(),
    status: z.string().nullable(),
    channel: z.string().nullable(),
    groupName: z.string().nullable(),
    protocol: z.string().nullable(),
    at: z.string().nullable(),
    field: z.enum(MATCH_FIELDS),
    /** The matched text with what surrounds it (documents masked): before, match, after. */
    snippet: z.object({ before: z.string(), match: z.string(), after: z.string() }).strict(),
    /** The message that matched, to open the thread at it. */
    messageId: id.nullable(),
  })
  .strict();
export type SearchHit = z.infer<typeof SearchHitSchema>;

export const SearchResultSchema = z
  .object({
    query: z.string(),
    hits: z.array(SearchHitSchema),
    /** A newer search replaced this one before it was answered. */
    superseded: z.boolean(),
    /** The service was away: these come from the copies kept on this computer, read at `keptAt`. */
    offline: z.boolean(),
    keptAt: z.string().nullable(),
  })
  .strict();
export type SearchResult = z.infer<typeof SearchResultSchema>;

export const historyChannels = {
  /** The customer of session `sessionId`: their other sessions, tickets and survey answers. */
  'history:customer': { input: z.object({ sessionId: id }).strict(), output: CustomerHistorySchema },
  /** An earlier session read-only: its newest messages (nothing is tracked or marked seen). */
  'history:session': {
    input: z.object({ sessionId: id }).strict(),
    output: z.object({ messages: z.array(ThreadMessageSchema), hasMore: z.boolean(), unreadable: UnreadableSchema }).strict(),
  },
  'history:search': {
    input: z.object({ query: z.string().max(200) }).strict(),
    output: SearchResultSchema,
  },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export const historyEvents = {} as const satisfies Record<string, z.ZodType>;
