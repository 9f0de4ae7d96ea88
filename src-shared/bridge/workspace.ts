import { z } from 'zod';
import { ErrorInfoSchema } from '../errors';

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

export const AppStateSchema = z
  .object({
    /** null until the user picked a workspace. */
    workspace: WorkspaceSchema.nullable(),
    /** The service address in use (the stand-in's for the demo workspace). */
    baseUrl: z.string().nullable(),
    signedIn: z.boolean(),
    /** Set when the service refused the stored token: the console asks to sign in again. */
    tokenRefused: z.boolean(),
    vault: z.object({ state: VaultStateSchema, detail: z.string() }).strict(),
    user: z.object({ userName: z.string(), name: z.string() }).strict().nullable(),
    locale: z.string(),
  })
  .strict();
export type AppState = z.infer<typeof AppStateSchema>;

export const NoInput = z.object({}).strict();

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
      })
      .strict(),
    output: AppStateSchema,
  },
  'workspace:signOut': { input: NoInput, output: AppStateSchema },
  /** Attendants of the open workspace matching a search, for "who are you on this service". */
  'workspace:people': {
    input: z.object({ search: z.string().max(200).default('') }).strict(),
    output: z.object({ people: z.array(z.object({ userName: z.string(), name: z.string() }).strict()) }).strict(),
  },
  /** The attendant picks who they are on the service (remembered per workspace). */
  'workspace:setUser': { input: z.object({ userName: z.string().min(1).max(200) }).strict(), output: AppStateSchema },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

/** Events the main process pushes to the renderer. */
export const workspaceEvents = {
  'workspace:state': AppStateSchema,
} as const satisfies Record<string, z.ZodType>;
/** What crosses the bridge: a result or an error value, never a stack. */
export type Envelope<T> = { result: T } | { error: z.infer<typeof ErrorInfoSchema> };
export const envelopeSchema = <T extends z.ZodType>(result: T) =>
  z.union([z.object({ result }).strict(), z.object({ error: ErrorInfoSchema }).strict()]);

