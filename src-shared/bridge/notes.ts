import { z } from 'zod';
import { ErrorInfoSchema } from '../errors';

/** Session notes through the durable outbox, and per-session drafts. Strict: we own these. */

const id = z.number().int();

export const NOTE_STATE_NAMES = ['pending', 'sending', 'outcome-unknown', 'confirmed', 'failed'] as const;

export const LocalNoteSchema = z
  .object({
    id: z.string(),
    ref: z.string(),
    sessionId: id,
    text: z.string(),
    state: z.enum(NOTE_STATE_NAMES),
    createdAt: z.number(),
    updatedAt: z.number(),
    attempts: z.number().int(),
    serviceId: id.optional(),
    error: ErrorInfoSchema.optional(),
  })
  .strict();
export type LocalNote = z.infer<typeof LocalNoteSchema>;

/** A note as the service holds it: `text` is the stored comment, reference suffix included (the renderer hides it with splitRef). */
export const ServiceNoteSchema = z
  .object({ id, text: z.string(), ref: z.string().nullable(), createdAt: z.string().nullable(), createdBy: z.string().nullable() })
  .strict();
export type ServiceNote = z.infer<typeof ServiceNoteSchema>;

/** A journal entry that could not be read: set aside (never sent, never silently dropped). */
export const OutboxProblemSchema = z
  .object({ kind: z.literal('quarantined'), file: z.string(), movedTo: z.string(), message: z.string(), at: z.number() })
  .strict();

export const OutboxStatusSchema = z
  .object({
    connectivity: z.enum(['online', 'offline', 'paused']),
    reason: ErrorInfoSchema.optional(),
    nextAttemptAt: z.number().optional(),
    counts: z.record(z.string(), z.number().int()),
    problems: z.array(OutboxProblemSchema),
  })
  .strict();
export type OutboxStatusInfo = z.infer<typeof OutboxStatusSchema>;

/** A colleague's note that mentions the attendant ("@Name"), waiting until its session is opened. */
export const MentionSchema = z
  .object({
    noteId: id,
    sessionId: id,
    /** Who wrote the note (their login, as the service stores it). */
    by: z.string().nullable(),
    /** When (the service's own text). */
    at: z.string().nullable(),
    /** A short piece of the note around the mention. */
    excerpt: z.string(),
    /** As the console knew them when it found the note: the writer's name, the session's customer and protocol. */
    byName: z.string().nullable().optional(),
    customerName: z.string().nullable().optional(),
    protocol: z.string().nullable().optional(),
  })
  .strict();
export type Mention = z.infer<typeof MentionSchema>;
export const DraftKindSchema = z.enum(['reply', 'note']);

export const notesChannels = {
  'notes:list': {
    input: z.object({ sessionId: id }).strict(),
    output: z
      .object({
        service: z.array(ServiceNoteSchema),
        local: z.array(LocalNoteSchema),
        /** Why the service's notes could not be read: worded by the page, in its language. */
        serviceError: ErrorInfoSchema.nullable(),
        /** Set when `service` is the offline copy kept on this computer: when it was read (ISO). */
        cachedAt: z.string().nullable(),
      })
      .strict(),
  },
  'notes:add': { input: z.object({ sessionId: id, text: z.string().trim().min(1).max(8000) }).strict(), output: LocalNoteSchema },
  'notes:retry': {
    input: z.object({ id: z.string().uuid(), text: z.string().trim().min(1).max(8000).optional() }).strict(),
    output: LocalNoteSchema,
  },
  'notes:discard': { input: z.object({ id: z.string().uuid() }).strict(), output: z.object({ ok: z.boolean() }).strict() },
  'notes:status': { input: z.object({}).strict(), output: OutboxStatusSchema },
  'notes:draft': { input: z.object({ sessionId: id }).strict(), output: z.object({ reply: z.string(), note: z.string() }).strict() },
  'notes:setDraft': {
    input: z.object({ sessionId: id, kind: DraftKindSchema, text: z.string().max(20_000) }).strict(),
    output: z.object({ ok: z.boolean() }).strict(),
  },
  /** Colleagues' notes mentioning the attendant, not yet opened. */
  'notes:mentions': { input: z.object({}).strict(), output: z.object({ mentions: z.array(MentionSchema) }).strict() },
  /** The attendant opened a session: its mentions are seen and not shown again. */
  'notes:mentionSeen': { input: z.object({ sessionId: id }).strict(), output: z.object({ ok: z.boolean() }).strict() },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export const notesEvents = {
  'notes:changed': z.object({ sessionId: id, note: LocalNoteSchema.nullable(), removedId: z.string().nullable() }).strict(),
  'notes:status': OutboxStatusSchema,
  'notes:mentions': z.object({ mentions: z.array(MentionSchema) }).strict(),
} as const satisfies Record<string, z.ZodType>;
