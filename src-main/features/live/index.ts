import { showSecretOnPage } from '../../secrets';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { LiveStatus } from '../../../src-shared/bridge/live';
import { AppError, isAppError, toErrorInfo } from '../../../src-shared/errors';
import { askedWaitMs } from '../../../src-shared/error-kinds';
import type { WebhookEvent } from '../../../src-shared/webhook';
import {
  FileShare,
  type LentFile,
  type LendOptions,
  newPathSecret,
  startWebhookListener,
  type EventLogEntry,
  type EventLogFilter,
  type ReceivedEvent,
  type WebhookListener,
  type WebhookLogger,
} from '../../webhooks';
import type { Feature, FeatureContext } from '../context';
import type { ServiceClient } from '../../service';
import type { PollPace, PollOutcome } from './poll-pace';
import { PollPacer } from './poll-pacer';
import { SleepDetector } from './sleep-detector';
import { liveSource, openRelayLink, saveSource, sourceStatus, type RelayLink } from './relay-link';
import { serviceTimeStatus, setServiceZone } from './service-zone';
import { errorText } from '../../../src-shared/error-text';

/** Requests the listener refused, by reason, since the console started. */
export interface Refusals {
  byReason: Record<string, number>;
  last: { reason: string; status: number; at: number } | null;
}

export interface ListenerCounts {
  accepted: number;
  duplicates: number;
  refused: number;
  busy: number;
  queued: number;
}

export interface LiveFeature {
  handlers: Feature<'live'>['handlers'];
  /** The running listener, if any. */
  readonly listener: WebhookListener | null;
  /** The events received lately, newest first: the listener's log, or those from the team relay. */
  eventLog(filter?: EventLogFilter): EventLogEntry[];
  readonly state: LiveStatus['state'];
  /** Why the listener failed (a taken port...), or a registration problem. */
  readonly detail: string | null;
  /** The demo stand-in delivers to the listener. */
  readonly registered: boolean;
  /** Events reach the console (the poll is only a safety net then). */
  readonly eventsFlow: boolean;
  /** Settings: signing required (default) or unsigned events accepted. */
  readonly signing: boolean;
  /** Settings: the port asked for (0 = any free one). */
  readonly portSetting: number;
  /** The secret the running listener requires (for the tunnel's self-check); undefined when signing is off. */
  readonly signingSecret: string | undefined;
  /**
   * The listener's address through a tunnel (origin and path), registered instead of the local
   * one while set; null goes back to the local one. Registers again when it changed, then
   * resyncs: deliveries may have failed while the tunnel was down.
   */
  setPublicUrl(url: string | null): Promise<void>;
  /**
   * Lends a file to the service for a few minutes (a knowledge-base upload reads a URL): the
   * address through the tunnel, or the listener's own when the service runs on this computer.
   * Throws a clear error when the service could not reach it. The loan also ends when the
   * workspace closes or changes.
   */
  shareFile(name: string, bytes: Buffer, o?: LendOptions): LentFile;
  /**
   * Why no file can be lent now, before any byte is read: `relay` (live events come through the
   * team relay, which lends nothing), `listenerOff` (polling only), `noPublicAddress` (no tunnel and
   * the service is elsewhere); null when one can.
   */
  lendProblem(): LendProblem | null;
  /** The machine woke from sleep (the tick below arrived late). */
  onWake(listener: () => void): () => void;
  /** Since the console started, over every run of the listener. */
  counts(): ListenerCounts;
  refusals(): Refusals;
  /** Every accepted event (known or not), in order: for the event log. */
  onReceived(listener: (e: ReceivedEvent) => void): () => void;
  /** The listener started, stopped, failed or counted something (coalesced per ~100 ms). */
  onChange(listener: () => void): () => void;
  /** Saves the port and restarts the listener on it; a failure shows in `state` and `detail`. */
  setPort(port: number): Promise<void>;
  /**
   * Saves the signing choice and restarts the listener. Turning it on makes a new secret and
   * returns it (for the user to copy to the service); off returns null.
   */
  setSigning(enabled: boolean): Promise<string | null>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A service at one of these hosts runs on this computer and can read the listener directly. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * Where the service can read what the listener serves: the tunnel's origin while one is live,
 * else the listener itself when the service runs on this computer; null when it cannot.
 */
export function fileOrigin(o: {
  publicUrl: string | null;
  listenerPath: string;
  listenerPort: number;
  serviceBaseUrl: string;
}): string | null {
  if (o.publicUrl) return o.publicUrl.endsWith(o.listenerPath) ? o.publicUrl.slice(0, -o.listenerPath.length) : new URL(o.publicUrl).origin;
  const host = new URL(o.serviceBaseUrl).hostname.replace(/^\[|\]$/g, '');
  return LOOPBACK_HOSTS.has(host) ? `http://127.0.0.1:${o.listenerPort}` : null;
}

/** Why the console cannot lend a file now (LiveFeature `lendProblem`). */
export type LendProblem = 'relay' | 'listenerOff' | 'noPublicAddress';

/** Why a file cannot be lent, in words that say what to set up. */
export function lendError(problem: LendProblem): AppError {
  switch (problem) {
    case 'relay':
      return new AppError({
        kind: 'Unavailable',
        message:
          "A file from this computer is handed to the service by this computer's listener, and this workspace takes its live events elsewhere (Settings, Developer / integration, Live source). Give a link to the file instead.",
      });
    case 'listenerOff':
      return new AppError({
        kind: 'Unavailable',
        message:
          "A file from this computer is handed to the service by the live-updates listener, which is not running (or this workspace polls only). Turn live updates on with this computer's listener in the settings, or give a link to the file.",
      });
    case 'noPublicAddress':
      return new AppError({
        kind: 'Invalid',
        field: 'file',
        message:
          'The service reads the file from a public address, and this console has none yet: start the tunnel (Settings, Developer / integration), or give a link to the file.',
      });
  }
}

export interface LiveDeps {
  /**
   * Each accepted event with a known envelope, in order. Resolves once the sync applied it, and
   * rejects when it could not (a team relay's event is acknowledged only after, and comes again).
   */
  onEvent(e: WebhookEvent): Promise<void> | void;
  /**
   * A gap may have happened (listener (re)started, machine woke up), or the safety-net poll is
   * due: read everything forward. Says what it found and what failed (the poll paces itself on it).
   */
  onResync(): Promise<PollOutcome | void>;
  /** The safety-net poll's pace (tests and benchmarks shorten it). */
  pollPace?: PollPace;
}

const PORT_SETTING = 'webhookPort';
const LAST_PORT_SETTING = 'webhookLastPort';
const SIGNING_SETTING = 'webhookSigning';
const PAUSED_SETTING = 'liveUpdatesPaused';
const SECRET_PATH = 'webhook:path';
const SECRET_SIGNING = 'webhook:signing';
/** Events this recent say the service delivers to the listener (the poll can be slow). */
const EVENTS_RECENT_MS = 15 * 60_000;
const STATUS_MS = 100;
/** A registration call: the listener is live once registered, so a slow service is not waited on long. */
const HOOK_CALL_MS = 5_000;

/** The listener logs each refusal with this message and `{status, reason}`: counted per reason. */
const REFUSED_MESSAGE = 'Refused a webhook request.';

const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Live updates: runs the loopback webhook listener while a workspace is open, registers it with
 * the demo workspace's stand-in, and feeds its events to the sync engine as hints. A listener
 * restart, a wake from sleep and a periodic tick all trigger a resync from the high-water marks.
 * The listener's settings (port, signing) live here too; its tunnel and event log view are in
 * webhooks.ts.
 */
export function createLiveFeature(ctx: FeatureContext, deps: LiveDeps): LiveFeature {
  let listener: WebhookListener | null = null;
  /** The demo service's registration of the listener, and the client that made it (it removes it, even once the session has ended). */
  let hook: { id: number; client: ServiceClient } | null = null;
  /** The team relay, while it is the workspace's live source. */
  let relay: RelayLink | null = null;
  let state: LiveStatus['state'] = 'idle';
  let detail: string | null = null;
  let lastEventAt: number | null = null;
  let lastResyncAt: number | null = null;
  let accepted = 0;
  let changing: Promise<void> = Promise.resolve();
  /** The feature stopped (the workspace or the console closes): nothing opens any more. */
  let stopped = false;
  /** Counters of listener runs already closed (each run counts from zero). */
  const closedCounts = { accepted: 0, duplicates: 0, refused: 0, busy: 0 };
  const refusals: Refusals = { byReason: {}, last: null };
  const receivedListeners = new Set<(e: ReceivedEvent) => void>();
  const changeListeners = new Set<() => void>();
  /** Set while a tunnel is live: the address the service should deliver to. */
  let publicUrl: string | null = null;
  /** Files lent to the service, served by whichever listener runs. */
  const files = new FileShare();
  /** Where the service can read a lent file now, or why it cannot (the one rule for lending and for saying so early). */
  const lendCheck = (): { problem: LendProblem | null; origin: string | null } => {
    const l = listener;
    if (!l) return { problem: liveSource(ctx).kind === 'relay' ? 'relay' : 'listenerOff', origin: null };
    const origin = fileOrigin({ publicUrl, listenerPath: l.path, listenerPort: l.port, serviceBaseUrl: ctx.client().baseUrl });
    return { problem: origin ? null : 'noPublicAddress', origin };
  };

  const signingOn = () => ctx.settings.get(SIGNING_SETTING);
  const portSetting = () => ctx.settings.get(PORT_SETTING);

  const status = (): LiveStatus => ({
    state,
    url: listener?.url ?? null,
    signed: listener?.signatureMode === 'required',
    registered: hook !== null,
    detail,
    lastEventAt,
    lastResyncAt,
    accepted,
    source: liveSource(ctx).kind,
    relay: relay?.status ?? null,
  });
  let statusTimer: ReturnType<typeof setTimeout> | null = null;
  const pushStatus = () => {
    // Coalesced: a burst of events updates the indicator (and the listener's counters) ten times a second at most.
    if (statusTimer) return;
    statusTimer = setTimeout(() => {
      statusTimer = null;
      ctx.events.emit('live:status', status());
      for (const l of changeListeners) {
        try {
          l();
        } catch (e) {
          ctx.log.warn('live: a change listener failed', { error: errorText(e) });
        }
      }
    }, STATUS_MS);
    statusTimer.unref?.();
  };

  /**
   * The listener's path and signing secret are kept as the token is: sealed where the token is
   * sealed, with the consent the user gave for it where the protection is weak (never asked
   * again), so a service keeps delivering to the same address after a restart. Where the token
   * is not kept (the demo's, or none), neither are they: they live for this run.
   */
  function keep(name: string, value: string): void {
    try {
      ctx.vault.put(name, value, { allowWeak: ctx.vault.keepsToken });
    } catch {
      ctx.vault.put(name, value, { persist: false });
    }
  }

  function secret(name: string, make: () => string): string {
    const existing = ctx.vault.get(name);
    if (existing) {
      ctx.registerSecret(existing);
      return existing;
    }
    const value = make();
    keep(name, value);
    ctx.registerSecret(value);
    return value;
  }

  const listenerLog: WebhookLogger = {
    info: (m, f) => ctx.log.info(m, f as Record<string, unknown> | undefined),
    warn: (m, f) => {
      const fields = f as Record<string, unknown> | undefined;
      if (m === REFUSED_MESSAGE && typeof fields?.reason === 'string') {
        refusals.byReason[fields.reason] = (refusals.byReason[fields.reason] ?? 0) + 1;
        refusals.last = { reason: fields.reason, status: typeof fields.status === 'number' ? fields.status : 0, at: ctx.clock.now() };
        pushStatus();
      }
      ctx.log.warn(m, fields);
    },
    error: (m, f) => ctx.log.error(m, f as Record<string, unknown> | undefined),
  };

  const hookCall = { timeoutMs: HOOK_CALL_MS };

  /** The demo workspace's service learns where to deliver (a service elsewhere is told by its administrator). */
  async function register(l: WebhookListener, signingSecret: string | undefined): Promise<void> {
    if (!ctx.isDemo()) return;
    const client = ctx.client();
    // Hooks of an earlier run of this console (the demo workspace keeps its data) are dead ends.
    for (const h of await client.hooks(hookCall)) {
      const ours = (h.url.startsWith('http://127.0.0.1:') && h.url.includes('/hooks/')) || h.url.endsWith(l.path);
      if (ours) await client.deleteHook(h.id, hookCall).catch(() => undefined);
    }
    // Signing off: the stand-in sends unsigned events, as a service without a secret would.
    const made = await client.registerHook({ url: publicUrl ?? l.url, ...(signingSecret ? { secret: signingSecret } : {}) }, hookCall);
    hook = { id: made.id, client };
  }

  async function unregister(): Promise<void> {
    if (!hook) return;
    const { id, client } = hook;
    hook = null;
    await client.deleteHook(id, hookCall).catch(() => undefined);
  }

  async function resync(): Promise<PollOutcome> {
    let outcome: PollOutcome;
    try {
      outcome = (await deps.onResync()) ?? { found: 0, errors: [] };
      lastResyncAt = ctx.clock.now();
    } catch (e) {
      ctx.log.warn('resync failed', { error: errorText(e) });
      outcome = { found: 0, errors: [e] };
    }
    pushStatus();
    return outcome;
  }

  /** Events reach the console: registered with the demo service, or arriving lately. */
  const eventsFlow = () => hook !== null || !!relay?.live || (lastEventAt !== null && ctx.clock.now() - lastEventAt < EVENTS_RECENT_MS);

  /**
   * The safety net under the events, whenever a workspace is open and live updates are not
   * paused, with or without a listener (a service that never delivers events is then read this way).
   */
  const poll = new PollPacer({
    pass: resync,
    due: () => ctx.hasWorkspace() && ctx.settings.get(PAUSED_SETTING) !== true,
    eventsFlow,
    ...(deps.pollPace ? { pace: deps.pollPace } : {}),
  });
  /** Back from sleep: whatever was delivered meanwhile may be lost, so everything is read forward. */
  const sleep = new SleepDetector({
    onListenerError: (e) => ctx.log.warn('live: a wake listener failed', { error: errorText(e) }),
  });
  sleep.onWake(() => {
    if (ctx.hasWorkspace()) void resync();
  });

  /** An event from the listener or the relay: the event log hears of it, the sync applies it. */
  function received(e: ReceivedEvent): Promise<void> {
    accepted++;
    lastEventAt = ctx.clock.now();
    for (const l of receivedListeners) {
      try {
        l(e);
      } catch (err) {
        ctx.log.warn('live: an event listener failed', { error: errorText(err) });
      }
    }
    pushStatus();
    return e.event && e.known ? Promise.resolve(deps.onEvent(e.event)) : Promise.resolve();
  }

  /** The listener hands events on without waiting: the sync's failures are its own to report. */
  function heard(e: ReceivedEvent): void {
    received(e).catch(() => undefined);
  }

  /** The workspace reads a team relay, or the poll alone: no listener runs. */
  async function openOther(): Promise<boolean> {
    const source = liveSource(ctx);
    if (source.kind === 'listener') return false;
    if (source.kind === 'relay') {
      relay = openRelayLink(ctx, source.relay, { deliver: received, onChange: pushStatus, onBack: () => void resync() });
      detail = relay ? null : "The team relay's password or token is not kept on this computer; give it again in the settings.";
    }
    state = 'running';
    pushStatus();
    await resync();
    return true;
  }

  async function open(): Promise<void> {
    if (listener || relay || !ctx.hasWorkspace()) return;
    if (await openOther()) return;
    const asked = portSetting();
    const pathSecret = secret(SECRET_PATH, newPathSecret);
    // Part of the address the user copies to the service: shown on the page, never logged.
    showSecretOnPage(pathSecret);
    const signingSecret = signingOn() ? secret(SECRET_SIGNING, newSigningSecret) : undefined;
    // With "any free port", the port of the last listener comes first, so the address stays (across restarts too).
    const lastPort = ctx.settings.get(LAST_PORT_SETTING);
    const ports = asked === 0 && lastPort !== null ? [lastPort, 0] : [asked];
    let failure: unknown = null;
    for (const port of ports) {
      try {
        listener = await startWebhookListener({
          port,
          pathSecret,
          ...(signingSecret ? { signingSecret } : {}),
          stateDir: join(ctx.profileDir, 'webhooks'),
          log: listenerLog,
          onEvent: heard,
          files,
        });
        break;
      } catch (e) {
        failure = e;
      }
    }
    if (!listener) {
      state = 'failed';
      detail = toErrorInfo(failure).message;
      pushStatus();
      return;
    }
    if (asked === 0 && listener.port !== lastPort) ctx.settings.set(LAST_PORT_SETTING, listener.port);
    // A tunnel that cannot rewrite Host keeps forwarding to the same port after a restart.
    if (publicUrl) listener.allowHost(new URL(publicUrl).host);
    detail = null;
    try {
      await register(listener, signingSecret);
    } catch (e) {
      detail = `Live updates could not be registered with the demo workspace (${errorText(e)}).`;
      // Told to wait: registered again once the wait the service asked for is over, not sooner.
      const asked = askedWaitMs(e);
      if (asked !== null) {
        const l = listener;
        detail = `Live updates are not registered yet: the service asked us to wait until ${new Date(ctx.clock.now() + asked).toISOString()}. The console registers them then.`;
        setTimeout(() => {
          if (listener !== l || hook !== null) return;
          register(l, signingSecret).then(
            () => {
              detail = null;
              pushStatus();
            },
            (again: unknown) => {
              detail = `Live updates could not be registered with the demo workspace (${errorText(again)}).`;
              pushStatus();
            },
          );
        }, asked).unref();
      }
    }
    // "Live" only once the service knows where to send events: before that nothing can arrive.
    state = 'running';
    pushStatus();
    // Whatever happened while no listener ran is read now, from each high-water mark.
    await resync();
  }

  async function close(): Promise<void> {
    const r = relay;
    relay = null;
    await r?.close();
    await unregister();
    const l = listener;
    listener = null;
    if (!l) return;
    await l.close();
    const s = l.stats();
    closedCounts.accepted += s.accepted;
    closedCounts.duplicates += s.duplicates;
    closedCounts.refused += s.rejected;
    closedCounts.busy += s.busy;
  }

  const serial = (f: () => Promise<void>): Promise<void> => {
    changing = changing.then(f, f);
    return changing;
  };

  /** After a settings change: a running or failed listener starts again with the new settings. */
  async function reopen(): Promise<void> {
    if (state !== 'running' && state !== 'failed') return;
    await close();
    state = 'idle';
    await open();
  }

  /**
   * The sign-in's events are set up behind its start (the one before it stopped its own, its hook
   * removed while its service still ran): its views do not wait for the listener, the hook's
   * registration and the catch-up read, and at launch neither does the page's first view. Its
   * status says when events flow.
   */
  function openBehindFirstView(): void {
    state = ctx.hasWorkspace() && ctx.settings.get(PAUSED_SETTING) ? 'stopped' : 'idle';
    pushStatus();
    if (!ctx.hasWorkspace() || ctx.settings.get(PAUSED_SETTING)) return;
    void ctx.firstView.shown
      .then(() =>
        serial(async () => {
          // Asked again: the workspace may have closed, been paused or stopped meanwhile.
          if (stopped || !ctx.hasWorkspace() || ctx.settings.get(PAUSED_SETTING)) return;
          await open();
          pushStatus();
        }),
      )
      .catch((e: unknown) => ctx.log.error('live: could not start for the workspace', { error: errorText(e) }));
  }

  return {
    get listener() {
      return listener;
    },
    eventLog(filter) {
      return listener?.eventLog(filter) ?? relay?.eventLog(filter) ?? [];
    },
    get state() {
      return state;
    },
    get detail() {
      return detail;
    },
    get eventsFlow() {
      return eventsFlow();
    },
    get registered() {
      return hook !== null;
    },
    get signing() {
      return signingOn();
    },
    get portSetting() {
      return portSetting();
    },
    get signingSecret() {
      return listener?.signatureMode === 'required' ? (ctx.vault.get(SECRET_SIGNING) ?? undefined) : undefined;
    },
    async setPublicUrl(url) {
      await serial(async () => {
        const changed = url !== publicUrl;
        publicUrl = url;
        if (!listener || !ctx.isDemo() || (!changed && hook !== null)) return;
        await unregister();
        try {
          await register(listener, signingOn() ? secret(SECRET_SIGNING, newSigningSecret) : undefined);
          detail = null;
        } catch (e) {
          detail = `Live updates could not be registered with the demo workspace (${errorText(e)}).`;
        }
      });
      await resync();
    },
    lendProblem: () => lendCheck().problem,
    shareFile(name, bytes, o) {
      const { problem, origin } = lendCheck();
      if (problem || !origin) throw lendError(problem ?? 'noPublicAddress');
      try {
        const path = files.offer(name, bytes, o);
        return { url: `${origin}${path}`, withdraw: () => files.withdraw(path) };
      } catch (e) {
        throw new AppError({ kind: 'Invalid', field: 'file', message: errorText(e) });
      }
    },
    onWake: (l) => sleep.onWake(l),
    counts() {
      const s = listener?.stats();
      return {
        accepted: closedCounts.accepted + (s?.accepted ?? 0),
        duplicates: closedCounts.duplicates + (s?.duplicates ?? 0),
        refused: closedCounts.refused + (s?.rejected ?? 0),
        busy: closedCounts.busy + (s?.busy ?? 0),
        queued: s?.queued ?? 0,
      };
    },
    refusals: () => ({ byReason: { ...refusals.byReason }, last: refusals.last }),
    onReceived(l) {
      receivedListeners.add(l);
      return () => receivedListeners.delete(l);
    },
    onChange(l) {
      changeListeners.add(l);
      return () => changeListeners.delete(l);
    },
    async setPort(port) {
      await serial(async () => {
        ctx.settings.set(PORT_SETTING, port);
        // An explicit choice replaces the remembered free port.
        ctx.settings.delete(LAST_PORT_SETTING);
        await reopen();
      });
      pushStatus();
    },
    async setSigning(enabled) {
      let fresh: string | null = null;
      await serial(async () => {
        ctx.settings.set(SIGNING_SETTING, enabled);
        if (enabled) {
          fresh = newSigningSecret();
          keep(SECRET_SIGNING, fresh);
          ctx.registerSecret(fresh);
        }
        await reopen();
      });
      pushStatus();
      return fresh;
    },
    handlers: {
      'live:status': async () => status(),
      'live:setRunning': async ({ running }) => {
        await serial(async () => {
          ctx.settings.set(PAUSED_SETTING, !running);
          if (running) await open();
          else {
            await close();
            state = 'stopped';
          }
        });
        pushStatus();
        return status();
      },
      'live:resync': async () => {
        await resync();
        return status();
      },
      'live:source': async () => sourceStatus(ctx),
      'live:serviceTime': async () => serviceTimeStatus(ctx),
      'live:setServiceZone': async ({ zone }) => setServiceZone(ctx, zone),
      'live:setSource': async ({ source, secret }) => {
        await serial(async () => {
          saveSource(ctx, source, secret, keep);
          // The new source starts now; paused, it starts when live updates resume.
          const on = state === 'running' || state === 'failed';
          await close();
          if (!on) return;
          state = 'idle';
          detail = null;
          await open();
        });
        pushStatus();
        return sourceStatus(ctx);
      },
    },
    async start() {
      poll.start();
      sleep.start();
      openBehindFirstView();
    },
    async stop() {
      stopped = true;
      poll.stop();
      sleep.stop();
      if (statusTimer) clearTimeout(statusTimer);
      await serial(close).catch((e: unknown) => {
        if (!isAppError(e)) ctx.log.warn('live: close failed', { error: errorText(e) });
      });
    },
  };
}
