import { z } from 'zod';
import { NoInput } from './no-input';

/**
 * Where a workspace's live events come from: this computer's listener (a tunnel in front for a
 * remote service), a team relay (NATS JetStream, one webhook for the whole operation), or none
 * (the safety-net poll alone). Strict: we own these shapes.
 */
export const LIVE_SOURCES = ['listener', 'relay', 'polling'] as const;
export type LiveSourceKind = (typeof LIVE_SOURCES)[number];

/** Operation and console names at the relay: NATS subject tokens, so no ".", "*", ">" or spaces. */
export const RELAY_NAME_RE = /^[A-Za-z0-9_-]{1,64}$/;

export const RelaySettingSchema = z
  .object({
    /** nats://host:4222 or tls://host:4222 (TLS is required off this computer). */
    address: z.string().trim().min(1).max(300),
    /** The operation's name at the relay (its stream). */
    operation: z.string().regex(RELAY_NAME_RE),
    /** This console's name at the relay (its consumer). */
    console: z.string().regex(RELAY_NAME_RE),
    /** user: a user name and password; token: a token. Either secret is kept in the vault. */
    auth: z.enum(['user', 'token']),
    /** The NATS user name ('' with a token). */
    user: z.string().max(200),
  })
  .strict();
export type RelaySetting = z.infer<typeof RelaySettingSchema>;

export const LiveSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('listener') }).strict(),
  z.object({ kind: z.literal('polling') }).strict(),
  z.object({ kind: z.literal('relay'), relay: RelaySettingSchema }).strict(),
]);
export type LiveSource = z.infer<typeof LiveSourceSchema>;

export const LiveSourceStatusSchema = z
  .object({
    source: LiveSourceSchema,
    /** A relay password or token is kept in the vault (never sent back). */
    secretSaved: z.boolean(),
  })
  .strict();
export type LiveSourceStatus = z.infer<typeof LiveSourceStatusSchema>;

/** The relay's connection, while the source is a relay. */
export const RelayStatusSchema = z
  .object({
    /** connecting; live (events arrive); unreachable (the poll carries on); refused (the user has to act). */
    state: z.enum(['connecting', 'live', 'unreachable', 'refused']),
    /** Why it is not live, as a code the renderer words. */
    reason: z.enum(['unreachable', 'lost', 'silent', 'stream', 'credentials', 'permissions', 'tls', 'consumer']).nullable(),
    address: z.string(),
  })
  .strict();
export type RelayStatus = z.infer<typeof RelayStatusSchema>;

/** Live updates: webhook events as hints, the safety-net poll, and their state. */
export const LiveStatusSchema = z
  .object({
    /** running: events arrive; stopped: the attendant paused live updates; failed: could not start. */
    state: z.enum(['running', 'stopped', 'failed', 'idle']),
    url: z.string().nullable(),
    signed: z.boolean(),
    registered: z.boolean(),
    detail: z.string().nullable(),
    lastEventAt: z.number().nullable(),
    lastResyncAt: z.number().nullable(),
    accepted: z.number().int(),
    source: z.enum(LIVE_SOURCES),
    relay: RelayStatusSchema.nullable(),
  })
  .strict();
export type LiveStatus = z.infer<typeof LiveStatusSchema>;

/** The zone of the service's date-times written with no offset (README: "Date-times without an offset"). */
export const ServiceTimeStatusSchema = z
  .object({
    /** What the user set for this workspace; null: learned from the service. */
    setting: z.string().nullable(),
    /** The offset learned from the service's answer to a write (`-03:00`); null: none yet. */
    learned: z.string().nullable(),
    /** The service has been seen writing date-times with no offset. */
    wallTime: z.boolean(),
    /** The zone such date-times are read in now. */
    inUse: z.string(),
  })
  .strict();
export type ServiceTimeStatus = z.infer<typeof ServiceTimeStatusSchema>;

export const liveChannels = {
  'live:status': { input: NoInput, output: LiveStatusSchema },
  /** Pause or resume live updates (resuming resyncs every open session from its high-water mark). */
  'live:setRunning': { input: z.object({ running: z.boolean() }).strict(), output: LiveStatusSchema },
  /** A hint from the renderer (woke from sleep, back online): resync now. */
  'live:resync': { input: NoInput, output: LiveStatusSchema },
  /** Where this workspace's live events come from. */
  'live:source': { input: NoInput, output: LiveSourceStatusSchema },
  /**
   * Saves the source and switches to it. A relay needs its password or token (`secret`) unless
   * one is kept for the same user and auth kind; leaving the relay forgets it.
   */
  'live:setSource': {
    input: z.object({ source: LiveSourceSchema, secret: z.string().min(1).max(1000).optional() }).strict(),
    output: LiveSourceStatusSchema,
  },
  'live:serviceTime': { input: NoInput, output: ServiceTimeStatusSchema },
  /** Sets the zone of the service's date-times with no offset; null or blank: learn it. */
  'live:setServiceZone': { input: z.object({ zone: z.string().max(64).nullable() }).strict(), output: ServiceTimeStatusSchema },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export const liveEvents = {
  'live:status': LiveStatusSchema,
} as const satisfies Record<string, z.ZodType>;
