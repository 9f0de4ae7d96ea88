import { z } from 'zod';

/**
 * The webhook listener's settings, its tunnel and its event log. Strict: we own these shapes.
 *
 * One deliberate exception to "no secret crosses the bridge": a signing secret the user asks
 * for is returned once (`newSecret`, named in its channel's `reveals`, which the bridge's
 * redaction lets through) so that they can copy it to the service. It is never returned again,
 * never pushed as an event, and the service token never crosses at all.
 */

const NoInput = z.object({}).strict();

export const TUNNEL_PROVIDERS = ['none', 'cloudflared', 'ngrok', 'ssh', 'custom'] as const;
export const TunnelChoiceSchema = z.enum(TUNNEL_PROVIDERS);
export type TunnelChoice = z.infer<typeof TunnelChoiceSchema>;
export const BUILT_IN_TUNNELS = ['cloudflared', 'ngrok', 'ssh'] as const;
export type BuiltInTunnel = (typeof BUILT_IN_TUNNELS)[number];

/** A custom tunnel command line; `{port}` stands for the listener's port. */
export const MAX_TUNNEL_COMMAND = 1000;
/** A custom command's public URL template (`{port}`, `{remotePort}`); empty: read from its output. */
export const MAX_TUNNEL_URL = 500;

export const TunnelProgramSchema = z
  .object({
    provider: z.enum(BUILT_IN_TUNNELS),
    /** The executable the console looks for on PATH. */
    program: z.string(),
    /** Where it was found; null when it is not on PATH. */
    path: z.string().nullable(),
    /** One line: how to install it on this OS. */
    install: z.string(),
  })
  .strict();
/** Raw bodies pushed with new rows are cut here; `webhooks:entry` gives the whole stored body. */
export const PUSHED_RAW_CHARS = 4096;
/** Rows the renderer keeps (the listener's log holds as many). */
export const EVENT_LOG_ROWS = 500;

export const TunnelStatusSchema = z
  .object({
    provider: TunnelChoiceSchema,
    /** The custom command line as the user typed it (empty for the others). */
    command: z.string(),
    /** The custom command's public URL template as typed; empty: the first https URL it prints. */
    urlTemplate: z.string(),
    /** The custom command as saved was confirmed by the user (it runs only then). */
    confirmed: z.boolean(),
    /** What the tunnel runs, program and arguments, no shell (a built-in one once found and the listener runs). */
    preview: z
      .object({ program: z.string(), args: z.array(z.string()) })
      .strict()
      .nullable(),
    /** The built-in providers: what each runs, whether it is on PATH, how to install it. */
    programs: z.array(TunnelProgramSchema),
    /**
     * stopped; starting (until a self-check comes back through it); running (live, checked
     * periodically); restarting (at `retryAt`, after `reason`); failed (the user has to act).
     */
    status: z.enum(['stopped', 'starting', 'running', 'restarting', 'failed']),
    /** The tunnel's public origin while live. */
    url: z.string().nullable(),
    /** Why it failed or restarts, in words the user can act on. */
    reason: z.string().nullable(),
    /** When a restarting tunnel starts again (ms since the epoch). */
    retryAt: z.number().nullable(),
    /** The last self-check that came back (ms since the epoch). */
    checkedAt: z.number().nullable(),
    /** The address to register with the service: the tunnel's origin plus the listener's path. */
    publicUrl: z.string().nullable(),
  })
  .strict();
export type TunnelStatus = z.infer<typeof TunnelStatusSchema>;

const count = z.number().int().nonnegative();

export const ListenerStatusSchema = z
  .object({
    /** running: taking events; stopped: live updates paused; failed: could not start (see detail); idle: no workspace. */
    state: z.enum(['running', 'stopped', 'failed', 'idle']),
    /** Why it failed (e.g. the port is taken), or a registration problem. */
    detail: z.string().nullable(),
    /** http://127.0.0.1:PORT/hooks/<path secret>: what a local sender or the tunnel reaches. */
    localUrl: z.string().nullable(),
    /** The port in use; null while not running. */
    port: z.number().int().nullable(),
    /** The port asked for in settings (0 = any free port). */
    portSetting: z.number().int(),
    /** /hooks/<path secret>. */
    path: z.string().nullable(),
    /** Signing required; when false, unsigned events are accepted (the console warns). */
    signing: z.boolean(),
    /** The demo workspace's stand-in delivers to this listener. */
    registered: z.boolean(),
    demo: z.boolean(),
    /** Since the console started (all listener runs). */
    counts: z.object({ accepted: count, duplicates: count, refused: count, busy: count, queued: count }).strict(),
    /** Refused requests by reason (bad-signature, stale-signature, missing-signature, not-found...). */
    refusals: z.record(z.string(), count),
    lastRefusal: z.object({ reason: z.string(), status: z.number().int(), at: z.number() }).strict().nullable(),
    tunnel: TunnelStatusSchema,
  })
  .strict();
export type ListenerStatus = z.infer<typeof ListenerStatusSchema>;

export const EventRowSchema = z
  .object({
    /** The idempotency key (webhook-id, else the envelope id, else a hash of the body). */
    id: z.string(),
    receivedAt: z.number(),
    signature: z.enum(['valid', 'unsigned']),
    /** The envelope of one of the event groups the interface names (§6). */
    known: z.boolean(),
    group: z.string().nullable(),
    type: z.string().nullable(),
    occurredAt: z.string().nullable(),
    /** The body as received, possibly cut (then `cut` is true). */
    raw: z.string(),
    cut: z.boolean(),
  })
  .strict();
export type EventRow = z.infer<typeof EventRowSchema>;

export const EventFilterSchema = z
  .object({
    group: z.string().max(100).optional(),
    type: z.string().max(200).optional(),
    /** Case-insensitive part of the id or the body. */
    text: z.string().max(500).optional(),
    limit: z.number().int().min(1).max(EVENT_LOG_ROWS).optional(),
  })
  .strict();

const WithSecret = z
  .object({
    status: ListenerStatusSchema,
    /** Shown once for the user to copy to the service; null when signing was turned off. */
    newSecret: z.string().nullable(),
  })
  .strict();

export const webhooksChannels = {
  'webhooks:status': { input: NoInput, output: ListenerStatusSchema },
  /** Restarts the listener on this port (0 = any free one). A taken port shows as `failed` with the reason. */
  'webhooks:setPort': { input: z.object({ port: z.number().int().min(0).max(65535) }).strict(), output: ListenerStatusSchema },
  /** On: a new secret is made, returned once, and the listener restarts requiring it. Off: unsigned events are accepted. */
  'webhooks:setSigning': { input: z.object({ enabled: z.boolean() }).strict(), output: WithSecret, reveals: ['newSecret'] },
  /** Replaces the signing secret (signing on); the new one is returned once. */
  'webhooks:newSecret': { input: NoInput, output: WithSecret, reveals: ['newSecret'] },
  /** Saves the choice; a changed custom command needs confirming before it runs. */
  'webhooks:setTunnel': {
    input: z
      .object({
        provider: TunnelChoiceSchema,
        command: z.string().max(MAX_TUNNEL_COMMAND),
        urlTemplate: z.string().max(MAX_TUNNEL_URL).optional(),
      })
      .strict(),
    output: ListenerStatusSchema,
  },
  /**
   * Starts the tunnel and keeps it up (restarts, re-registration) until stopped. An unconfirmed
   * custom command starts only with `confirm` equal to the saved command line the user was shown.
   */
  'webhooks:startTunnel': {
    input: z.object({ confirm: z.string().max(MAX_TUNNEL_COMMAND).optional() }).strict(),
    output: ListenerStatusSchema,
  },
  'webhooks:stopTunnel': { input: NoInput, output: ListenerStatusSchema },
  /** Recent events, newest first, filtered by the listener's log. */
  'webhooks:log': { input: EventFilterSchema, output: z.object({ entries: z.array(EventRowSchema) }).strict() },
  /** One event with its whole stored body. */
  'webhooks:entry': {
    input: z.object({ id: z.string().min(1).max(300) }).strict(),
    output: z.object({ entry: EventRowSchema.nullable() }).strict(),
  },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType; reveals?: readonly string[] }>;

export const webhooksEvents = {
  /** Coalesced (a burst of events updates it once per ~16 ms). */
  'webhooks:status': ListenerStatusSchema,
  /** Newly accepted events, oldest first, coalesced per ~16 ms. */
  'webhooks:events': z.object({ entries: z.array(EventRowSchema) }).strict(),
} as const satisfies Record<string, z.ZodType>;
