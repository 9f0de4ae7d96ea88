import { z } from 'zod';
import { WorkspaceNameSchema, WorkspaceSchema } from '../src-shared/bridge';
import { LiveSourceSchema } from '../src-shared/bridge/live';
import { LanguageSchema } from '../src-shared/bridge/voice';
import { TunnelChoiceSchema } from '../src-shared/bridge/webhooks';
import { QUEUE_WIDTH_MAX, QUEUE_WIDTH_MIN } from '../src-shared/queue-width';
import type { Logger } from './log';
import type { KeyValueStore } from './vault/types';

/** A workspace of the console: which service, and the color that marks its sessions. */
export const WorkspaceEntrySchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]{1,40}$/),
    workspace: WorkspaceSchema,
    color: z.number().int().min(0).max(7),
    /** The name the user gave it (else it goes by its service and account). */
    name: WorkspaceNameSchema.optional(),
  })
  .strict();
export type WorkspaceEntry = z.infer<typeof WorkspaceEntrySchema>;

export const UserRefSchema = z.object({ userName: z.string().min(1), name: z.string() }).strict();

export const TunnelSettingSchema = z
  .object({
    provider: TunnelChoiceSchema,
    command: z.string(),
    urlTemplate: z.string().default(''),
    /** The command line the user confirmed running; a custom command runs only while it matches. */
    confirmed: z.string().nullable().default(null),
  })
  .strict();
export type TunnelSetting = z.infer<typeof TunnelSettingSchema>;

/**
 * Every setting the main process keeps, with the value it has when none (or a bad one) is stored.
 * Strict where we own the shape: a value the console never wrote is not trusted.
 */
const SETTINGS = {
  /** The workspaces of this console, in the order the sidebar lists them. */
  workspaces: z.array(WorkspaceEntrySchema).default([]),
  /** The workspace in front (its id), null when none. */
  activeWorkspace: z.string().nullable().default(null),
  /** Before several workspaces: the one workspace (read once, to move it into its own folder). */
  workspace: WorkspaceSchema.nullable().default(null),
  /** The attendant of a workspace (a workspace's own setting). */
  user: UserRefSchema.nullable().default(null),
  /** The attendant chosen per service address. */
  users: z.record(z.string(), UserRefSchema).default({}),
  /** The label of the pause reason the attendant chose, while paused. */
  pauseReason: z.string().nullable().default(null),
  /** Shortcut overrides by action (null: the action has no key). */
  keyBindings: z.record(z.string(), z.string().nullable()).default({}),
  /** The knowledge base the composer searches ('' : none chosen). */
  knowledgeBase: z.string().default(''),
  /** The knowledge bases this workspace uploaded or searched, newest first (offered as a list). */
  knowledgeBases: z.array(z.string().max(200)).max(50).default([]),
  /** The supervisor's ticket shortcut as typed (checked where it is used); null: the default. */
  'supervisor.ticketShortcut': z.string().nullable().default(null),
  voice: z.object({ enabled: z.boolean(), language: LanguageSchema }).strict().nullable().default(null),
  /** The queue column's width in px as the attendant dragged it (a workspace's own); null: the layout's default. */
  queueWidth: z.number().int().min(QUEUE_WIDTH_MIN).max(QUEUE_WIDTH_MAX).nullable().default(null),
  /** The webhook listener's port (0: any free port). */
  webhookPort: z.number().int().min(0).max(65535).default(0),
  /** The port "any free port" gave the listener last: tried first at the next start, so its address stays. */
  webhookLastPort: z.number().int().min(1).max(65535).nullable().default(null),
  webhookSigning: z.boolean().default(true),
  liveUpdatesPaused: z.boolean().default(false),
  /** Where live events come from (the relay's password or token is in the vault). */
  liveSource: LiveSourceSchema.default({ kind: 'listener' }),
  webhookTunnel: TunnelSettingSchema.default({ provider: 'none', command: '', urlTemplate: '', confirmed: null }),
  /**
   * The zone the service's date-times without an offset are wall time in, as the user set it
   * (`UTC`, `-03:00`, `America/Sao_Paulo`); null: learned from the service (service-time.ts).
   */
  serviceZone: z.string().max(64).nullable().default(null),
  /** What was learned of the service's date-times, for the service at `baseUrl`. */
  serviceTimeLearned: z
    .object({ baseUrl: z.string(), offsetMinutes: z.number().int().min(-840).max(840).nullable(), wallTime: z.boolean() })
    .strict()
    .nullable()
    .default(null),
};

export type SettingKey = keyof typeof SETTINGS;
export type SettingValue<K extends SettingKey> = z.output<(typeof SETTINGS)[K]>;

/** The settings, typed: what `get` answers was parsed by the key's schema. */
export interface Settings {
  /** The stored value, or the default when none is stored or the stored one is not valid. */
  get<K extends SettingKey>(key: K): SettingValue<K>;
  set<K extends SettingKey>(key: K, value: SettingValue<K>): void;
  /** Back to the default. */
  delete(key: SettingKey): void;
}

export function createSettings(store: KeyValueStore, log: Pick<Logger, 'warn'>): Settings {
  // A bad value is reported once per key and value, not on every read.
  const reported = new Map<SettingKey, unknown>();
  return {
    get(key) {
      const schema = SETTINGS[key];
      const raw = store.get(key);
      const parsed = schema.safeParse(raw);
      if (parsed.success) return parsed.data as SettingValue<typeof key>;
      if (reported.get(key) !== raw) {
        reported.set(key, raw);
        log.warn('a stored setting is not valid; its default is used', { key, problem: parsed.error.issues[0]?.message ?? 'invalid' });
      }
      return schema.parse(undefined) as SettingValue<typeof key>;
    },
    set(key, value) {
      // Checked on the way in too, so the file never holds what `get` would refuse.
      store.set(key, SETTINGS[key].parse(value));
    },
    delete(key) {
      store.delete(key);
    },
  };
}

/**
 * Settings of the console as a whole: the rest belong to each workspace (its listener's port and
 * tunnel, its pause, its knowledge base, its voice, who the attendant is there).
 */
const CONSOLE_KEYS: ReadonlySet<SettingKey> = new Set<SettingKey>([
  'workspaces',
  'activeWorkspace',
  'workspace',
  'users',
  'keyBindings',
  'supervisor.ticketShortcut',
]);

/** A workspace's settings: its own store, and the console's for the console-wide keys. */
export function layeredSettings(consoleWide: Settings, own: Settings): Settings {
  const pick = (key: SettingKey) => (CONSOLE_KEYS.has(key) ? consoleWide : own);
  return {
    get: (key) => pick(key).get(key),
    set: (key, value) => pick(key).set(key, value),
    delete: (key) => pick(key).delete(key),
  };
}
