import type { Workspace } from '../../src-shared/bridge';
import type { QueueItem } from '../../src-shared/bridge/attendance';
import { AppError, isAppError } from '../../src-shared/errors';
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

export type UserRef = { userName: string; name: string };

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
  registerSecret: (secret: string) => void;
  /** The page's first view on screen (see `FeatureContext.firstView`). */
  firstView: FeatureContext['firstView'];
  /** The service refused this workspace's token, or who is signed in changed. */
  onStateChange(): void;
  /** The workspace's features, built for its context by the composition root. */
  features(ctx: FeatureContext): WorkspaceFeatures;
}

/** A workspace's features, as the composition root (app.ts) builds them. */
export interface WorkspaceFeatures {
  /** In start order; they stop in the reverse. */
  features: Array<{ start?(): Promise<void>; stop?(): Promise<void> }>;
  handlers: FeatureHandlers;
  /** The queue, which "Needs me" reads in every workspace. */
  queue: QueueFeature;
}

interface Session {
  workspace: Workspace;
  baseUrl: string;
  client: ServiceClient;
  user: UserRef | null;
}

/** The feature channels: every channel but the workspace ones, served per workspace. */
export type FeatureHandlers = Omit<HandlerTable, WorkspaceChannel>;

/**
 * One workspace at work: a service client, its token in its own vault, and every feature of the
 * main process with its own outbox, drafts, offline copies, listener and live state. Several run
 * side by side; the console routes each bridge call to the workspace it names.
 */
export interface WorkspaceRuntime {
  readonly id: string;
  readonly events: EventHub;
  readonly vault: Vault;
  readonly handlers: FeatureHandlers;
  readonly workspace: Workspace | null;
  readonly baseUrl: string | null;
  readonly user: UserRef | null;
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
  /** Stops every feature; `forget` also ends the session first (listener registration, etc.). */
  stop(o?: { forget?: boolean }): Promise<void>;
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
  const settings = layeredSettings(a.globalSettings, createSettings(a.openStore('settings'), a.log));
  const vault = new Vault(a.cipher, a.openStore('vault'));
  const events = new EventHub();
  const log = tagged(a.log, { workspace: a.id });
  let current: Session | null = null;
  const workspaceListeners = new Set<() => void | Promise<void>>();
  const workspaceChanged = async () => {
    for (const l of workspaceListeners) {
      try {
        await l();
      } catch (e) {
        log.error('workspace listener failed', { error: e instanceof Error ? e.message : String(e) });
      }
    }
  };

  const zoneListeners = new Set<() => void | Promise<void>>();
  const zoneChanged = () => {
    for (const l of zoneListeners)
      void Promise.resolve()
        .then(l)
        .catch((e: unknown) => log.warn('service zone listener failed', { error: e instanceof Error ? e.message : String(e) }));
  };

  const ctx: FeatureContext = {
    log,
    events,
    profileDir: a.dir,
    vault,
    settings,
    client: () => {
      if (!current) throw new AppError({ kind: 'Unauthorized', message: 'Open a workspace first.' });
      return current.client;
    },
    hasWorkspace: () => current !== null,
    me: () => current?.user ?? null,
    isDemo: () => current?.workspace.kind === 'demo',
    onWorkspaceChange: (l) => {
      workspaceListeners.add(l);
      return () => workspaceListeners.delete(l);
    },
    onServiceZoneChange: (l) => {
      zoneListeners.add(l);
      return () => zoneListeners.delete(l);
    },
    serviceZoneChanged: zoneChanged,
    registerSecret: a.registerSecret,
    firstView: a.firstView,
  };
  const { features, handlers, queue } = a.features(ctx);

  const makeClient = (baseUrl: string, connect: (() => Promise<void>) | undefined): ServiceClient =>
    createServiceClient({
      baseUrl,
      getToken: async () => {
        await connect?.().catch((e: unknown) => {
          // Refused by the opener itself (its service moved): said as it said it.
          if (isAppError(e)) throw e;
          throw new AppError({
            kind: 'Unavailable',
            message: `The service of this workspace could not be started: ${e instanceof Error ? e.message : String(e)}`,
          });
        });
        return vault.get('token');
      },
      log,
      serviceTime: serviceTimeFor(baseUrl),
      onUnauthorized: () => {
        vault.markRefused();
        a.onStateChange();
      },
    });

  /** The service's date-times, learned once per service and kept for the next start. */
  const serviceTimeFor = (baseUrl: string): ServiceTime => {
    const kept = settings.get('serviceTimeLearned');
    return new ServiceTime({
      configured: () => settings.get('serviceZone'),
      learned: kept?.baseUrl === baseUrl ? { offsetMinutes: kept.offsetMinutes, wallTime: kept.wallTime } : null,
      onLearned: (l) => settings.set('serviceTimeLearned', { baseUrl, ...l }),
      onZoneChange: zoneChanged,
      log,
    });
  };

  let queueRead: Promise<boolean> | null = null;
  let stopped = false;

  return {
    id: a.id,
    events,
    vault,
    handlers,
    get workspace() {
      return current?.workspace ?? null;
    },
    get baseUrl() {
      return current?.baseUrl ?? null;
    },
    get user() {
      return current?.user ?? null;
    },
    get signedIn() {
      return current !== null && !vault.tokenRefused;
    },
    async start() {
      for (const f of features) await f.start?.();
    },
    async open(workspace, baseUrl, user, o = {}) {
      await current?.client.close();
      current = { workspace, baseUrl, user, client: makeClient(baseUrl, o.connect) };
      queueRead = null;
      if (user) settings.set('user', user);
      a.onStateChange();
      await workspaceChanged();
    },
    async setUser(user) {
      if (!current) throw new AppError({ kind: 'Unauthorized', message: 'Open a workspace first.' });
      current.user = user;
      settings.set('user', user);
      queueRead = null;
      a.onStateChange();
      await workspaceChanged();
    },
    storedUser: () => settings.get('user'),
    queueItems: () => queue.items(),
    get queueLoaded() {
      return queue.loaded;
    },
    loadQueue() {
      if (!current || stopped) return Promise.resolve(false);
      queueRead ??= handlers['attendance:queue']({}).then(
        () => {
          // The groups' SLAs, for sessions whose records name their group without it (read once).
          void handlers['attendance:directory']({}).catch(() => undefined);
          return true;
        },
        (e: unknown) => {
          queueRead = null;
          log.warn('queue not read for the workspace list', { error: e instanceof Error ? e.message : String(e) });
          return false;
        },
      );
      return queueRead;
    },
    async stop(o = {}) {
      stopped = true;
      if (o.forget && current) {
        // The session ends first; its client closes once the features have let go of the service
        // with it (the listener's registration is removed through it).
        const ending = current.client;
        current = null;
        await workspaceChanged();
        await ending.close();
      }
      for (const f of [...features].reverse()) await f.stop?.();
      await current?.client.close();
      current = null;
    },
  };
}
