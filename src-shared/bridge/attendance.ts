import { CHAT_FILE_CHUNK_BYTES, CHAT_FILE_MAX_BYTES } from '../chat-files';
import { z } from 'zod';
import { NoInput } from './no-input';
import { UnreadableSchema } from './unreadable';
import { OLDER_PAGES_MAX } from '../thread-pages';
import { QUEUE_WIDTH_MAX, QUEUE_WIDTH_MIN } from '../queue-width';

/**
 * The attendant's console: queue deltas, threads, composer help, classification and close,
 * and agent status. Strict: we own these shapes.
 */

const id = z.number().int();

/** What the queue shows of a session: a small projection, so 100,000 of them stay light. */
export const QueueItemSchema = z
  .object({
    id: z.number().int(),
    status: z.string(),
    pending: z.boolean(),
    agentUserName: z.string().nullable(),
    agentName: z.string().nullable(),
    customerName: z.string(),
    groupId: z.number().int().nullable(),
    groupName: z.string().nullable(),
    channel: z.string().nullable(),
    createdAt: z.string().nullable(),
    slaSeconds: z.number().nullable(),
    /** Percent of the SLA after which its timer turns amber (the group's `warningRatio`); with an SLA only. */
    slaWarningRatio: z.number().optional(),
    protocol: z.string().nullable(),
    ticketId: z.number().int().nullable(),
    /** With a bot (its status says so, or it is an `onlyBot` session): nobody's to accept. */
    withBot: z.boolean().default(false),
    /** When the customer last wrote (ISO), as far as this console saw. */
    lastCustomerAt: z.string().nullable().optional(),
    /** That message as the thread shows it (documents masked), cut short. */
    preview: z.string().nullable().optional(),
    /** Customer messages since the attendant last looked at the session. */
    unread: z.number().int().min(0).optional(),
    /** Put aside by the attendant (the console's own state: README, "Snooze is the console's own"). */
    snoozed: z.boolean().optional(),
    /** With `snoozed`: when it wakes (ISO); null: when the customer writes. */
    snoozedUntil: z.string().nullable().optional(),
    /** Back from a snooze and not opened since: why (the customer wrote, or its time came). */
    woke: z.enum(['customer', 'time']).optional(),
    /** The customer's first message no attendant answered yet (ISO), null when none (src-shared/waiting.ts). */
    waitingSince: z.string().nullable().optional(),
    /** An attendant's newest message in the session (ISO), null when none was seen. */
    repliedAt: z.string().nullable().optional(),
  })
  .strict();
export type QueueItem = z.infer<typeof QueueItemSchema>;

export const QueueSnapshotSchema = z
  .object({
    items: z.array(QueueItemSchema),
    fetchedAt: z.string(),
    me: z.string().nullable(),
    /** Sessions the last full read could not use (no id, not a record); the rest are listed. */
    unreadable: UnreadableSchema,
    /** The last delta this snapshot includes (`QueueDelta.seq`): later ones apply on top of it. */
    seq: z.number().int().nonnegative(),
  })
  .strict();
export type QueueSnapshot = z.infer<typeof QueueSnapshotSchema>;

const SessionInput = z.object({ sessionId: id }).strict();

export const GroupInfoSchema = z
  .object({
    id,
    name: z.string(),
    slaSeconds: z.number().nullable(),
    /** Percent of the SLA after which the timer turns to warning (group `warningRatio`). */
    warningRatio: z.number(),
    mandatoryClassification: z.boolean(),
    classificationTreeId: id.nullable(),
    channels: z.array(z.string()),
    /** The group's `acceptedMedias` as written (null: it says nothing); absent in copies kept before. */
    acceptedMedias: z.string().nullable().optional(),
  })
  .strict();
export type GroupInfo = z.infer<typeof GroupInfoSchema>;

export const AgentInfoSchema = z.object({ userName: z.string(), name: z.string(), status: z.string().nullable() }).strict();
export type AgentInfo = z.infer<typeof AgentInfoSchema>;

export const PauseReasonInfoSchema = z.object({ id, label: z.string(), minutes: z.number().nullable() }).strict();
export type PauseReasonInfo = z.infer<typeof PauseReasonInfoSchema>;

export const DirectorySchema = z
  .object({
    groups: z.array(GroupInfoSchema),
    agents: z.array(AgentInfoSchema),
    pauseReasons: z.array(PauseReasonInfoSchema),
    /** Pause reasons the console could not read (the picker says so under the others). */
    pauseReasonsUnreadable: UnreadableSchema,
    /** The attendant's own status (ONLINE, PAUSED...), null when unknown. */
    myStatus: z.string().nullable(),
    myPauseReason: z.string().nullable(),
  })
  .strict();
export type Directory = z.infer<typeof DirectorySchema>;

export const MediaRefSchema = z
  .object({
    kind: z.enum(['image', 'audio', 'video', 'file']),
    url: z.string().max(4096),
    mime: z.string().max(200).nullable(),
    name: z.string().max(1000),
  })
  .strict();

/** Media bytes read by the main process, for the page to show from a blob (the page loads no foreign URL). */
export const MediaBytesSchema = z
  .object({
    contentType: z.string(),
    /** Base64. */
    data: z.string(),
    size: z.number().int().min(0),
  })
  .strict();

export const ThreadMessageSchema = z
  .object({
    id,
    sessionId: id,
    text: z.string(),
    caption: z.string().nullable(),
    contentType: z.string(),
    createdAt: z.string().nullable(),
    /** true: the customer wrote it. */
    fromCustomer: z.boolean(),
    /** Who wrote it, as far as the record tells (src-shared/concepts.ts `authorOf`). */
    author: z.enum(['customer', 'agent', 'bot', 'system']).nullable(),
    /** The author's name as the record gives it (shown through the renderer's one naming rule, `staffName`). */
    sender: z.string().nullable(),
    /** The author's login when the record names one; absent in copies kept before. */
    senderUserName: z.string().nullable().optional(),
    sentiment: z.string().nullable(),
    bySupervisor: z.boolean(),
    failed: z.boolean(),
    /** An image, audio, video or file the message carries (src-shared/concepts.ts `mediaOf`); absent in copies kept before. */
    media: MediaRefSchema.nullable().optional(),
  })
  .strict();
export type ThreadMessage = z.infer<typeof ThreadMessageSchema>;

export const EntitySchema = z
  .object({ text: z.string(), label: z.string(), start: z.number().int().nullable(), end: z.number().int().nullable() })
  .strict();
export type Entity = z.infer<typeof EntitySchema>;

export const SessionDetailSchema = z
  .object({
    item: QueueItemSchema,
    customer: z
      .object({ name: z.string(), phone: z.string().nullable(), email: z.string().nullable(), instance: z.string().nullable() })
      .strict(),
    attendedAt: z.string().nullable(),
    lastAgent: z.string().nullable(),
    topic: z.string().nullable(),
    /** The channel's messaging window is closed: only an approved template may be sent. */
    needsTemplate: z.boolean(),
    /** A closed session's classification, as its record reads (the path chosen). */
    classification: z.string().nullable().default(null),
  })
  .strict();
export type SessionDetail = z.infer<typeof SessionDetailSchema>;

export const ThreadPageSchema = z
  .object({
    messages: z.array(ThreadMessageSchema),
    hasMore: z.boolean(),
    page: z.number().int(),
    /** Records of this page the console could not read (the others are shown). */
    unreadable: UnreadableSchema,
  })
  .strict();

export const CannedReplySchema = z.object({ id, code: z.string(), description: z.string(), text: z.string() }).strict();
export type CannedReply = z.infer<typeof CannedReplySchema>;
export const SuggestionSchema = z.object({ id, text: z.string(), forSession: z.boolean() }).strict();
export type Suggestion = z.infer<typeof SuggestionSchema>;
export const TemplateSchema = z
  .object({ id, name: z.string(), description: z.string(), template: z.string(), parameterCount: z.number().int() })
  .strict();
export type Template = z.infer<typeof TemplateSchema>;

export const HELP_PARTS = ['canned', 'suggestions', 'templates'] as const;
export type HelpPart = (typeof HELP_PARTS)[number];

export const ComposerHelpSchema = z
  .object({
    canned: z.array(CannedReplySchema),
    suggestions: z.array(SuggestionSchema),
    templates: z.array(TemplateSchema),
    /** Parts that could not be read: the others are shown, and these named. */
    failed: z.array(z.enum(HELP_PARTS)),
  })
  .strict();
export type ComposerHelp = z.infer<typeof ComposerHelpSchema>;

/**
 * Where a provider credential is kept: sealed by the OS keyring, sealed with weak protection
 * (the user agreed), or in memory for this run only.
 */
export const CredentialKeptSchema = z.enum(['keyring', 'weak', 'session']);
export type CredentialKept = z.infer<typeof CredentialKeptSchema>;

export const ProviderInfoSchema = z
  .object({
    name: z.string(),
    credentialSet: z.boolean(),
    /** null when no credential is set. */
    kept: CredentialKeptSchema.nullable(),
    models: z.array(z.object({ id: z.string(), name: z.string(), reachable: z.boolean() }).strict()),
  })
  .strict();
export type ProviderInfo = z.infer<typeof ProviderInfoSchema>;

export const AiChoiceSchema = z.object({ provider: z.string().min(1).max(100), model: z.string().min(1).max(200) }).strict();

/**
 * The attendant's deliberate choice to send the documents (CPF/CNPJ) they revealed in the
 * thread to the language model or the knowledge base. Without it everything leaves masked; with
 * it only the `revealed` values leave in clear, every other document stays masked.
 */
const RevealFields = {
  revealDocuments: z.boolean().optional(),
  revealed: z.array(z.string().trim().min(1).max(40)).max(100).optional(),
};

export const KbAnswerSchema = z.object({ text: z.string(), score: z.number() }).strict();

export interface ClassNode {
  id: number;
  label: string;
  children: ClassNode[];
}
export const ClassNodeSchema: z.ZodType<ClassNode> = z.lazy(() =>
  z.object({ id, label: z.string(), children: z.array(ClassNodeSchema) }).strict(),
);

/**
 * Changes to the queue since a snapshot, numbered in the order the main process made them: a
 * delta that reaches the renderer before the snapshot it follows (events and answers travel apart)
 * is applied after it, and one the snapshot already includes is not applied again.
 */
export const QueueDeltaSchema = z
  .object({ upsert: z.array(QueueItemSchema), remove: z.array(id), me: z.string().nullable(), seq: z.number().int().positive() })
  .strict();
export type QueueDelta = z.infer<typeof QueueDeltaSchema>;

/** A chat file on its way to the main process, by the id `attendance:fileBegin` gave. */
const UploadId = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/);

const SendInput = z.object({ sessionId: id, text: z.string().trim().min(1).max(4096), clientId: z.string().min(1).max(64) }).strict();

export const attendanceChannels = {
  /** `fresh`: read the service again rather than answer from the console's copy. */
  'attendance:queue': { input: z.object({ fresh: z.boolean().optional() }).strict(), output: QueueSnapshotSchema },
  'attendance:directory': { input: NoInput, output: DirectorySchema },
  'attendance:accept': { input: SessionInput, output: QueueItemSchema },
  /** The attendant looked at the session's thread: its unread count goes to zero. */
  'attendance:seen': { input: SessionInput, output: z.object({ ok: z.boolean() }).strict() },
  /**
   * Puts a session of the attendant's aside until `until` (ISO, in the future) or, null, until its
   * customer writes; a customer's message wakes it either way.
   */
  'attendance:snooze': {
    input: z.object({ sessionId: id, until: z.string().min(1).max(100).nullable() }).strict(),
    output: QueueItemSchema,
  },
  /** Brings a snoozed session back to Mine now. */
  'attendance:wake': { input: SessionInput, output: QueueItemSchema },
  'attendance:transfer': {
    input: z
      .object({
        sessionId: id,
        groupId: id.optional(),
        agentUserName: z.string().min(1).max(200).optional(),
        /** For whoever takes the session next: saved as the session's note (through the outbox). */
        note: z.string().trim().max(8000).optional(),
      })
      .strict()
      .refine((v) => (v.groupId === undefined) !== (v.agentUserName === undefined), 'Pick a group or an attendant.'),
    output: QueueItemSchema,
  },
  'attendance:openThread': {
    input: SessionInput,
    output: z
      .object({
        detail: SessionDetailSchema,
        page: ThreadPageSchema,
        /** When this was read from the service (ISO). */
        fetchedAt: z.string(),
        /** true: the service could not be reached and this is the copy kept on this computer. */
        offline: z.boolean(),
      })
      .strict(),
  },
  /**
   * Older messages: pages N to N + count - 1 of the newest-first order (N >= 1), in that order;
   * duplicates are possible, gaps are not. Pages after a short one may be there, empty.
   */
  'attendance:olderMessages': {
    input: z
      .object({ sessionId: id, page: z.number().int().min(1), count: z.number().int().min(1).max(OLDER_PAGES_MAX).default(1) })
      .strict(),
    output: z.object({ pages: z.array(ThreadPageSchema) }).strict(),
  },
  'attendance:closeThread': { input: SessionInput, output: z.object({ ok: z.boolean() }).strict() },
  /** A media message's bytes, read by the main process from the service (its own address only), within the media cap. */
  'attendance:media': { input: z.object({ url: z.string().min(1).max(4096) }).strict(), output: MediaBytesSchema },
  /** A link of a message, handed to the system browser after the external-link checks (never opened in the console). */
  'attendance:openLink': {
    input: z.object({ url: z.string().min(1).max(4096) }).strict(),
    output: z.object({ opened: z.boolean() }).strict(),
  },
  'attendance:send': { input: SendInput, output: ThreadMessageSchema },
  /**
   * What a file sent in this session must be, asked when one is attached: the size limit, the
   * group's `acceptedMedias`, and why the console cannot lend it now (`lend`, null when it can).
   */
  'attendance:fileRules': {
    input: SessionInput,
    output: z
      .object({
        maxBytes: z.number().int().positive(),
        chunkBytes: z.number().int().positive(),
        group: z.string().nullable(),
        acceptedMedias: z.string().nullable(),
        lend: z.enum(['relay', 'listenerOff', 'noPublicAddress']).nullable(),
      })
      .strict(),
  },
  /** A file to send: checked (type, group, size, public address) before any byte travels. */
  'attendance:fileBegin': {
    input: z
      .object({
        sessionId: id,
        name: z.string().trim().min(1).max(255),
        contentType: z.string().min(1).max(200),
        size: z.number().int().min(0).max(CHAT_FILE_MAX_BYTES),
      })
      .strict(),
    output: z.object({ uploadId: UploadId }).strict(),
  },
  /** Its bytes, in order, a piece at a time (base64): the page shows how far it got. */
  'attendance:fileChunk': {
    input: z
      .object({
        uploadId: UploadId,
        offset: z.number().int().min(0),
        data: z
          .string()
          .min(1)
          .max(Math.ceil(CHAT_FILE_CHUNK_BYTES / 3) * 4)
          .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64'),
      })
      .strict(),
    output: z.object({ received: z.number().int().min(0) }).strict(),
  },
  /** Lends the whole file at the public address and saves the message (its URL, type and caption). */
  'attendance:fileSend': {
    input: z.object({ uploadId: UploadId, caption: z.string().trim().max(1024).optional(), clientId: z.string().min(1).max(64) }).strict(),
    output: ThreadMessageSchema,
  },
  /** The attendant removed the file before sending: its bytes are let go. */
  'attendance:fileCancel': { input: z.object({ uploadId: UploadId }).strict(), output: z.object({ ok: z.boolean() }).strict() },
  'attendance:sendTemplate': {
    input: z
      .object({ sessionId: id, templateId: id, params: z.array(z.string().max(1000)).max(20), clientId: z.string().min(1).max(64) })
      .strict(),
    output: ThreadMessageSchema,
  },
  'attendance:help': { input: SessionInput, output: ComposerHelpSchema },
  'attendance:providers': { input: NoInput, output: z.object({ providers: z.array(ProviderInfoSchema) }).strict() },
  'attendance:setCredential': {
    input: z
      .object({
        provider: z.string().min(1).max(100),
        accessKey: z.string().max(4096).optional(),
        secretKey: z.string().max(4096).optional(),
        token: z.string().max(8192).optional(),
        /** The user's consent to keep them with weak protection (no OS keyring); else this run only. */
        allowWeakStorage: z.boolean().default(false),
      })
      .strict(),
    output: z.object({ credentialSet: z.boolean(), kept: CredentialKeptSchema.nullable() }).strict(),
  },
  'attendance:clearCredential': {
    input: z.object({ provider: z.string().min(1).max(100) }).strict(),
    output: z.object({ credentialSet: z.boolean(), kept: CredentialKeptSchema.nullable() }).strict(),
  },
  'attendance:aiDraft': {
    input: z.object({ sessionId: id, choice: AiChoiceSchema, ...RevealFields }).strict(),
    output: z.object({ text: z.string() }).strict(),
  },
  /** What an image message shows, described by the service's AI for the attendant (never sent to the customer). */
  'attendance:describeImage': {
    input: z.object({ sessionId: id, messageId: id, choice: AiChoiceSchema }).strict(),
    output: z.object({ text: z.string() }).strict(),
  },
  'attendance:kbAnswer': {
    input: z.object({ question: z.string().trim().min(1).max(1000), index: z.string().max(200).optional(), ...RevealFields }).strict(),
    output: z.object({ index: z.string().nullable(), answers: z.array(KbAnswerSchema) }).strict(),
  },
  /** The knowledge bases this workspace knows (uploaded, searched or set), the one searched last first. */
  'attendance:kbBases': {
    input: NoInput,
    output: z.object({ bases: z.array(z.string()), last: z.string().nullable() }).strict(),
  },
  'attendance:classificationTree': {
    input: SessionInput,
    output: z.object({ mandatory: z.boolean(), roots: z.array(ClassNodeSchema) }).strict(),
  },
  'attendance:summary': {
    input: z.object({ sessionId: id, choice: AiChoiceSchema.optional() }).strict(),
    output: z.object({ text: z.string() }).strict(),
  },
  'attendance:close': {
    input: z
      .object({
        sessionId: id,
        /** Path from the root to the chosen node (ids). */
        classification: z.array(id).min(1).max(10).optional(),
        comment: z.string().max(2000).optional(),
        /** Added as a note through the outbox before the session closes. */
        summaryNote: z.string().trim().min(1).max(8000).optional(),
      })
      .strict(),
    output: QueueItemSchema,
  },
  'attendance:pause': {
    input: z.object({ reasonId: id }).strict(),
    output: z.object({ status: z.string(), reason: z.string().nullable() }).strict(),
  },
  'attendance:resume': { input: NoInput, output: z.object({ status: z.string(), reason: z.string().nullable() }).strict() },
  /** The queue column's width kept for this workspace (null: the default); a width given is kept first. */
  'attendance:queueWidth': {
    input: z.object({ width: z.number().int().min(QUEUE_WIDTH_MIN).max(QUEUE_WIDTH_MAX).nullable().optional() }).strict(),
    output: z.object({ width: z.number().int().nullable() }).strict(),
  },
  /** What the renderer counts as waiting for the attendant: shown as the dock/taskbar badge. */
  'attendance:badge': {
    input: z.object({ count: z.number().int().min(0).max(1_000_000) }).strict(),
    output: z.object({ count: z.number().int() }).strict(),
  },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export const attendanceEvents = {
  'attendance:queue': QueueSnapshotSchema,
  /** The directory read again after the page was given the kept one, when it changed. */
  'attendance:directory': DirectorySchema,
  'attendance:queueDelta': QueueDeltaSchema,
  'attendance:messages': z.object({ sessionId: id, messages: z.array(ThreadMessageSchema) }).strict(),
  'attendance:entities': z.object({ sessionId: id, messageId: id, entities: z.array(EntitySchema) }).strict(),
  /** A customer wrote in a session of the attendant's (for attention when the window is not focused). */
  'attendance:customerMessage': z.object({ sessionId: id, customerName: z.string(), preview: z.string() }).strict(),
  /** The desktop app's view of the attendant's presence: the system's idle time and screen lock. */
  'attendance:presence': z.object({ idleSeconds: z.number().min(0), locked: z.boolean() }).strict(),
} as const satisfies Record<string, z.ZodType>;
