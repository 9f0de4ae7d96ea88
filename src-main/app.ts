import type { AppState, DemoPersona, Workspace } from '../src-shared/bridge';
import { AppError, isAppError } from '../src-shared/errors';
import { personOf, record, text } from '../src-shared/concepts';
import { EventHub, type HandlerTable } from './bridge/table';
import { Vault } from './vault/vault';
import type { KeyValueStore, SecretCipher } from './vault/types';
import { createServiceClient, type ServiceClient } from './service';
import { createQueueFeature } from './features/attendance/queue';
import { createNotesFeature } from './features/notes';
import { createAttendanceFeature } from './features/attendance';
import { createLiveFeature } from './features/live';
import type { POLL_PACE } from './features/live/poll-pace';
import { createWebhooksFeature } from './features/webhooks';
import { createSupervisorFeature } from './features/supervisor';
import { createVoiceFeature, mediaPermission } from './features/voice';
import { createOfflineFeature } from './features/offline';
import { createPaletteFeature } from './features/palette';
import type { Logger } from './log';
import type { Standin } from '../src-standin/index';
import { startStandinWorker } from '../src-standin/worker-host';
import { demoStandinOptions } from './demo-standin';
import type { FeatureContext } from './features/context';
import { createSettings } from './settings';
import { isNetworkError } from './cache';

/** What a platform (Electron, or the plain-Node host) hands the composition root. */
export interface PlatformAdapters {
  profileDir: string;
  cipher: SecretCipher;
  openStore(name: string): KeyValueStore;
  locale: string;
  log: Logger;
  /** Registers a secret with the log redactor so it can never be written in clear. */
  registerSecret(secret: string): void;
  /**
   * The demo stand-in, already starting (the platform saw the demo workspace remembered and
   * started it while the rest loaded); used for the first opening of the demo workspace.
   */
  demoStandin?: Promise<Standin>;
  /** Where pushed events go, when the platform made it before the app (to serve the page early). */
  events?: EventHub;
  /** The safety-net poll's pace; benchmarks run it faster to count its requests per minute. */
  pollPace?: typeof POLL_PACE;
}

export interface ConsoleApp {
  handlers: HandlerTable;
  events: EventHub;
  start(): Promise<void>;
  close(): Promise<void>;
  /** For tests and the host banner: the demo stand-in, when it runs. */
  readonly standin: Standin | null;
}

interface Session {
  workspace: Workspace;
  baseUrl: string;
  client: ServiceClient;
  user: { userName: string; name: string } | null;
}

/**
 * The one composition root: builds every main-process service from the platform's adapters and
 * returns the bridge's handler table. Electron and the web host differ only in what they pass in.
 */
export function createApp(p: PlatformAdapters): ConsoleApp {
  const settings = createSettings(p.openStore('settings'), p.log);
  const vault = new Vault(p.cipher, p.openStore('vault'));
  const events = p.events ?? new EventHub();
  let standin: Standin | null = null;
  let earlyStandin = p.demoStandin ?? null;
  let current: Session | null = null;
  const workspaceListeners = new Set<() => void | Promise<void>>();
  const workspaceChanged = async () => {
    for (const l of workspaceListeners) {
      try {
        await l();
      } catch (e) {
        p.log.error('workspace listener failed', { error: e instanceof Error ? e.message : String(e) });
      }
    }
  };

  const ctx: FeatureContext = {
    log: p.log,
    events,
    profileDir: p.profileDir,
    vault,
    settings,
    client: () => {
      if (!current) throw new AppError({ kind: 'Unauthorized', message: 'Open a workspace first.' });
      return current.client;
    },
    hasWorkspace: () => current !== null,
    me: () => current?.user ?? null,
    standin: () => standin,
    isDemo: () => current?.workspace.kind === 'demo' && standin !== null,
    onWorkspaceChange: (l) => {
      workspaceListeners.add(l);
      return () => workspaceListeners.delete(l);
    },
    registerSecret: p.registerSecret,
  };
  // Features: each serves its slice of the bridge; add new ones here and in `handlers` below.
  const offline = createOfflineFeature(ctx);
  const queue = createQueueFeature(ctx, offline);
  const notes = createNotesFeature(ctx, offline);
  const attendance = createAttendanceFeature(ctx, { queue, notes, offline });
  const voice = createVoiceFeature(ctx, { permission: mediaPermission, locale: p.locale });
  const live = createLiveFeature(ctx, {
    onEvent: (e) => { attendance.onEvent(e); voice.onEvent(e); },
    onResync: () => attendance.resync(),
    ...(p.pollPace ? { pollPace: p.pollPace } : {}),
  });
  // Back from sleep: the network may have changed under us, so ask the service now if offline.
  live.onWake(() => {
    if (offline.monitor.offline) void offline.monitor.probeNow();
  });
  const webhooks = createWebhooksFeature(ctx, live);
  const supervisor = createSupervisorFeature(ctx, { shareFile: (name, bytes) => live.shareFile(name, bytes) });
  const palette = createPaletteFeature(ctx);
  const features: Array<{ start?(): Promise<void>; stop?(): Promise<void> }> = [offline, queue, notes, attendance, live, webhooks, supervisor, voice, palette];

  const storedWorkspace = (): Workspace | null => {
    return settings.get('workspace');
  };

  const state = (): AppState => ({
    workspace: current?.workspace ?? storedWorkspace(),
    baseUrl: current?.baseUrl ?? null,
    signedIn: current !== null && !vault.tokenRefused,
    tokenRefused: vault.tokenRefused,
    vault: { state: vault.state, detail: vault.detail },
    user: current?.user ?? null,
    locale: p.locale,
  });
  const pushState = () => events.emit('workspace:state', state());

  /** `probe`: a candidate token being checked; its refusal must not mark the stored one. */
  const makeClient = (baseUrl: string, getToken: () => Promise<string | null>, probe = false) =>
    createServiceClient({
      baseUrl,
      getToken,
      log: p.log,
      ...(probe
        ? {}
        : {
            onUnauthorized: () => {
              vault.markRefused();
              pushState();
            },
          }),
    });

  /** A cheap call that any role may make: proves the address answers and the token is taken. */
  async function checkAccess(client: ServiceClient): Promise<void> {
    await client.resource('userSession').list({ conditions: [], sort: false, page: 0, size: 1 });
  }

  async function ensureStandin(): Promise<Standin> {
    if (!standin) {
      // In a worker thread: the stand-in's slowest query must not hold the console's own thread.
      const early = earlyStandin;
      earlyStandin = null;
      standin = await (early ?? startStandinWorker(demoStandinOptions(p.profileDir), { onExit: (reason) => p.log.error('demo workspace stopped', { reason }) }));
      p.log.info('demo workspace started', { baseUrl: standin.baseUrl });
    }
    return standin;
  }

  /** The demo workspace, seen as its attendant (the default) or as the operation's supervisor. */
  async function openDemo(as: DemoPersona = 'agent'): Promise<AppState> {
    const sb = await ensureStandin();
    const token = as === 'supervisor' ? sb.tokens.supervisor : sb.tokens.agent;
    const who = as === 'supervisor' ? sb.demoSupervisor : sb.demoAgent;
    p.registerSecret(token);
    // The demo token is a local stand-in's, regenerated with it: memory only, never stored.
    vault.put('token', token, { persist: false });
    await replaceSession({ kind: 'demo', as }, sb.baseUrl, { userName: who.userName, name: who.name });
    return state();
  }

  async function replaceSession(workspace: Workspace, baseUrl: string, user: Session['user']): Promise<void> {
    await current?.client.close();
    current = { workspace, baseUrl, user, client: makeClient(baseUrl, async () => vault.get('token')) };
    settings.set('workspace', workspace);
    if (user) settings.set('user', user);
    pushState();
    await workspaceChanged();
  }

  async function connect(input: { baseUrl: string; token: string; userName?: string | undefined; allowWeakStorage: boolean }): Promise<AppState> {
    const baseUrl = input.baseUrl.replace(/\/+$/, '');
    p.registerSecret(input.token);
    const probe = makeClient(baseUrl, async () => input.token, true);
    const typed = input.userName?.trim() || null;
    let found: Session['user'] = null;
    try {
      await checkAccess(probe);
      // Who the attendant is, from the service where it can tell: the name they typed (checked),
      // else the token's own user (/users/rules of the caller). Else the console asks them.
      found = await identify(probe, typed);
    } catch (e) {
      if (isAppError(e) && e.kind === 'Unauthorized') {
        throw new AppError({ kind: 'Unauthorized', status: 401, message: 'The service refused this token (401). Check it and try again.' });
      }
      if (isAppError(e) && isNetworkError(e)) {
        throw new AppError({ kind: e.kind, message: `Could not reach ${baseUrl}. Check the address and your connection.` });
      }
      throw e;
    } finally {
      await probe.close();
    }
    if (typed && !found) {
      throw new AppError({ kind: 'NotFound', field: 'userName', message: `The service has no user "${typed}". Check the name, or leave it blank and pick yourself after connecting.` });
    }
    vault.put('token', input.token, { allowWeak: input.allowWeakStorage });
    await replaceSession({ kind: 'remote', baseUrl }, baseUrl, found ?? rememberedUser(baseUrl));
    if (found) rememberUser(baseUrl, found);
    return state();
  }

  /** The attendant chosen for a workspace, kept per service address. */
  function rememberedUser(baseUrl: string): Session['user'] {
    return settings.get('users')[baseUrl] ?? null;
  }

  /** The service's own record of a user name (or of the token's user when none is given). */
  async function identify(client: ServiceClient, userName: string | null): Promise<Session['user']> {
    let wanted = userName;
    if (!wanted) {
      try {
        wanted = text(record(await client.userRules({}))?.userName);
      } catch {
        wanted = null;
      }
    }
    if (!wanted) return null;
    const rows = await client.resource('user').list({ conditions: [{ key: 'userName', operator: 'EQ', value: wanted }], sort: false, page: 0, size: 5 }).catch(() => null);
    const me = rows?.results.map((r) => personOf(r)).find((u) => u?.userName?.toLowerCase() === wanted!.toLowerCase());
    // A user name the users list cannot confirm (a role without that list) is taken as given.
    if (rows && !me) return null;
    return { userName: me?.userName ?? wanted, name: me?.name ?? wanted };
  }

  function rememberUser(baseUrl: string, user: NonNullable<Session['user']>): void {
    settings.set('user', user);
    settings.set('users', { ...settings.get('users'), [baseUrl]: user });
  }

  async function setUser(user: NonNullable<Session['user']>): Promise<void> {
    if (!current) throw new AppError({ kind: 'Unauthorized', message: 'Open a workspace first.' });
    current.user = user;
    if (current.workspace.kind === 'remote') rememberUser(current.baseUrl, user);
    pushState();
    await workspaceChanged();
  }

  /** Attendants to pick from: the agents list, matched on name and user name. */
  async function people(search: string): Promise<Array<{ userName: string; name: string }>> {
    const rows = await ctx.client().resource('agent').pageAll({ conditions: [], sort: false, size: 500 }, { cap: 5_000 });
    const q = search.trim().toLowerCase();
    const out = new Map<string, { userName: string; name: string }>();
    for (const a of rows) {
      const u = personOf(a.user);
      const userName = u?.userName ?? text(a.loginAttendance);
      if (!userName) continue;
      const name = u?.name ?? userName;
      if (q && !name.toLowerCase().includes(q) && !userName.toLowerCase().includes(q)) continue;
      out.set(userName, { userName, name });
    }
    return [...out.values()].sort((x, y) => x.name.localeCompare(y.name)).slice(0, 50);
  }

  async function signOut(): Promise<AppState> {
    await current?.client.close();
    current = null;
    vault.wipe();
    settings.delete('workspace');
    settings.delete('user');
    pushState();
    await workspaceChanged();
    return state();
  }

  const handlers: HandlerTable = {
    'workspace:state': async () => state(),
    'workspace:openDemo': ({ as }) => openDemo(as),
    'workspace:connect': connect,
    'workspace:signOut': signOut,
    'workspace:people': async ({ search }) => ({ people: await people(search) }),
    'workspace:setUser': async ({ userName }) => {
      const found = await identify(ctx.client(), userName);
      if (!found) throw new AppError({ kind: 'NotFound', field: 'userName', message: `The service has no user "${userName}".` });
      await setUser(found);
      return state();
    },
    // One line per feature slice of the bridge; a slice left out is a type error here.
    ...attendance.handlers,
    ...live.handlers,
    ...notes.handlers,
    ...offline.handlers,
    ...palette.handlers,
    ...supervisor.handlers,
    ...voice.handlers,
    ...webhooks.handlers,
  };

  return {
    handlers,
    events,
    get standin() {
      return standin;
    },
    async start() {
      for (const f of features) await f.start?.();
      // The choice is remembered: the next start goes straight to the queue.
      const ws = storedWorkspace();
      if (ws?.kind === 'demo') {
        await openDemo(ws.as);
      } else if (ws?.kind === 'remote' && vault.has('token')) {
        const token = vault.get('token');
        if (token) p.registerSecret(token);
        await replaceSession(ws, ws.baseUrl, rememberedUser(ws.baseUrl));
      }
    },
    async close() {
      for (const f of [...features].reverse()) await f.stop?.();
      await current?.client.close();
      current = null;
      await standin?.close();
      standin = null;
      // Started early but never used (the workspace was not opened): still a thread to end.
      await earlyStandin?.then((s) => s.close(), () => undefined);
      earlyStandin = null;
    },
  };
}
