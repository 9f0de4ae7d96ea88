import { z } from 'zod';
import { ErrorInfoSchema } from '../errors';
import { QueueItemSchema } from './attendance';
import { MentionSchema } from './notes';
import { NoInput } from './no-input';

export { NoInput };

/**
 * The workspace: which service the console works with, the token, who the attendant is. Like
 * every bridge file, strict: we own these shapes. Also the envelope every call answers with.
 */

export const VAULT_STATES = ['encrypted', 'weak', 'unavailable'] as const;
export const VaultStateSchema = z.enum(VAULT_STATES);
export type VaultState = z.infer<typeof VaultStateSchema>;

/** Who the demo workspace is seen as: its attendant, or the operation's supervisor. */
export const DEMO_PERSONAS = ['agent', 'supervisor'] as const;
export type DemoPersona = (typeof DEMO_PERSONAS)[number];

export const WorkspaceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('demo'), as: z.enum(DEMO_PERSONAS).optional() }).strict(),
  z.object({ kind: z.literal('remote'), baseUrl: z.string().url() }).strict(),
]);
export type Workspace = z.infer<typeof WorkspaceSchema>;

/** A workspace's id: short, safe as a folder name. */
export const WorkspaceIdSchema = z.string().regex(/^[a-z0-9-]{1,40}$/);
const UserSchema = z.object({ userName: z.string(), name: z.string() }).strict();
/** A name the user gives a workspace: one line, short enough for a sidebar's tooltip and a row's chip. */
export const WorkspaceNameSchema = z
  .string()
  .max(80)
  .refine((s) => ![...s].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127), 'one line of text');

/** One workspace of the console, as its sidebar lists it. */
export const WorkspaceInfoSchema = z
  .object({
    id: WorkspaceIdSchema,
    workspace: WorkspaceSchema,
    /** The service's host, or "Demo": with the account, what it goes by unless the user named it. */
    label: z.string(),
    /** The name the user gave it; null: its service and account name it. */
    name: z.string().nullable(),
    /** One of eight workspace colors (theme variables `--ws-0` to `--ws-7`). */
    color: z.number().int().min(0).max(7),
    baseUrl: z.string().nullable(),
    signedIn: z.boolean(),
    tokenRefused: z.boolean(),
    user: UserSchema.nullable(),
    /**
     * Which sign-in of the workspace this is: another each time someone signs in there (also
     * someone the service could not name, after someone else it could not name either).
     */
    signIn: z.number().int().min(0).optional(),
  })
  .strict();
export type WorkspaceInfo = z.infer<typeof WorkspaceInfoSchema>;

export const NEEDS_ME_REASONS = ['unread', 'reply', 'waiting'] as const;
/**
 * What needs the attendant across every workspace: their sessions where the customer waits for
 * an answer, and sessions waiting for an attendant; nearest SLA first. Counts per workspace.
 */
export const NeedsMeSchema = z
  .object({
    rows: z.array(
      z
        .object({
          workspaceId: WorkspaceIdSchema,
          /** unread: the customer wrote and the attendant has not looked; reply: the customer waits for an answer; waiting: no attendant yet. */
          reason: z.enum(NEEDS_ME_REASONS),
          item: QueueItemSchema,
        })
        .strict(),
    ),
    /** Rows past the list's length (the list shows the most urgent). */
    more: z.number().int().min(0),
    /**
     * Colleagues' notes that mention the attendant, newest first, until the session is opened;
     * with the session as the queue holds it (null when it does not: closed, or not yet read).
     */
    mentions: z.array(z.object({ workspaceId: WorkspaceIdSchema, mention: MentionSchema, item: QueueItemSchema.nullable() }).strict()),
    counts: z.record(z.string(), z.object({ unread: z.number().int().min(0), needsMe: z.number().int().min(0) }).strict()),
    /** Workspaces whose sessions could not be read, and why: what needs the attendant there is not known. */
    failed: z.array(z.object({ workspaceId: WorkspaceIdSchema, error: ErrorInfoSchema }).strict()),
  })
  .strict();
export type NeedsMe = z.infer<typeof NeedsMeSchema>;

export const AppStateSchema = z
  .object({
    /** Every workspace of the console, in sidebar order. */
    workspaces: z.array(WorkspaceInfoSchema),
    /** The workspace in front; the fields below describe it. */
    active: WorkspaceIdSchema.nullable(),
    /** null until the user picked a workspace. */
    workspace: WorkspaceSchema.nullable(),
    /** The service address in use (the stand-in's for the demo workspace). */
    baseUrl: z.string().nullable(),
    signedIn: z.boolean(),
    /** Set when the service refused the stored token: the console asks to sign in again. */
    tokenRefused: z.boolean(),
    vault: z.object({ state: VaultStateSchema, detail: z.string() }).strict(),
    user: UserSchema.nullable(),
    locale: z.string(),
    /**
     * Files of this profile the console could not read and set aside (renamed with their time,
     * kept), so that it started without them: the page says so in one line each.
     */
    setAside: z.array(z.object({ file: z.string(), keptAs: z.string() }).strict()),
  })
  .strict();
export type AppState = z.infer<typeof AppStateSchema>;

export const workspaceChannels = {
  'workspace:state': { input: NoInput, output: AppStateSchema },
  'workspace:openDemo': { input: z.object({ as: z.enum(DEMO_PERSONAS).optional() }).strict(), output: AppStateSchema },
  'workspace:connect': {
    input: z
      .object({
        baseUrl: z.string().url().max(2048),
        token: z.string().min(1).max(8192),
        /** The attendant's user name on the service: tells their own sessions apart. */
        userName: z.string().max(200).optional(),
        /** The user's consent to keep the token with weak protection (no OS keyring). */
        allowWeakStorage: z.boolean().default(false),
        /** Signs this workspace in again (its token was refused) instead of adding one. */
        replace: WorkspaceIdSchema.optional(),
      })
      .strict(),
    output: AppStateSchema,
  },
  /** Signs out of one workspace (the one in front when none is named): its files go, the others stay. */
  'workspace:signOut': { input: z.object({ id: WorkspaceIdSchema.optional() }).strict(), output: AppStateSchema },
  /** Brings a workspace to the front. */
  'workspace:focus': { input: z.object({ id: WorkspaceIdSchema }).strict(), output: AppStateSchema },
  /** What needs the attendant in every workspace (then pushed as it changes). */
  'workspace:needsMe': { input: NoInput, output: NeedsMeSchema },
  /** Attendants of the open workspace matching a search, for "who are you on this service". */
  'workspace:people': {
    input: z.object({ search: z.string().max(200).default('') }).strict(),
    output: z.object({ people: z.array(z.object({ userName: z.string(), name: z.string() }).strict()) }).strict(),
  },
  /** Names a workspace (an empty name: its service and account name it again); kept across restarts. */
  'workspace:rename': { input: z.object({ id: WorkspaceIdSchema, name: WorkspaceNameSchema }).strict(), output: AppStateSchema },
  /** The attendant picks who they are on the service (remembered per workspace). */
  'workspace:setUser': { input: z.object({ userName: z.string().min(1).max(200) }).strict(), output: AppStateSchema },
  /**
   * The page has its first view on screen: the console starts what that view did not need (live
   * updates, the service's read behind a kept queue). Once per launch; later calls change nothing.
   */
  'workspace:viewShown': { input: NoInput, output: z.object({ ok: z.boolean() }).strict() },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

/** Events the main process pushes to the renderer. */
export const workspaceEvents = {
  'workspace:state': AppStateSchema,
  'workspace:needsMe': NeedsMeSchema,
  /** A customer wrote in a session of the attendant's in a workspace not in front. */
  'workspace:customerMessage': z
    .object({ workspaceId: WorkspaceIdSchema, sessionId: z.number().int(), customerName: z.string(), preview: z.string() })
    .strict(),
} as const satisfies Record<string, z.ZodType>;
/** What crosses the bridge: a result or an error value, never a stack. */
export type Envelope<T> = { result: T } | { error: z.infer<typeof ErrorInfoSchema> };
