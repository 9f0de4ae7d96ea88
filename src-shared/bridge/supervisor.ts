import { z } from 'zod';
import { instantOf } from '../concepts';
import { ConditionSchema } from '../query';
import { RESOURCES, ROLES, type ResourceKey } from '../paths';
import { NoInput } from './no-input';
import { UnreadableSchema } from './unreadable';
import { KB_FILE_MAX_BYTES } from '../kb-name';

/**
 * Supervisor tools: ticket lookup, NPS, attendance time report, groups overview,
 * resource explorer and knowledge bases. Strict shapes: we own them; records of the explorer
 * stay open JSON objects because the service's resources are open.
 */

const LISTABLE = (Object.keys(RESOURCES) as ResourceKey[]).filter((k) => RESOURCES[k].list !== null);
const SAVABLE = (Object.keys(RESOURCES) as ResourceKey[]).filter((k) => RESOURCES[k].save !== null);
export const ListableResourceSchema = z.enum(LISTABLE as [ResourceKey, ...ResourceKey[]]);
export const SavableResourceSchema = z.enum(SAVABLE as [ResourceKey, ...ResourceKey[]]);

const isoDate = z
  .string()
  .max(40)
  // The one reader of date-times: ISO 8601 only, never read in this machine's zone.
  .refine((s) => instantOf(s) !== null, 'a date-time');
const nullableStr = z.string().nullable();
const nullableNum = z.number().nullable();

// ---- ticket lookup -----------------------------------------------------------------------------

export const TicketViewSchema = z
  .object({
    id: nullableNum,
    /** The unique key (e.g. SUP-4711) when the service gives one. */
    key: nullableStr,
    title: nullableStr,
    description: nullableStr,
    status: nullableStr,
    priority: nullableStr,
    projectId: nullableNum,
    // Not in the interface's ticket (§2.4), read when the service sends them; copies kept before they
    // were read lack them, hence the defaults.
    requester: nullableStr.default(null),
    assignee: nullableStr.default(null),
    /** The attendance session the ticket came from. */
    sessionId: nullableNum.default(null),
    createdAt: nullableStr.default(null),
    updatedAt: nullableStr.default(null),
    fetchedAt: z.string(),
    /** 'cache' when the service could not be reached and a stored copy is shown. */
    source: z.enum(['service', 'cache']),
    /** Why a cached copy is shown (the error of the attempt that failed). */
    notice: nullableStr,
  })
  .strict();
export type TicketView = z.infer<typeof TicketViewSchema>;

export const ShortcutSchema = z.object({ accelerator: z.string(), defaultAccelerator: z.string() }).strict();
export type ShortcutState = z.infer<typeof ShortcutSchema>;

// ---- NPS ---------------------------------------------------------------------------------------

export const NpsQuerySchema = z
  .object({
    surveyName: z.string().trim().min(1).max(200),
    from: isoDate.optional(),
    to: isoDate.optional(),
    groupId: z.number().int().optional(),
  })
  .strict();

export const NpsResultSchema = z
  .object({
    surveyName: z.string(),
    averageNps: z.number(),
    positive: z.number().int(),
    neutral: z.number().int(),
    negative: z.number().int(),
    totalCount: z.number().int(),
    /** (positive − negative) / total × 100; null with no answers. */
    npsIndex: nullableNum,
    fetchedAt: z.string(),
  })
  .strict();
export type NpsResult = z.infer<typeof NpsResultSchema>;

// ---- attendance time report ------------------------------------------------------------------

export const REPORT_COLUMNS = [
  'protocol',
  'agentName',
  'groupName',
  'channelName',
  'createdAtProtocol',
  'closedAtProtocol',
  'waitingTime',
  'attendanceTime',
  'protocolDuration',
  'lastStatus',
] as const;
export type ReportColumn = (typeof REPORT_COLUMNS)[number];

export const ReportFilterSchema = z
  .object({
    agentName: z.string().max(200).optional(),
    groupName: z.string().max(200).optional(),
    channelName: z.string().max(100).optional(),
    protocol: z.string().max(100).optional(),
    from: isoDate.optional(),
    to: isoDate.optional(),
  })
  .strict();
export type ReportFilter = z.infer<typeof ReportFilterSchema>;

export const ReportQuerySchema = z
  .object({
    filter: ReportFilterSchema,
    sortColumn: z.enum(REPORT_COLUMNS).optional(),
    direction: z.enum(['ASC', 'DESC']).default('ASC'),
    page: z.number().int().min(0).default(0),
    size: z.number().int().min(1).max(500).default(25),
  })
  .strict();

export const ReportRowSchema = z
  .object({
    id: nullableNum,
    protocol: nullableStr,
    agentName: nullableStr,
    groupName: nullableStr,
    channelName: nullableStr,
    operationName: nullableStr,
    createdAtProtocol: nullableStr,
    closedAtProtocol: nullableStr,
    waitingTime: nullableNum,
    attendanceTime: nullableNum,
    protocolDuration: nullableNum,
    lastStatus: nullableStr,
  })
  .strict();
export type ReportRow = z.infer<typeof ReportRowSchema>;

export const ReportTotalsSchema = z
  .object({
    rows: z.number().int(),
    waitingTime: z.number(),
    attendanceTime: z.number(),
    protocolDuration: z.number(),
    /** More rows matched than the totals could read (the cap). */
    truncated: z.boolean(),
  })
  .strict();

export const ReportPageSchema = z
  .object({
    rows: z.array(ReportRowSchema),
    page: z.number().int(),
    size: z.number().int(),
    hasMore: z.boolean(),
    totals: ReportTotalsSchema,
  })
  .strict();
export type ReportPage = z.infer<typeof ReportPageSchema>;

/** Every matching row, for the CSV export (the renderer writes the file). */
export const ReportAllSchema = z.object({ rows: z.array(ReportRowSchema), truncated: z.boolean() }).strict();

// ---- figures (overview, per attendant, per group, trend) --------------------------------------

export const FiguresQuerySchema = z
  .object({
    /** The instants that bound the read: the previous period's start and the period's end. */
    from: isoDate,
    to: isoDate,
    /** Read again instead of answering from what was read for this period. */
    refresh: z.boolean().default(false),
  })
  .strict();

export const FiguresReadSchema = z
  .object({
    rows: z.array(ReportRowSchema),
    /** Each group's SLA in seconds (null: none), by the name the report rows carry. */
    slas: z.array(z.object({ groupName: z.string(), groupId: nullableNum, slaSeconds: nullableNum }).strict()),
    /** More rows matched than one read takes (the cap): the figures cover the first ones. */
    truncated: z.boolean(),
    fetchedAt: z.string(),
  })
  .strict();
export type FiguresRead = z.infer<typeof FiguresReadSchema>;

/** NPS per attendant and per group of a period, each one summary of the service. */
export const NpsBreakdownQuerySchema = z
  .object({
    surveyName: z.string().trim().min(1).max(200),
    from: isoDate,
    to: isoDate,
    /** The attendants' names as the report rows give them. */
    agents: z.array(z.string().max(200)).max(200),
    groups: z.array(z.object({ name: z.string().max(200), id: z.number().int() }).strict()).max(100),
  })
  .strict();

const NamedNps = z.object({ name: z.string(), result: NpsResultSchema.nullable() }).strict();
export const NpsBreakdownSchema = z
  .object({
    /** `result` null: the attendant is not among the service's users, so the service cannot be asked. */
    agents: z.array(NamedNps),
    groups: z.array(NamedNps),
  })
  .strict();
export type NpsBreakdown = z.infer<typeof NpsBreakdownSchema>;

/** The survey answers of a period (chat answers), one entry per session, newest first. */
export const SurveyAnswerSchema = z
  .object({
    sessionId: z.number().int(),
    at: z.string(),
    /** The 0–10 answer, when one of the session's answers is a score. */
    score: nullableNum,
    /** The customer's words, when one of the answers is text. */
    comment: nullableStr,
  })
  .strict();
export type SurveyAnswer = z.infer<typeof SurveyAnswerSchema>;
export const SurveyAnswersSchema = z.object({ answers: z.array(SurveyAnswerSchema), truncated: z.boolean() }).strict();

// ---- groups overview ---------------------------------------------------------------------------

export const AgentStatusSchema = z
  .object({ userName: nullableStr, name: z.string(), status: nullableStr, sessions: z.number().int() })
  .strict();
export type AgentStatus = z.infer<typeof AgentStatusSchema>;

export const GroupOverviewSchema = z
  .object({
    id: z.number().int().nullable(),
    name: z.string(),
    slaSeconds: nullableNum,
    waiting: z.number().int(),
    /** Sessions with a bot (status or onlyBot): neither waiting for an attendant nor in attendance. */
    withBot: z.number().int(),
    inAttendance: z.number().int(),
    pending: z.number().int(),
    longestWaitSeconds: nullableNum,
    /** Some session waits longer than the group's sla. */
    overSla: z.boolean(),
    agents: z.array(AgentStatusSchema),
    /** The drill-down: sessions waiting, longest first (the first WAITING_LISTED). */
    waitingSessions: z.array(z.object({ id: z.number().int(), customerName: z.string(), waitingSeconds: nullableNum }).strict()),
  })
  .strict();
export type GroupOverview = z.infer<typeof GroupOverviewSchema>;

export const GroupsOverviewSchema = z
  .object({
    groups: z.array(GroupOverviewSchema),
    agents: z.array(AgentStatusSchema),
    fetchedAt: z.string(),
    truncated: z.boolean(),
    /** Sessions and agents the console could not read. */
    unreadable: UnreadableSchema,
  })
  .strict();
export type GroupsOverview = z.infer<typeof GroupsOverviewSchema>;

// ---- explorer ----------------------------------------------------------------------------------

const JsonRecord = z.record(z.string(), z.unknown());

export const ExplorerQuerySchema = z
  .object({
    resource: ListableResourceSchema,
    conditions: z.array(ConditionSchema).max(200),
    sortColumn: z.string().max(200).optional(),
    direction: z.enum(['ASC', 'DESC']).default('ASC'),
    page: z.number().int().min(0).default(0),
    size: z.number().int().min(1).max(500).default(20),
    /**
     * Read each "is one of" (IN, NOT_IN) with several values as an OR group of equalities (an
     * AND group of inequalities) instead: some servers answer a multi-value IN with nothing.
     */
    split: z.boolean().default(false),
  })
  .strict();

export const ExplorerPageSchema = z
  .object({
    results: z.array(JsonRecord),
    page: z.number().int(),
    size: z.number().int(),
    hasMore: z.boolean(),
    /** Records of this page the console could not read. */
    unreadable: UnreadableSchema,
    /**
     * Nothing came back for a query holding a multi-value IN or NOT_IN, as written: the split
     * reading (`split`) may find what such a server does not.
     */
    emptyMultiValueIn: z.boolean().default(false),
  })
  .strict();
export type ExplorerPage = z.infer<typeof ExplorerPageSchema>;

export const ExplorerSaveSchema = z.object({ resource: SavableResourceSchema, record: JsonRecord }).strict();

export const RulesSchema = z.object({ role: z.enum(ROLES).nullable(), rules: z.array(z.string()).nullable() }).strict();
export type Rules = z.infer<typeof RulesSchema>;

// ---- knowledge bases ---------------------------------------------------------------------------

export const KbStateSchema = z.enum(['indexing', 'ready', 'failed']);
export const KbBaseSchema = z
  .object({
    name: z.string(),
    url: z.string(),
    uploadedAt: z.string(),
    state: KbStateSchema,
    /** When the first answer came back. */
    readyAt: nullableStr,
    /** The service's answer to the upload, or why it failed. */
    message: nullableStr,
  })
  .strict();
export type KbBase = z.infer<typeof KbBaseSchema>;

export { KB_FILE_MAX_BYTES };

export const KbUploadFileSchema = z
  .object({
    fileName: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .refine((n) => !/[\\/]/.test(n), 'a file name, not a path'),
    /** The file's bytes, base64 (the bridge carries JSON). */
    contentBase64: z
      .string()
      .min(1)
      .max(Math.ceil(KB_FILE_MAX_BYTES / 3) * 4)
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64'),
    name: z.string().trim().min(1).max(250),
    separator: z.string().max(20).optional(),
    idColumn: z.string().max(200).optional(),
  })
  .strict();

export const KbUploadSchema = z
  .object({
    url: z.string().trim().min(1).max(2048),
    name: z.string().trim().min(1).max(250),
    separator: z.string().max(20).optional(),
    idColumn: z.string().max(200).optional(),
    /** The user confirmed sending a link that carries a CPF or CNPJ. */
    revealDocuments: z.boolean().optional(),
  })
  .strict();

export const KbAnswersSchema = z.object({ answers: z.array(z.object({ text: z.string(), score: z.number() }).strict()) }).strict();

// ---- the map -----------------------------------------------------------------------------------

export const supervisorChannels = {
  'supervisor:rules': { input: NoInput, output: RulesSchema },
  'supervisor:ticket': { input: z.object({ idOrKey: z.string().trim().min(1).max(100) }).strict(), output: TicketViewSchema },
  'supervisor:recentTickets': { input: NoInput, output: z.object({ tickets: z.array(TicketViewSchema) }).strict() },
  'supervisor:ticketShortcut': { input: NoInput, output: ShortcutSchema },
  'supervisor:setTicketShortcut': { input: z.object({ accelerator: z.string().max(100) }).strict(), output: ShortcutSchema },
  'supervisor:nps': { input: NpsQuerySchema, output: NpsResultSchema },
  'supervisor:report': { input: ReportQuerySchema, output: ReportPageSchema },
  'supervisor:reportAll': { input: ReportQuerySchema, output: ReportAllSchema },
  /** The report rows of a period and the one before it, kept per period in the main process. */
  'supervisor:figures': { input: FiguresQuerySchema, output: FiguresReadSchema },
  'supervisor:npsBreakdown': { input: NpsBreakdownQuerySchema, output: NpsBreakdownSchema },
  'supervisor:surveyAnswers': { input: FiguresQuerySchema, output: SurveyAnswersSchema },
  'supervisor:groups': { input: NoInput, output: GroupsOverviewSchema },
  'supervisor:explore': { input: ExplorerQuerySchema, output: ExplorerPageSchema },
  'supervisor:save': { input: ExplorerSaveSchema, output: z.object({ record: JsonRecord }).strict() },
  'supervisor:kbList': { input: NoInput, output: z.object({ bases: z.array(KbBaseSchema) }).strict() },
  'supervisor:kbUpload': { input: KbUploadSchema, output: KbBaseSchema },
  /** A file chosen on this computer: lent to the service at a one-time address, then indexed like a link. */
  'supervisor:kbUploadFile': { input: KbUploadFileSchema, output: KbBaseSchema },
  'supervisor:kbAsk': {
    input: z
      .object({
        name: z.string().trim().min(1).max(250),
        question: z.string().trim().min(1).max(2000),
        size: z.number().int().min(1).max(20).default(5),
      })
      .strict(),
    output: KbAnswersSchema,
  },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export const supervisorEvents = {
  /** The global shortcut fired (or another part of the console asks): open the ticket lookup. */
  'supervisor:openTicketLookup': z.object({ idOrKey: z.string().max(100).nullable() }).strict(),
  /** The accelerator changed: the Electron adapter re-registers it. */
  'supervisor:ticketShortcut': ShortcutSchema,
  'supervisor:kb': KbBaseSchema,
  /** The attendant's rules read again after the page was given the kept ones, when they changed. */
  'supervisor:rules': RulesSchema,
} as const satisfies Record<string, z.ZodType>;

/** Bridge calls allowed past the default body size in the web host (a file's bytes, base64, plus the rest). */
export const supervisorBodyLimits = { 'supervisor:kbUploadFile': Math.ceil(KB_FILE_MAX_BYTES / 3) * 4 + 64 * 1024 } as const;
