import { showSecretOnPage } from '../../secrets';
import { join } from 'node:path';
import type { LiveStatus } from '../../../src-shared/bridge/live';
import { isAppError, toErrorInfo } from '../../../src-shared/errors';
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
} from '../../webhooks';
import type { Feature, FeatureContext } from '../context';
import type { PollPace, PollOutcome } from './poll-pace';
import { PollPacer } from './poll-pacer';
import { SleepDetector } from './sleep-detector';
import { liveSource, openRelayLink, saveSource, sourceStatus, type RelayLink } from './relay-link';
import { serviceTimeStatus, setServiceZone } from './service-zone';
import { StatusBoard } from './status-board';
import { ListenerTally, type ListenerCounts, type Refusals } from './listener-tally';
import { DemoHook } from './demo-hook';
import { keepListenerKey, listenerKey, newSigningSecret, SECRET_PATH, SECRET_SIGNING } from './listener-keys';
import { fileOrigin, lendError, type LendProblem } from './file-loan';
import { errorText } from '../../../src-shared/error-text';
import { AppError } from '../../../src-shared/errors';

export type { ListenerCounts, Refusals } from './listener-tally';
export { fileOrigin, lendError, type LendProblem } from './file-loan';

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
/** Events this recent say the service delivers to the listener (the poll can be slow). */
const EVENTS_RECENT_MS = 15 * 60_000;

/**
 * Live updates: runs the loopback webhook listener while a workspace is open, registers it with
 * the demo workspace's stand-in, and feeds its events to the sync engine as hints. A listener
 * restart, a wake from sleep and a periodic tick all trigger a resync from the high-water marks.
 * The listener's settings (port, signing) live here too; its tunnel and event log view are in
 * webhooks.ts.
 */
export function createLiveFeature(ctx: FeatureContext, deps: LiveDeps): LiveFeature {
  return new LiveUpdates(ctx, deps);
}

/**
 * The live feature of one sign-in: it owns its listener or relay link, its poll, its sleep
 * detector and its status timer, and `stop` ends them all.
 */
class LiveUpdates implements LiveFeature {
  readonly #ctx: FeatureContext;
  readonly #deps: LiveDeps;
  #listener: WebhookListener | null = null;
  readonly #hook: DemoHook;
  /** The team relay, while it is the workspace's live source. */
  #relay: RelayLink | null = null;
  #state: LiveStatus['state'] = 'idle';
  #detail: string | null = null;
  #lastEventAt: number | null = null;
  #lastResyncAt: number | null = null;
  #accepted = 0;
  #changing: Promise<void> = Promise.resolve();
  /** The feature stopped (the workspace or the console closes): nothing opens any more. */
  #stopped = false;
  readonly #tally: ListenerTally;
  readonly #received = new Set<(e: ReceivedEvent) => void>();
  /** Set while a tunnel is live: the address the service should deliver to. */
  #publicUrl: string | null = null;
  /** Files lent to the service, served by whichever listener runs. */
  readonly #files = new FileShare();
  readonly #board: StatusBoard;
  /**
   * The safety net under the events, whenever a workspace is open and live updates are not
   * paused, with or without a listener (a service that never delivers events is then read this way).
   */
  readonly #poll: PollPacer;
  /** Back from sleep: whatever was delivered meanwhile may be lost, so everything is read forward. */
  readonly #sleep: SleepDetector;
  readonly handlers: LiveFeature['handlers'];

  constructor(ctx: FeatureContext, deps: LiveDeps) {
    this.#ctx = ctx;
    this.#deps = deps;
    this.#hook = new DemoHook(ctx);
    this.#board = new StatusBoard({ emit: () => ctx.events.emit('live:status', this.#status()), log: ctx.log });
    this.#tally = new ListenerTally(
      ctx.log,
      () => this.#board.push(),
      () => ctx.clock.now(),
    );
    this.#poll = new PollPacer({
      pass: () => this.#resync(),
      due: () => ctx.hasWorkspace() && ctx.settings.get(PAUSED_SETTING) !== true,
      eventsFlow: () => this.#eventsFlow(),
      ...(deps.pollPace ? { pace: deps.pollPace } : {}),
    });
    this.#sleep = new SleepDetector({
      onListenerError: (e) => ctx.log.warn('live: a wake listener failed', { error: errorText(e) }),
    });
    this.#sleep.onWake(() => {
      if (ctx.hasWorkspace()) void this.#resync();
    });
    this.handlers = this.#handlers();
  }

  #status(): LiveStatus {
    return {
      state: this.#state,
      url: this.#listener?.url ?? null,
      signed: this.#listener?.signatureMode === 'required',
      registered: this.#hook.registered,
      detail: this.#detail,
      lastEventAt: this.#lastEventAt,
      lastResyncAt: this.#lastResyncAt,
      accepted: this.#accepted,
      source: liveSource(this.#ctx).kind,
      relay: this.#relay?.status ?? null,
    };
  }

  #signingOn(): boolean {
    return this.#ctx.settings.get(SIGNING_SETTING);
  }

  async #resync(): Promise<PollOutcome> {
    let outcome: PollOutcome;
    try {
      outcome = (await this.#deps.onResync()) ?? { found: 0, errors: [] };
      this.#lastResyncAt = this.#ctx.clock.now();
    } catch (e) {
      this.#ctx.log.warn('resync failed', { error: errorText(e) });
      outcome = { found: 0, errors: [e] };
    }
    this.#board.push();
    return outcome;
  }

  /** Events reach the console: registered with the demo service, or arriving lately. */
  #eventsFlow(): boolean {
    return (
      this.#hook.registered ||
      !!this.#relay?.live ||
      (this.#lastEventAt !== null && this.#ctx.clock.now() - this.#lastEventAt < EVENTS_RECENT_MS)
    );
  }

  /** An event from the listener or the relay: the event log hears of it, the sync applies it. */
  #receive(e: ReceivedEvent): Promise<void> {
    this.#accepted++;
    this.#lastEventAt = this.#ctx.clock.now();
    for (const l of this.#received) {
      try {
        l(e);
      } catch (err) {
        this.#ctx.log.warn('live: an event listener failed', { error: errorText(err) });
      }
    }
    this.#board.push();
    return e.event && e.known ? Promise.resolve(this.#deps.onEvent(e.event)) : Promise.resolve();
  }

  /** The workspace reads a team relay, or the poll alone: no listener runs. */
  async #openOther(): Promise<boolean> {
    const source = liveSource(this.#ctx);
    if (source.kind === 'listener') return false;
    if (source.kind === 'relay') {
      this.#relay = openRelayLink(this.#ctx, source.relay, {
        deliver: (e) => this.#receive(e),
        onChange: () => this.#board.push(),
        onBack: () => void this.#resync(),
      });
      this.#detail = this.#relay ? null : "The team relay's password or token is not kept on this computer; give it again in the settings.";
    }
    this.#state = 'running';
    this.#board.push();
    await this.#resync();
    return true;
  }

  /** Starts the listener on the port asked for (with "any free port", the last one first); null and why when none could. */
  async #startListener(signingSecret: string | undefined): Promise<{ listener: WebhookListener | null; failure: unknown }> {
    const ctx = this.#ctx;
    const asked = ctx.settings.get(PORT_SETTING);
    const pathSecret = listenerKey(ctx, SECRET_PATH, newPathSecret);
    // Part of the address the user copies to the service: shown on the page, never logged.
    showSecretOnPage(pathSecret);
    // With "any free port", the port of the last listener comes first, so the address stays (across restarts too).
    const lastPort = ctx.settings.get(LAST_PORT_SETTING);
    const ports = asked === 0 && lastPort !== null ? [lastPort, 0] : [asked];
    let failure: unknown = null;
    for (const port of ports) {
      try {
        const listener = await startWebhookListener({
          port,
          pathSecret,
          ...(signingSecret ? { signingSecret } : {}),
          stateDir: join(ctx.profileDir, 'webhooks'),
          log: this.#tally.logger,
          // The listener hands events on without waiting: the sync's failures are its own to report.
          onEvent: (e) => void this.#receive(e).catch(() => undefined),
          files: this.#files,
        });
        if (asked === 0 && listener.port !== lastPort) ctx.settings.set(LAST_PORT_SETTING, listener.port);
        return { listener, failure: null };
      } catch (e) {
        failure = e;
      }
    }
    return { listener: null, failure };
  }

  async #open(): Promise<void> {
    if (this.#listener || this.#relay || !this.#ctx.hasWorkspace()) return;
    if (await this.#openOther()) return;
    const signingSecret = this.#signingOn() ? listenerKey(this.#ctx, SECRET_SIGNING, newSigningSecret) : undefined;
    const { listener, failure } = await this.#startListener(signingSecret);
    this.#listener = listener;
    if (!listener) {
      this.#state = 'failed';
      this.#detail = toErrorInfo(failure).message;
      this.#board.push();
      return;
    }
    // A tunnel that cannot rewrite Host keeps forwarding to the same port after a restart.
    if (this.#publicUrl) listener.allowHost(new URL(this.#publicUrl).host);
    this.#detail = null;
    await this.#registerOrWait(listener, signingSecret);
    // "Live" only once the service knows where to send events: before that nothing can arrive.
    this.#state = 'running';
    this.#board.push();
    // Whatever happened while no listener ran is read now, from each high-water mark.
    await this.#resync();
  }

  /** Registers the listener; told to wait, registers it again once the wait the service asked for is over, not sooner. */
  async #registerOrWait(l: WebhookListener, signingSecret: string | undefined): Promise<void> {
    try {
      await this.#hook.register(l, this.#publicUrl, signingSecret);
    } catch (e) {
      this.#detail = `Live updates could not be registered with the demo workspace (${errorText(e)}).`;
      const asked = askedWaitMs(e);
      if (asked === null) return;
      this.#detail = `Live updates are not registered yet: the service asked us to wait until ${new Date(this.#ctx.clock.now() + asked).toISOString()}. The console registers them then.`;
      setTimeout(() => {
        if (this.#listener !== l || this.#hook.registered) return;
        this.#hook.register(l, this.#publicUrl, signingSecret).then(
          () => {
            this.#detail = null;
            this.#board.push();
          },
          (again: unknown) => {
            this.#detail = `Live updates could not be registered with the demo workspace (${errorText(again)}).`;
            this.#board.push();
          },
        );
      }, asked).unref();
    }
  }

  async #close(): Promise<void> {
    const r = this.#relay;
    this.#relay = null;
    await r?.close();
    await this.#hook.unregister();
    const l = this.#listener;
    this.#listener = null;
    if (!l) return;
    await l.close();
    this.#tally.closed(l);
  }

  #serial(f: () => Promise<void>): Promise<void> {
    this.#changing = this.#changing.then(f, f);
    return this.#changing;
  }

  /** After a settings change: a running or failed listener starts again with the new settings. */
  async #reopen(): Promise<void> {
    if (this.#state !== 'running' && this.#state !== 'failed') return;
    await this.#close();
    this.#state = 'idle';
    await this.#open();
  }

  /**
   * The sign-in's events are set up behind its start (the one before it stopped its own, its hook
   * removed while its service still ran): its views do not wait for the listener, the hook's
   * registration and the catch-up read, and at launch neither does the page's first view. Its
   * status says when events flow.
   */
  #openBehindFirstView(): void {
    const ctx = this.#ctx;
    this.#state = ctx.hasWorkspace() && ctx.settings.get(PAUSED_SETTING) ? 'stopped' : 'idle';
    this.#board.push();
    if (!ctx.hasWorkspace() || ctx.settings.get(PAUSED_SETTING)) return;
    void ctx.firstView.shown
      .then(() =>
        this.#serial(async () => {
          // Asked again: the workspace may have closed, been paused or stopped meanwhile.
          if (this.#stopped || !ctx.hasWorkspace() || ctx.settings.get(PAUSED_SETTING)) return;
          await this.#open();
          this.#board.push();
        }),
      )
      .catch((e: unknown) => ctx.log.error('live: could not start for the workspace', { error: errorText(e) }));
  }

  get listener(): WebhookListener | null {
    return this.#listener;
  }

  eventLog(filter?: EventLogFilter): EventLogEntry[] {
    return this.#listener?.eventLog(filter) ?? this.#relay?.eventLog(filter) ?? [];
  }

  get state(): LiveStatus['state'] {
    return this.#state;
  }

  get detail(): string | null {
    return this.#detail;
  }

  get eventsFlow(): boolean {
    return this.#eventsFlow();
  }

  get registered(): boolean {
    return this.#hook.registered;
  }

  get signing(): boolean {
    return this.#signingOn();
  }

  get portSetting(): number {
    return this.#ctx.settings.get(PORT_SETTING);
  }

  get signingSecret(): string | undefined {
    return this.#listener?.signatureMode === 'required' ? (this.#ctx.vault.get(SECRET_SIGNING) ?? undefined) : undefined;
  }

  async setPublicUrl(url: string | null): Promise<void> {
    await this.#serial(async () => {
      const changed = url !== this.#publicUrl;
      this.#publicUrl = url;
      const l = this.#listener;
      if (!l || !this.#ctx.isDemo() || (!changed && this.#hook.registered)) return;
      await this.#hook.unregister();
      try {
        await this.#hook.register(
          l,
          this.#publicUrl,
          this.#signingOn() ? listenerKey(this.#ctx, SECRET_SIGNING, newSigningSecret) : undefined,
        );
        this.#detail = null;
      } catch (e) {
        this.#detail = `Live updates could not be registered with the demo workspace (${errorText(e)}).`;
      }
    });
    await this.#resync();
  }

  /** Where the service can read a lent file now, or why it cannot (the one rule for lending and for saying so early). */
  #lendCheck(): { problem: LendProblem | null; origin: string | null } {
    const l = this.#listener;
    if (!l) return { problem: liveSource(this.#ctx).kind === 'relay' ? 'relay' : 'listenerOff', origin: null };
    const origin = fileOrigin({
      publicUrl: this.#publicUrl,
      listenerPath: l.path,
      listenerPort: l.port,
      serviceBaseUrl: this.#ctx.client().baseUrl,
    });
    return { problem: origin ? null : 'noPublicAddress', origin };
  }

  lendProblem(): LendProblem | null {
    return this.#lendCheck().problem;
  }

  shareFile(name: string, bytes: Buffer, o?: LendOptions): LentFile {
    const { problem, origin } = this.#lendCheck();
    if (problem || !origin) throw lendError(problem ?? 'noPublicAddress');
    try {
      const path = this.#files.offer(name, bytes, o);
      return { url: `${origin}${path}`, withdraw: () => this.#files.withdraw(path) };
    } catch (e) {
      throw new AppError({ kind: 'Invalid', field: 'file', message: errorText(e) });
    }
  }

  onWake(listener: () => void): () => void {
    return this.#sleep.onWake(listener);
  }

  counts(): ListenerCounts {
    return this.#tally.counts(this.#listener);
  }

  refusals(): Refusals {
    return this.#tally.refusals();
  }

  onReceived(listener: (e: ReceivedEvent) => void): () => void {
    this.#received.add(listener);
    return () => this.#received.delete(listener);
  }

  onChange(listener: () => void): () => void {
    return this.#board.onChange(listener);
  }

  async setPort(port: number): Promise<void> {
    await this.#serial(async () => {
      this.#ctx.settings.set(PORT_SETTING, port);
      // An explicit choice replaces the remembered free port.
      this.#ctx.settings.delete(LAST_PORT_SETTING);
      await this.#reopen();
    });
    this.#board.push();
  }

  async setSigning(enabled: boolean): Promise<string | null> {
    let fresh: string | null = null;
    await this.#serial(async () => {
      this.#ctx.settings.set(SIGNING_SETTING, enabled);
      if (enabled) {
        fresh = newSigningSecret();
        keepListenerKey(this.#ctx, SECRET_SIGNING, fresh);
        this.#ctx.registerSecret(fresh);
      }
      await this.#reopen();
    });
    this.#board.push();
    return fresh;
  }

  #handlers(): LiveFeature['handlers'] {
    const ctx = this.#ctx;
    return {
      'live:status': async () => this.#status(),
      'live:setRunning': async ({ running }) => {
        await this.#serial(async () => {
          ctx.settings.set(PAUSED_SETTING, !running);
          if (running) await this.#open();
          else {
            await this.#close();
            this.#state = 'stopped';
          }
        });
        this.#board.push();
        return this.#status();
      },
      'live:resync': async () => {
        await this.#resync();
        return this.#status();
      },
      'live:source': async () => sourceStatus(ctx),
      'live:serviceTime': async () => serviceTimeStatus(ctx),
      'live:setServiceZone': async ({ zone }) => setServiceZone(ctx, zone),
      'live:setSource': async ({ source, secret }) => {
        await this.#serial(async () => {
          saveSource(ctx, source, secret, (name, value) => keepListenerKey(ctx, name, value));
          // The new source starts now; paused, it starts when live updates resume.
          const on = this.#state === 'running' || this.#state === 'failed';
          await this.#close();
          if (!on) return;
          this.#state = 'idle';
          this.#detail = null;
          await this.#open();
        });
        this.#board.push();
        return sourceStatus(ctx);
      },
    };
  }

  async start(): Promise<void> {
    this.#poll.start();
    this.#sleep.start();
    this.#openBehindFirstView();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#poll.stop();
    this.#sleep.stop();
    this.#board.dispose();
    await this.#serial(() => this.#close()).catch((e: unknown) => {
      if (!isAppError(e)) this.#ctx.log.warn('live: close failed', { error: errorText(e) });
    });
  }
}
