import { mkdirSync, rmSync } from 'node:fs';
import type { AppState, DemoPersona, EventPayload, NeedsMe, Workspace, WorkspaceInfo } from '../src-shared/bridge';
import { isUnreachable } from '../src-shared/error-kinds';
import { AppError, isAppError } from '../src-shared/errors';
import { personOf, record, text } from '../src-shared/concepts';
import { EventHub, type HandlerTable, type Router } from './bridge/table';
import type { KeyValueStore, SecretCipher } from './vault/types';
import { createServiceClient, type ServiceClient } from './service';
import type { PollPace } from './features/live/poll-pace';
import type { Logger } from './log';
import type { Standin } from '../src-standin/index';
import { startStandinWorker } from '../src-standin/worker-host';
import { demoStandinOptions } from './demo-standin';
import { createSettings, type WorkspaceEntry } from './settings';
import { createWorkspaceRuntime, type UserRef, type WorkspaceRuntime } from './workspaces/runtime';
import { adoptSingleWorkspace, DEMO_ID, freeColor, newWorkspaceId, workspaceDir } from './workspaces/registry';
import { refusingHandlers, type WorkspaceChannel } from './workspaces/routing';
import { NeedsMeWatch } from './workspaces/needs-me';
import { attentionBadge } from './features/attendance/badge';

/** What a platform (Electron, or the plain-Node host) hands the composition root. */
export interface PlatformAdapters {
  profileDir: string;
  cipher: SecretCipher;
  /** A key-value store named `name` in `dir` (the profile when not given). */
  openStore(name: string, dir?: string): KeyValueStore;
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
  pollPace?: PollPace;
}

export interface ConsoleApp {
  /** The handler table of the workspace in front (the console's own channels included). */
  handlers: HandlerTable;
  /** The handler table for a call naming its workspace (null: the one in front). */
  route: Router;
  /** What the page hears: the console's events and those of the workspace in front. */
  events: EventHub;
  start(): Promise<void>;
  close(): Promise<void>;
  /** For tests and the host banner: the demo stand-in, when it runs. */
  readonly standin: Standin | null;
  /** For tests: a workspace's own folder. */
  workspaceDir(id: string): string;
}

/** The label a workspace goes by: "Demo", or its service's host (and port when not the usual). */
function labelOf(workspace: Workspace): string {
  if (workspace.kind === 'demo') return 'Demo';
  try {
    return new URL(workspace.baseUrl).host;
  } catch {
    return workspace.baseUrl;
  }
}

/**
 * The one composition root: the console's settings, the demo stand-in and the list of
 * workspaces, each running its own features (`workspaces/runtime.ts`). Bridge calls go to the
 * workspace they name; the workspace channels are the console's own. Electron and the web host
 * differ only in what they pass in.
 */
export function createApp(p: PlatformAdapters): ConsoleApp {
  const consoleStore = p.openStore('settings');
  const settings = createSettings(consoleStore, p.log);
  const events = p.events ?? new EventHub();
  let standin: Standin | null = null;
  let earlyStandin = p.demoStandin ?? null;
  const runtimes = new Map<string, WorkspaceRuntime>();
  let active: string | null = null;
  let closed = false;
  /** Workspaces opening in the background at start (awaited on close). */
  const opening = new Set<Promise<void>>();

  /** The workspace list, read from the settings once (at start, after any move) and kept here: this is its only writer. */
  let list: WorkspaceEntry[] = [];
  const entries = (): WorkspaceEntry[] => list;
  const saveEntries = (next: WorkspaceEntry[]) => {
    settings.set('workspaces', next);
    list = next;
  };
  const front = (): WorkspaceRuntime | null => (active ? (runtimes.get(active) ?? null) : null);

  const info = (e: WorkspaceEntry): WorkspaceInfo => {
    const rt = runtimes.get(e.id);
    return {
      id: e.id,
      workspace: rt?.workspace ?? e.workspace,
      label: labelOf(e.workspace),
      color: e.color,
      baseUrl: rt?.baseUrl ?? (e.workspace.kind === 'remote' ? e.workspace.baseUrl : null),
      signedIn: rt?.signedIn ?? false,
      tokenRefused: rt?.vault.tokenRefused ?? false,
      user: rt?.user ?? null,
    };
  };

  const state = (): AppState => {
    const rt = front();
    const entry = entries().find((e) => e.id === active) ?? null;
    const vault = rt?.vault;
    return {
      workspaces: entries().map(info),
      active: entry ? entry.id : null,
      workspace: rt?.workspace ?? entry?.workspace ?? null,
      baseUrl: rt?.baseUrl ?? null,
      signedIn: rt?.signedIn ?? false,
      tokenRefused: vault?.tokenRefused ?? false,
      vault: { state: vault?.state ?? p.cipher.state(), detail: vault?.detail ?? p.cipher.detail() },
      user: rt?.user ?? null,
      locale: p.locale,
    };
  };
  const pushState = () => {
    if (!closed) events.emit('workspace:state', state());
  };

  const needsMe = new NeedsMeWatch({
    runtimes: () => [...runtimes.values()],
    push: (n: NeedsMe) => events.emit('workspace:needsMe', n),
    log: p.log,
  });

  /** Builds and starts a workspace's features; its session opens separately. */
  async function addRuntime(id: string): Promise<WorkspaceRuntime> {
    const dir = workspaceDir(p.profileDir, id);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const rt = createWorkspaceRuntime({
      id,
      dir,
      cipher: p.cipher,
      openStore: (name) => p.openStore(name, dir),
      globalSettings: settings,
      locale: p.locale,
      log: p.log,
      registerSecret: p.registerSecret,
      standin: () => standin,
      onStateChange: pushState,
      ...(p.pollPace ? { pollPace: p.pollPace } : {}),
    });
    // The page hears the workspace in front; every workspace's queue feeds "Needs me".
    rt.events.subscribe((name, payload) => {
      if (name === 'attendance:queueDelta') needsMe.changed();
      if (rt.id === active) events.relay(name, payload, rt.id);
      // A customer writing in another workspace still calls the attendant.
      else if (name === 'attendance:customerMessage')
        events.emit('workspace:customerMessage', { workspaceId: rt.id, ...(payload as EventPayload<'attendance:customerMessage'>) });
    });
    runtimes.set(id, rt);
    await rt.start();
    return rt;
  }

  function focus(id: string | null): void {
    active = id;
    settings.set('activeWorkspace', id);
  }

  /** A cheap call that any role may make: proves the address answers and the token is taken. */
  async function checkAccess(client: ServiceClient): Promise<void> {
    await client.resource('userSession').list({ conditions: [], sort: false, page: 0, size: 1 });
  }

  async function ensureStandin(): Promise<Standin> {
    if (!standin) {
      // In a worker thread: the stand-in's slowest query must not hold the console's own thread.
      const early = earlyStandin;
      earlyStandin = null;
      standin = await (early ??
        startStandinWorker(demoStandinOptions(p.profileDir), { onExit: (reason) => p.log.error('demo workspace stopped', { reason }) }));
      p.log.info('demo workspace started', { baseUrl: standin.baseUrl });
    }
    return standin;
  }

  /** Opens the demo workspace's session, seen as its attendant or as the operation's supervisor. */
  async function openDemoIn(rt: WorkspaceRuntime, as: DemoPersona): Promise<void> {
    const sb = await ensureStandin();
    const token = as === 'supervisor' ? sb.tokens.supervisor : sb.tokens.agent;
    const who = as === 'supervisor' ? sb.demoSupervisor : sb.demoAgent;
    p.registerSecret(token);
    // The demo token is a local stand-in's, regenerated with it: memory only, never stored.
    rt.vault.put('token', token, { persist: false });
    await rt.open({ kind: 'demo', as }, sb.baseUrl, { userName: who.userName, name: who.name });
  }

  /** The demo workspace in front, seen as `as`; added beside the others when not there yet. */
  async function openDemo(as: DemoPersona = 'agent'): Promise<AppState> {
    let rt = runtimes.get(DEMO_ID);
    if (!rt) {
      rt = await addRuntime(DEMO_ID);
      const others = entries().filter((e) => e.id !== DEMO_ID);
      saveEntries([...others, { id: DEMO_ID, workspace: { kind: 'demo', as }, color: freeColor(others) }]);
    } else {
      saveEntries(entries().map((e) => (e.id === DEMO_ID ? { ...e, workspace: { kind: 'demo', as } } : e)));
    }
    focus(DEMO_ID);
    await openDemoIn(rt, as);
    pushState();
    needsMe.changed();
    return state();
  }

  async function connect(input: {
    baseUrl: string;
    token: string;
    userName?: string | undefined;
    allowWeakStorage: boolean;
    replace?: string | undefined;
  }): Promise<AppState> {
    const baseUrl = input.baseUrl.replace(/\/+$/, '');
    p.registerSecret(input.token);
    // `probe`: a candidate token being checked; its refusal must not mark a stored one.
    const probe = createServiceClient({ baseUrl, getToken: async () => input.token, log: p.log });
    const typed = input.userName?.trim() || null;
    let found: UserRef | null = null;
    try {
      await checkAccess(probe);
      // Who the attendant is, from the service where it can tell: the name they typed (checked),
      // else the token's own user (/users/rules of the caller). Else the console asks them.
      found = await identify(probe, typed);
    } catch (e) {
      if (isAppError(e) && e.kind === 'Unauthorized') {
        throw new AppError({ kind: 'Unauthorized', status: 401, message: 'The service refused this token (401). Check it and try again.' });
      }
      // Said of the address just typed; any answer the service did give speaks for itself.
      if (isAppError(e) && isUnreachable(e)) {
        const message =
          e.kind === 'Timeout'
            ? `${baseUrl} did not answer in time. Check the address, or try again when the service answers.`
            : `Could not reach ${baseUrl}. Check the address and your connection.`;
        throw new AppError({ ...e.info, message });
      }
      throw e;
    } finally {
      await probe.close();
    }
    if (typed && !found) {
      throw new AppError({
        kind: 'NotFound',
        field: 'userName',
        message: `The service has no user "${typed}". Check the name, or leave it blank and pick yourself after connecting.`,
      });
    }
    const user = found ?? rememberedUser(baseUrl);
    // The same account again (its token was refused, or it is typed a second time) signs that
    // workspace in again; another account, even of the same service, is a workspace of its own.
    const same = entries().find(
      (e) =>
        e.workspace.kind === 'remote' &&
        (e.id === input.replace ||
          (e.workspace.baseUrl === baseUrl && (runtimes.get(e.id)?.user?.userName ?? null) === (user?.userName ?? null))),
    );
    const id = same?.id ?? newWorkspaceId();
    const fresh = !runtimes.has(id);
    const rt = runtimes.get(id) ?? (await addRuntime(id));
    try {
      rt.vault.put('token', input.token, { allowWeak: input.allowWeakStorage });
    } catch (e) {
      if (fresh) await removeRuntime(id);
      throw e;
    }
    const workspace: Workspace = { kind: 'remote', baseUrl };
    const others = entries().filter((e) => e.id !== id);
    saveEntries([
      ...entries().map((e) => (e.id === id ? { ...e, workspace } : e)),
      ...(same ? [] : [{ id, workspace, color: freeColor(others) }]),
    ]);
    focus(id);
    await rt.open(workspace, baseUrl, user);
    if (found) rememberUser(baseUrl, found);
    pushState();
    needsMe.changed();
    return state();
  }

  /** The attendant chosen for a service address, remembered for the next sign-in there. */
  function rememberedUser(baseUrl: string): UserRef | null {
    return settings.get('users')[baseUrl] ?? null;
  }

  /** The service's own record of a user name (or of the token's user when none is given). */
  async function identify(client: ServiceClient, userName: string | null): Promise<UserRef | null> {
    let wanted = userName;
    if (!wanted) {
      try {
        wanted = text(record(await client.userRules({}))?.userName);
      } catch {
        wanted = null;
      }
    }
    if (!wanted) return null;
    const rows = await client
      .resource('user')
      .list({ conditions: [{ key: 'userName', operator: 'EQ', value: wanted }], sort: false, page: 0, size: 5 })
      .catch(() => null);
    const me = rows?.results.map((r) => personOf(r)).find((u) => u?.userName?.toLowerCase() === wanted!.toLowerCase());
    // A user name the users list cannot confirm (a role without that list) is taken as given.
    if (rows && !me) return null;
    return { userName: me?.userName ?? wanted, name: me?.name ?? wanted };
  }

  function rememberUser(baseUrl: string, user: UserRef): void {
    settings.set('users', { ...settings.get('users'), [baseUrl]: user });
  }

  /** Attendants to pick from: the agents list, matched on name and user name. */
  async function people(rt: WorkspaceRuntime, search: string): Promise<UserRef[]> {
    const rows = await openClient(rt).resource('agent').pageAll({ conditions: [], sort: false, size: 500 }, { cap: 5_000 });
    const q = search.trim().toLowerCase();
    const out = new Map<string, UserRef>();
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

  /** A short-lived client of an open workspace (the identity calls; the features keep their own). */
  function openClient(rt: WorkspaceRuntime): ServiceClient {
    const baseUrl = rt.baseUrl;
    if (!baseUrl) throw new AppError({ kind: 'Unauthorized', message: 'Open a workspace first.' });
    return createServiceClient({ baseUrl, getToken: async () => rt.vault.get('token'), log: p.log });
  }

  /** Stops a workspace and removes what it kept: its token, its folder, its place in the list. */
  async function removeRuntime(id: string): Promise<void> {
    const rt = runtimes.get(id);
    runtimes.delete(id);
    tables.delete(id);
    if (rt) {
      await rt.stop({ forget: true });
      rt.vault.wipe();
    }
    rmSync(workspaceDir(p.profileDir, id), { recursive: true, force: true });
    saveEntries(entries().filter((e) => e.id !== id));
  }

  async function signOut(id: string | null): Promise<AppState> {
    const target = id ?? active;
    if (target) {
      await removeRuntime(target);
      if (target === DEMO_ID) {
        await standin?.close();
        standin = null;
      }
      if (active === target) focus(entries()[0]?.id ?? null);
      // No workspace left: nothing waits for the attendant (the page counts again when one opens).
      if (!entries().length) attentionBadge.set(0);
    }
    pushState();
    needsMe.changed();
    return state();
  }

  /** The console's own channels, for a call that names workspace `id` (null: the one in front). */
  function workspaceHandlers(id: string | null): Pick<HandlerTable, WorkspaceChannel> {
    const target = (): WorkspaceRuntime => {
      const rt = id ? runtimes.get(id) : front();
      if (!rt) throw new AppError({ kind: 'Unauthorized', message: 'Open a workspace first.' });
      return rt;
    };
    return {
      'workspace:state': async () => state(),
      'workspace:openDemo': ({ as }) => openDemo(as),
      'workspace:connect': connect,
      'workspace:signOut': ({ id: named }) => signOut(named ?? id),
      'workspace:focus': async ({ id: wanted }) => {
        if (!runtimes.has(wanted)) throw new AppError({ kind: 'NotFound', message: 'That workspace is no longer in this console.' });
        focus(wanted);
        pushState();
        return state();
      },
      'workspace:needsMe': async () => needsMe.read(),
      'workspace:people': async ({ search }) => ({ people: await people(target(), search) }),
      'workspace:setUser': async ({ userName }) => {
        const rt = target();
        const client = openClient(rt);
        const found = await identify(client, userName).finally(() => client.close());
        if (!found) throw new AppError({ kind: 'NotFound', field: 'userName', message: `The service has no user "${userName}".` });
        await rt.setUser(found);
        if (rt.workspace?.kind === 'remote' && rt.baseUrl) rememberUser(rt.baseUrl, found);
        needsMe.changed();
        return state();
      },
    };
  }

  const noWorkspace = {
    ...workspaceHandlers(null),
    ...refusingHandlers(() => new AppError({ kind: 'Unauthorized', message: 'Open a workspace first.' })),
  } as HandlerTable;
  const gone = (id: string) =>
    ({
      ...workspaceHandlers(id),
      ...refusingHandlers(() => new AppError({ kind: 'NotFound', message: 'That workspace was signed out of; nothing was sent.' })),
    }) as HandlerTable;
  /** Each open workspace's whole table, built once (dropped when it is signed out of). */
  const tables = new Map<string, HandlerTable>();
  const route: Router = (id) => {
    const target = id ?? active;
    const rt = target ? runtimes.get(target) : undefined;
    if (!rt) return id ? gone(id) : noWorkspace;
    let table = tables.get(rt.id);
    if (!table) tables.set(rt.id, (table = { ...workspaceHandlers(rt.id), ...rt.handlers } as HandlerTable));
    return table;
  };

  /** Opens a remembered workspace: the demo with its stand-in, a service with its kept token. */
  async function reopen(entry: WorkspaceEntry): Promise<void> {
    const rt = await addRuntime(entry.id);
    if (entry.workspace.kind === 'demo') {
      await openDemoIn(rt, entry.workspace.as ?? 'agent');
    } else if (rt.vault.has('token')) {
      const token = rt.vault.get('token');
      if (token) p.registerSecret(token);
      await rt.open(entry.workspace, entry.workspace.baseUrl, rt.storedUser() ?? rememberedUser(entry.workspace.baseUrl));
    }
  }

  return {
    get handlers() {
      return route(null);
    },
    route,
    events,
    get standin() {
      return standin;
    },
    workspaceDir: (id) => workspaceDir(p.profileDir, id),
    async start() {
      adoptSingleWorkspace({ profileDir: p.profileDir, settings, openStore: p.openStore, raw: consoleStore, log: p.log });
      list = settings.get('workspaces');
      const stored = settings.get('activeWorkspace');
      active = list.find((e) => e.id === stored)?.id ?? list[0]?.id ?? null;
      // The workspace in front first (the page waits on it); the others open beside it.
      const first = list.find((e) => e.id === active);
      if (first) await reopen(first);
      for (const e of list) {
        if (e === first) continue;
        const done = reopen(e).catch((err: unknown) =>
          p.log.error('a workspace did not open', { workspace: e.id, error: err instanceof Error ? err.message : String(err) }),
        );
        opening.add(done);
        void done.finally(() => {
          opening.delete(done);
          pushState();
          needsMe.changed();
        });
      }
      if (!first) pushState();
    },
    async close() {
      closed = true;
      needsMe.stop();
      await Promise.all(opening);
      for (const rt of [...runtimes.values()].reverse()) await rt.stop();
      runtimes.clear();
      await standin?.close();
      standin = null;
      // Started early but never used (the workspace was not opened): still a thread to end.
      await earlyStandin?.then(
        (s) => s.close(),
        () => undefined,
      );
      earlyStandin = null;
    },
  };
}
