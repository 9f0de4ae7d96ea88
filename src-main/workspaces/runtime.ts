import type { Workspace } from '../../src-shared/bridge';
import type { QueueItem } from '../../src-shared/bridge/attendance';
import type { Mention } from '../../src-shared/bridge/notes';
import { AppError, isAppError, toErrorInfo, type ErrorInfo } from '../../src-shared/errors';
import { EventHub, type HandlerTable } from '../bridge/table';
import { Vault } from '../vault/vault';
import type { KeyValueStore, SecretCipher } from '../vault/types';
import { createServiceClient, type ServiceClient } from '../service';
import { ServiceTime } from '../service/service-time';
import type { QueueFeature } from '../features/attendance/queue';
import type { Logger } from '../log';
import type { FeatureContext } from '../features/context';
import { createSettings, layeredSettings, type Settings } from '../settings';
import type { WorkspaceChannel } from './routing';
import { CHANNEL_NAMES } from '../../src-shared/bridge';
import { adoptAccountFiles, SignIn, type Session, type UserRef, type WorkspaceContext } from './sign-in';
import { errorText } from '../../src-shared/error-text';
import type { Clock } from '../clock';

export type { UserRef } from './sign-in';

/** What the composition root hands one workspace: its own folder and stores, the shared rest. */
export interface RuntimeAdapters {
  id: string;
  /** The workspace's own folder: its outbox, drafts, offline copies, listener state, stores. */
  dir: string;
  cipher: SecretCipher;
  /** A store in the workspace's folder. */
  openStore: (name: string) => KeyValueStore;
  /** The console's settings (language, shortcuts, voice); the rest are the workspace's own. */
  globalSettings: Settings;
  log: Logger;
  /** The platform's clock (src-main/clock.ts). */
  clock: Clock;
  registerSecret: (secret: string) => void;
  /** The page's first view on screen (see `FeatureContext.firstView`). */
  firstView: FeatureContext['firstView'];
  /** The service refused this workspace's token, or who is signed in changed. */
  onStateChange(): void;
  /** The workspace's features, built by the composition root for each sign-in's context. */
  features(ctx: FeatureContext): WorkspaceFeatures;
}

/** A workspace's features, as the composition root (app.ts) builds them. */
export interface WorkspaceFeatures {
  /** In start order; they stop in the reverse. */
  features: Array<{ start?(): Promise<void>; stop?(): Promise<void> }>;
  handlers: FeatureHandlers;
  /** The queue, which "Needs me" reads in every workspace. */
  queue: QueueFeature;
  /** Colleagues' notes mentioning the attendant, not yet opened ("Needs me" lists them). */
  mentions(): Mention[];
}

/** The feature channels: every channel but the workspace ones, served per workspace. */
export type FeatureHandlers = Omit<HandlerTable, WorkspaceChannel>;

/**
 * One workspace at work: its token in its own vault, and the sign-in of whoever is signed in
 * there: a service client and every feature of the main process with its own outbox, drafts,
 * offline copies, listener and live state, made anew for each person (`sign-in.ts`). Several
 * run side by side; the console routes each bridge call to the workspace it names.
 */
export interface WorkspaceRuntime {
  readonly id: string;
  readonly events: EventHub;
  readonly vault: Vault;
  readonly handlers: FeatureHandlers;
  readonly workspace: Workspace | null;
  readonly baseUrl: string | null;
  readonly user: UserRef | null;
  /** Which sign-in this is (see `WorkspaceInfo.signIn`). */
  readonly signInCount: number;
  /** Signed in and its token not refused. */
  readonly signedIn: boolean;
  start(): Promise<void>;
  /** Who the attendant was in this workspace, as last chosen. */
  storedUser(): UserRef | null;
  /**
   * Opens the workspace on a service, its token already in the vault, or put there by `connect`:
   * then every call to the service waits for it first (the caller runs it once, and again only
   * after a failure).
   */
  open(workspace: Workspace, baseUrl: string, user: UserRef | null, o?: { connect?: () => Promise<void> }): Promise<void>;
  setUser(user: UserRef): Promise<void>;
  /** The sessions not closed, as the queue holds them (read on first use). */
  queueItems(): Iterable<QueueItem>;
  /** Reads the queue when nobody has yet (a workspace in the background still counts); false when it could not. */
  loadQueue(): Promise<boolean>;
  readonly queueLoaded: boolean;
  /** Why the queue could not be read for the workspace list (null when it was, or was not tried). */
  readonly queueError: ErrorInfo | null;
  /** Colleagues' notes mentioning the attendant signed in, not yet opened. */
  mentions(): Mention[];
  /** Ends the sign-in: its features stop, the listener's registration removed through its client. */
  stop(): Promise<void>;
}

/** Every line a workspace logs says which workspace it is. */
function tagged(log: Logger, fields: Record<string, unknown>): Logger {
  return {
    debug: (m, f) => log.debug(m, { ...fields, ...f }),
    info: (m, f) => log.info(m, { ...fields, ...f }),
    warn: (m, f) => log.warn(m, { ...fields, ...f }),
    error: (m, f) => log.error(m, { ...fields, ...f }),
  };
}

export function createWorkspaceRuntime(a: RuntimeAdapters): WorkspaceRuntime {
  return new Runtime(a);
}

/** Tells the features when the zone the service's date-times are read in changed. */
class ZoneListeners {
  readonly #listeners = new Set<() => void | Promise<void>>();
  constructor(readonly log: Logger) {}

  add(l: () => void | Promise<void>): () => void {
    this.#listeners.add(l);
    return () => void this.#listeners.delete(l);
  }

  changed(): void {
    for (const l of this.#listeners)
      void Promise.resolve()
        .then(l)
        .catch((e: unknown) => this.log.warn('service zone listener failed', { error: errorText(e) }));
  }
}

/** A sign-in's service client, on the workspace's vault, settings and log. */
function makeClient(
  w: { vault: Vault; settings: Settings; log: Logger; zone: ZoneListeners; onStateChange(): void },
  baseUrl: string,
  connect: (() => Promise<void>) | undefined,
): ServiceClient {
  // The token this sign-in was made with: a token put in the vault for the next one never
  // serves this one's calls still running.
  let token: string | null = null;
  return createServiceClient({
    baseUrl,
    getToken: async () => {
      await connect?.().catch((e: unknown) => {
        // Refused by the opener itself (its service moved): said as it said it.
        if (isAppError(e)) throw e;
        throw new AppError({
          kind: 'Unavailable',
          message: `The service of this workspace could not be started: ${errorText(e)}`,
        });
      });
      token ??= w.vault.get('token');
      return token;
    },
    log: w.log,
    serviceTime: serviceTimeFor(w, baseUrl),
    onUnauthorized: () => {
      w.vault.markRefused();
      w.onStateChange();
    },
  });
}

/** The service's date-times, learned once per service and kept for the next start. */
function serviceTimeFor(w: { settings: Settings; log: Logger; zone: ZoneListeners }, baseUrl: string): ServiceTime {
  const kept = w.settings.get('serviceTimeLearned');
  return new ServiceTime({
    configured: () => w.settings.get('serviceZone'),
    learned: kept?.baseUrl === baseUrl ? { offsetMinutes: kept.offsetMinutes, wallTime: kept.wallTime } : null,
    onLearned: (l) => w.settings.set('serviceTimeLearned', { baseUrl, ...l }),
    onZoneChange: () => w.zone.changed(),
    log: w.log,
  });
}

class Runtime implements WorkspaceRuntime {
  readonly #a: RuntimeAdapters;
  readonly id: string;
  readonly events = new EventHub();
  readonly vault: Vault;
  readonly handlers: FeatureHandlers;
  readonly #settings: Settings;
  readonly #log: Logger;
  readonly #zone: ZoneListeners;
  readonly #base: WorkspaceContext;
  /** The sign-in now (nobody signed in yet: made when a call first needs one). */
  #signIn: SignIn<WorkspaceFeatures> | null = null;
  #signIns = 0;
  #stopped = false;
  /** Sign-ins change one at a time: one ends before the next is made. */
  #changing: Promise<unknown> = Promise.resolve();

  constructor(a: RuntimeAdapters) {
    this.#a = a;
    this.id = a.id;
    this.#settings = layeredSettings(a.globalSettings, createSettings(a.openStore('settings'), a.log));
    this.vault = new Vault(a.cipher, a.openStore('vault'));
    this.#log = tagged(a.log, { workspace: a.id });
    // What the account last signed in here wrote before accounts had folders is that account's.
    adoptAccountFiles(a.dir, this.#settings.get('user'));
    const zone = (this.#zone = new ZoneListeners(this.#log));
    this.#base = {
      log: this.#log,
      clock: a.clock,
      profileDir: a.dir,
      vault: this.vault,
      settings: this.#settings,
      registerSecret: a.registerSecret,
      firstView: a.firstView,
      onServiceZoneChange: (l) => zone.add(l),
      serviceZoneChanged: () => zone.changed(),
    };
    this.handlers = this.#routes();
  }

  #serial<T>(f: () => Promise<T>): Promise<T> {
    const next = this.#changing.then(f, f);
    this.#changing = next.catch(() => undefined);
    return next;
  }

  /** The sign-in there is; nobody signed in yet: the features of nobody, started on first use. */
  #current(): SignIn<WorkspaceFeatures> {
    if (this.#signIn) return this.#signIn;
    const nobody = new SignIn({ session: null, base: this.#base, relay: this.events, build: (ctx) => this.#a.features(ctx) });
    this.#signIn = nobody;
    nobody.start().catch((e: unknown) => this.#log.error('the features did not start', { error: errorText(e) }));
    return nobody;
  }

  /** Ends the sign-in there is and starts one for `session` (null: signed out). */
  #signInAs(session: Session | null): Promise<void> {
    return this.#serial(async () => {
      await this.#signIn?.end(this.#log);
      this.#signIn = null;
      if (this.#stopped) {
        await session?.client.close();
        return;
      }
      const next = new SignIn({ session, base: this.#base, relay: this.events, build: (ctx) => this.#a.features(ctx) });
      this.#signIn = next;
      this.#signIns++;
      this.#a.onStateChange();
      await next.start();
    });
  }

  #client(baseUrl: string, connect: (() => Promise<void>) | undefined): ServiceClient {
    const w = {
      vault: this.vault,
      settings: this.#settings,
      log: this.#log,
      zone: this.#zone,
      onStateChange: () => this.#a.onStateChange(),
    };
    return makeClient(w, baseUrl, connect);
  }

  /**
   * Every feature channel goes to the sign-in there is when it is called; an answer that comes
   * after that person signed out, or someone else signed in, is refused (it is theirs only).
   */
  #routes(): FeatureHandlers {
    const handlers = {} as Record<string, (input: unknown) => Promise<unknown>>;
    for (const name of CHANNEL_NAMES) {
      if (name.startsWith('workspace:')) continue;
      handlers[name] = async (input) => {
        // Closed: nothing is made again for a call that came late.
        if (this.#stopped) throw new AppError({ kind: 'Cancelled', message: 'This workspace has closed; nothing was sent.' });
        const at = this.#current();
        await at.ready;
        const answer = await (at.features.handlers as unknown as typeof handlers)[name]!(input);
        if (!at.current)
          throw new AppError({ kind: 'Cancelled', message: 'Signed out, or someone else signed in: this answer was theirs.' });
        return answer;
      };
    }
    return handlers as unknown as FeatureHandlers;
  }

  get workspace(): Workspace | null {
    return this.#signIn?.session?.workspace ?? null;
  }

  get baseUrl(): string | null {
    return this.#signIn?.session?.baseUrl ?? null;
  }

  get user(): UserRef | null {
    return this.#signIn?.session?.user ?? null;
  }

  get signInCount(): number {
    return this.#signIns;
  }

  get signedIn(): boolean {
    return !!this.#signIn?.session && !this.vault.tokenRefused;
  }

  async start(): Promise<void> {
    // Nothing to start until someone signs in (or a call needs the signed-out features).
  }

  async open(workspace: Workspace, baseUrl: string, user: UserRef | null, o: { connect?: () => Promise<void> } = {}): Promise<void> {
    if (user) this.#settings.set('user', user);
    else this.#settings.delete('user');
    await this.#signInAs({ workspace, baseUrl, user, client: this.#client(baseUrl, o.connect), connect: o.connect });
  }

  async setUser(user: UserRef): Promise<void> {
    const was = this.#signIn?.session;
    if (!was) throw new AppError({ kind: 'Unauthorized', message: 'Open a workspace first.' });
    this.#settings.set('user', user);
    // Another person is another sign-in: nothing the features held for the one before stays.
    await this.#signInAs({ ...was, user, client: this.#client(was.baseUrl, was.connect) });
  }

  storedUser(): UserRef | null {
    return this.#settings.get('user');
  }

  queueItems(): Iterable<QueueItem> {
    return this.#signIn?.features.queue.items() ?? [];
  }

  mentions(): Mention[] {
    return this.#signIn?.features.mentions() ?? [];
  }

  get queueLoaded(): boolean {
    return this.#signIn?.features.queue.loaded ?? false;
  }

  get queueError(): ErrorInfo | null {
    return this.#signIn?.queueError ?? null;
  }

  loadQueue(): Promise<boolean> {
    const at = this.#signIn;
    if (!at?.session || this.#stopped) return Promise.resolve(false);
    at.queueRead ??= at.ready
      .then(() => at.features.handlers['attendance:queue']({}))
      // The first answer may be the copy kept from the last run, which lists nothing here: the
      // service's answer is waited for (its failure is told, not taken for an empty queue).
      .then(() => (at.features.queue.loaded ? undefined : at.features.handlers['attendance:queue']({})))
      .then(
        () => {
          at.queueError = null;
          // The groups' SLAs, for sessions whose records name their group without it (read once).
          void at.features.handlers['attendance:directory']({}).catch(() => undefined);
          return true;
        },
        (e: unknown) => {
          at.queueRead = null;
          at.queueError = toErrorInfo(e);
          this.#log.warn('queue not read for the workspace list', { error: errorText(e) });
          return false;
        },
      );
    return at.queueRead;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#serial(async () => {
      await this.#signIn?.end(this.#log);
      this.#signIn = null;
    });
  }
}
