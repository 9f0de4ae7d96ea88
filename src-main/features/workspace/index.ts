import type { AppState, DemoPersona, Workspace } from '../../../src-shared/bridge';
import { AppError } from '../../../src-shared/errors';
import type { EventHub, HandlerTable } from '../../bridge/table';
import type { FirstView } from '../../first-view';
import type { Logger } from '../../log';
import type { Settings, WorkspaceEntry } from '../../settings';
import type { WorkspaceList } from '../../workspaces/list';
import type { NeedsMeWatch } from '../../workspaces/needs-me';
import { DEMO_ID, freeColor, newWorkspaceId } from '../../workspaces/registry';
import type { WorkspaceChannel } from '../../workspaces/routing';
import type { UserRef, WorkspaceRuntime } from '../../workspaces/runtime';
import type { BadgeSlot } from '../attendance/badge';
import { checkConnection, identify, openClient, people } from './identity';
import { errorText } from '../../../src-shared/error-text';

/**
 * The demo workspace's service as the root starts it (src-main/demo-standin.ts): the feature only
 * asks for it, so it works against any server and never reaches the stand-in itself.
 */
export interface DemoLauncher {
  /** Whether the demo's service runs now. */
  running(): boolean;
  /** Where it answers (or will, once started). */
  address(): Promise<string>;
  /** Starts it unless it runs: where it answers and whom each persona signs in as. */
  ensure(): Promise<DemoService>;
  stop(): Promise<void>;
}

/** The demo's running service. */
export interface DemoService {
  readonly baseUrl: string;
  /** The token and the person that sign in as `as` there. */
  persona(as: DemoPersona): { token: string; user: UserRef };
}

export interface WorkspaceFeatureDeps {
  list: WorkspaceList;
  /** The console's settings (the workspace list). */
  settings: Settings;
  demo: DemoLauncher;
  /** Opened by the page once its first view is on screen. */
  firstView: FirstView;
  badge: BadgeSlot;
  needsMe: NeedsMeWatch;
  /** Where the console's own events go (the page hears them whichever workspace is in front). */
  events: EventHub;
  log: Logger;
  registerSecret: (secret: string) => void;
}

interface ConnectInput {
  baseUrl: string;
  token: string;
  userName?: string | undefined;
  allowWeakStorage: boolean;
  replace?: string | undefined;
}

/** Whether a workspace is signed in as the account of `token`, who the service says is `user` (null: it cannot say). */
function sameAccount(rt: WorkspaceRuntime, user: UserRef | null, token: string): boolean {
  if (rt.vault.get('token') === token) return true;
  return user !== null && rt.user !== null && rt.user.userName.toLowerCase() === user.userName.toLowerCase();
}

/**
 * The console's own channels: which workspaces it has, which one is in front, opening the demo
 * workspace or a service, signing out, who the attendant is. They serve whichever workspace a
 * call names; every other channel belongs to one workspace.
 */
export class WorkspaceFeature {
  readonly #d: WorkspaceFeatureDeps;
  #closed = false;
  /** Workspaces opening in the background at start (awaited on stop). */
  readonly #opening = new Set<Promise<void>>();

  constructor(d: WorkspaceFeatureDeps) {
    this.#d = d;
  }

  /** The console's own channels, for a call that names workspace `id` (null: the one in front). */
  handlers(id: string | null): Pick<HandlerTable, WorkspaceChannel> {
    const { list, needsMe } = this.#d;
    const target = (): WorkspaceRuntime => {
      const rt = id ? list.get(id) : list.front();
      if (!rt) throw new AppError({ kind: 'Unauthorized', message: 'Open a workspace first.' });
      return rt;
    };
    return {
      'workspace:state': async () => list.state(),
      'workspace:openDemo': ({ as }) => this.#openDemo(as),
      'workspace:connect': (input) => this.#connect(input),
      'workspace:signOut': ({ id: named }) => this.#signOut(named ?? id),
      'workspace:focus': async ({ id: wanted }) => {
        if (!list.get(wanted)) throw new AppError({ kind: 'NotFound', message: 'That workspace is no longer in this console.' });
        list.focus(wanted);
        this.pushState();
        return list.state();
      },
      'workspace:needsMe': async () => needsMe.read(),
      'workspace:rename': async ({ id: named, name }) => {
        if (!list.entries().some((e) => e.id === named))
          throw new AppError({ kind: 'NotFound', message: 'That workspace is no longer in this console.' });
        list.rename(named, name);
        this.pushState();
        return list.state();
      },
      'workspace:people': async ({ search }) => {
        const client = openClient(target(), this.#d.log);
        return { people: await people(client, search).finally(() => client.close()) };
      },
      'workspace:setUser': async ({ userName }) => this.#setUser(target(), userName),
      'workspace:viewShown': async () => {
        this.#d.firstView.open();
        return { ok: true };
      },
    };
  }

  /** Opens the workspaces the console remembers: the one in front first (the page waits on it), the others beside it. */
  async start(): Promise<void> {
    const { list, needsMe, log } = this.#d;
    // Who signed in at each address was once remembered for the next sign-in there, whatever
    // token it came with: that is never reused, so it is not kept either.
    this.#d.settings.delete('users');
    const entries = list.entries();
    const first = entries.find((e) => e.id === list.active);
    if (first) await this.#reopen(first);
    for (const e of entries) {
      if (e === first) continue;
      const done = this.#reopen(e).catch((err: unknown) =>
        log.error('a workspace did not open', { workspace: e.id, error: errorText(err) }),
      );
      this.#opening.add(done);
      void done.finally(() => {
        this.#opening.delete(done);
        this.pushState();
        needsMe.changed();
      });
    }
    if (!first) this.pushState();
  }

  /** Pushes no state any more; resolves once the workspaces opening in the background are open. */
  async stop(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#opening);
  }

  /** The page hears the console's state (after any change of workspaces, sign-in or token). */
  pushState(): void {
    if (!this.#closed) this.#d.events.emit('workspace:state', this.#d.list.state());
  }

  /** Opens a remembered workspace: the demo with its stand-in, a service with its kept token. */
  async #reopen(entry: WorkspaceEntry): Promise<void> {
    const rt = await this.#d.list.add(entry.id);
    if (entry.workspace.kind === 'demo') {
      await this.#openDemoIn(rt, entry.workspace.as ?? 'agent', { atLaunch: true });
    } else if (rt.vault.has('token')) {
      const token = rt.vault.get('token');
      if (token) this.#d.registerSecret(token);
      // Who signed in with this token, as proven at its sign-in (never another account's).
      await rt.open(entry.workspace, entry.workspace.baseUrl, rt.storedUser());
    }
  }

  /**
   * Opens the demo workspace's session, seen as its attendant or as the operation's supervisor.
   * At launch, while the page has no view yet, it opens at once as it was last (the address kept
   * for its stand-in, the attendant remembered) and the stand-in starts once the page shows its
   * first view, or sooner if the service is called first: its start does not take the machine
   * from the page's.
   */
  async #openDemoIn(rt: WorkspaceRuntime, as: DemoPersona, o: { atLaunch?: boolean } = {}): Promise<void> {
    const { demo, firstView, list } = this.#d;
    const remembered = rt.storedUser();
    if (o.atLaunch && remembered && !firstView.opened && !demo.running()) {
      const baseUrl = await demo.address();
      let connecting: Promise<void> | null = null;
      const connect = (): Promise<void> =>
        (connecting ??= demo.ensure().then(
          (sb) => {
            // Not where, or not whom, it opened as (the kept port was taken, the demo's data was
            // made anew): it opens again as the stand-in says, and what waited to call this
            // address is refused, now and after (this `connecting` stays refused: only a failed
            // start is tried again). The token never goes to whatever answers there now.
            if (sb.baseUrl !== baseUrl || sb.persona(as).user.userName !== remembered.userName) {
              void this.#openDemoIn(rt, as)
                .then(() => this.pushState())
                .catch((e: unknown) => this.#d.log.error('the demo workspace did not open', { error: errorText(e) }));
              throw new AppError({
                kind: 'Cancelled',
                message: 'The demo workspace moved to where its service answers; this call was not sent.',
              });
            }
            this.#signIn(rt, sb, as);
          },
          (e: unknown) => {
            connecting = null;
            throw e;
          },
        ));
      await rt.open({ kind: 'demo', as }, baseUrl, remembered, { connect });
      void firstView.shown
        .then(() => {
          if (list.get(DEMO_ID) === rt && rt.workspace?.kind === 'demo' && rt.baseUrl === baseUrl) return connect();
        })
        .catch(() => undefined);
      return;
    }
    const sb = await demo.ensure();
    const who = this.#signIn(rt, sb, as);
    await rt.open({ kind: 'demo', as }, sb.baseUrl, who);
  }

  /** Puts the stand-in's token for `as` in the demo workspace's vault; whom that token signs in. */
  #signIn(rt: WorkspaceRuntime, sb: DemoService, as: DemoPersona): UserRef {
    const { token, user } = sb.persona(as);
    this.#d.registerSecret(token);
    // The demo token is a local stand-in's, regenerated with it: memory only, never stored.
    rt.vault.put('token', token, { persist: false });
    return user;
  }

  /** The demo workspace in front, seen as `as`; added beside the others when not there yet. */
  async #openDemo(as: DemoPersona = 'agent'): Promise<AppState> {
    const { list, needsMe } = this.#d;
    let rt = list.get(DEMO_ID);
    if (!rt) {
      rt = await list.add(DEMO_ID);
      const others = list.entries().filter((e) => e.id !== DEMO_ID);
      list.save([...others, { id: DEMO_ID, workspace: { kind: 'demo', as }, color: freeColor(others) }]);
    } else {
      list.save(list.entries().map((e) => (e.id === DEMO_ID ? { ...e, workspace: { kind: 'demo', as } } : e)));
    }
    list.focus(DEMO_ID);
    await this.#openDemoIn(rt, as);
    this.pushState();
    needsMe.changed();
    return list.state();
  }

  async #connect(input: ConnectInput): Promise<AppState> {
    const { list, needsMe } = this.#d;
    const baseUrl = input.baseUrl.replace(/\/+$/, '');
    this.#d.registerSecret(input.token);
    // Who this token is, as the service says (the name typed, checked; else the token's own
    // user); null: the console asks. Never someone who signed in before, there or elsewhere.
    const user = await checkConnection(baseUrl, input.token, input.userName?.trim() || null, this.#d.log);
    // The same account again (its token was refused, or it is typed a second time) signs that
    // workspace in again; another account, even of the same service, is a workspace of its own.
    const same = list.entries().find((e) => {
      if (e.workspace.kind !== 'remote') return false;
      if (e.id === input.replace) return true;
      const rt = list.get(e.id);
      return e.workspace.baseUrl === baseUrl && !!rt && sameAccount(rt, user, input.token);
    });
    const id = same?.id ?? newWorkspaceId();
    const fresh = !list.get(id);
    const rt = list.get(id) ?? (await list.add(id));
    try {
      rt.vault.put('token', input.token, { allowWeak: input.allowWeakStorage });
    } catch (e) {
      if (fresh) await list.remove(id);
      throw e;
    }
    const workspace: Workspace = { kind: 'remote', baseUrl };
    const others = list.entries().filter((e) => e.id !== id);
    list.save([
      ...list.entries().map((e) => (e.id === id ? { ...e, workspace } : e)),
      ...(same ? [] : [{ id, workspace, color: freeColor(others) }]),
    ]);
    list.focus(id);
    await rt.open(workspace, baseUrl, user);
    this.pushState();
    needsMe.changed();
    return list.state();
  }

  async #signOut(id: string | null): Promise<AppState> {
    const { list, needsMe } = this.#d;
    const target = id ?? list.active;
    if (target) {
      await list.remove(target);
      if (target === DEMO_ID) await this.#d.demo.stop();
      if (list.active === target) list.focus(list.entries()[0]?.id ?? null);
      // No workspace left: nothing waits for the attendant (the page counts again when one opens).
      if (!list.entries().length) this.#d.badge.set(0);
    }
    this.pushState();
    needsMe.changed();
    return list.state();
  }

  async #setUser(rt: WorkspaceRuntime, userName: string): Promise<AppState> {
    const client = openClient(rt, this.#d.log);
    const found = await identify(client, userName).finally(() => client.close());
    if (!found) throw new AppError({ kind: 'NotFound', field: 'userName', message: `The service has no user "${userName}".` });
    await rt.setUser(found);
    this.#d.needsMe.changed();
    return this.#d.list.state();
  }
}
