import type { AppState, DemoPersona, WorkspaceInfo } from '../../../src-shared/bridge';
import { scopes as pageScopes, type Scope, type Scopes } from './scope.svelte';
import { failure, invoke, on, setWorkspace, whenCallsSettled, type Worded, worded } from './bridge';
import { i18n } from './i18n.svelte';
import { tick } from 'svelte';

/** Which workspace is open and who is signed in: the root of every other state. */
export class AppStore {
  /** `scopes`: the workspaces' scopes this store opens and closes (the page's own, or a test's). */
  readonly #scopes: Scopes;
  constructor(scopes: Scopes = pageScopes) {
    this.#scopes = scopes;
  }

  #state = $state<AppState | null>(null);
  #busy = $state(false);
  #error = $state.raw<Worded | null>(null);

  get state() {
    return this.#state;
  }
  get busy() {
    return this.#busy;
  }
  get error() {
    return worded(this.#error);
  }

  get signedIn(): boolean {
    return this.#state?.signedIn ?? false;
  }

  #adding = $state(false);
  /** The attendant is adding a workspace beside those open (the connect screen shows). */
  get adding(): boolean {
    return this.#adding;
  }
  set adding(on: boolean) {
    this.#adding = on;
    this.#error = null;
  }

  async load(): Promise<void> {
    on('workspace:state', (s) => this.#apply(s));
    try {
      this.#apply(await invoke('workspace:state', {}));
    } catch (e) {
      this.#error = failure(e);
      return;
    }
    // Once the first view is drawn with its answers, the console starts what it did not need
    // (live updates, the service's read behind a kept queue): they no longer compete with it.
    void whenCallsSettled()
      .then(() => invoke('workspace:viewShown', {}))
      .catch(() => undefined);
  }

  /**
   * The scope the views are showing (null while none, or while one gives way to the next). The
   * views of a scope are gone before the next one's start: whatever they send as they close (a
   * thread let go, a draft saved) goes to their own workspace, never to the next.
   */
  get shown(): Scope | null {
    return this.#scopes.shown;
  }
  #entering = 0;

  #apply(s: AppState): void {
    const before = scopeOf(this.#state);
    const after = scopeOf(s);
    this.#state = s;
    i18n.setLocale(s.locale);
    if (before === after) {
      if (after === null) setWorkspace(s.active);
      this.#closeGone(s);
      return;
    }
    // The views leave first (their last calls still for their workspace)...
    this.#scopes.show(null, null);
    const entering = ++this.#entering;
    // ...then, once the page no longer shows them, the scopes of workspaces signed out (or now
    // signed in as someone else) close, and the next workspace's views come.
    void tick().then(() => {
      if (entering !== this.#entering) return;
      this.#closeGone(s);
      setWorkspace(s.active);
      this.#scopes.show(after, s.active);
    });
  }

  /** Closes the scope of every workspace no longer signed in as the same person. */
  #closeGone(s: AppState): void {
    const live = new Set<string>();
    for (const w of s.workspaces) {
      const key = scopeKey(w);
      if (key !== null) live.add(key);
    }
    this.#scopes.keepOnly(live);
  }

  /** The scope of a workspace signed in (null when it is not): opened now if it is not open yet. */
  scopeOf(workspaceId: string): Scope | null {
    const w = this.#state?.workspaces.find((x) => x.id === workspaceId);
    const key = w ? scopeKey(w) : null;
    return key === null ? null : this.#scopes.of(key, workspaceId);
  }

  async #run(action: () => Promise<AppState>): Promise<boolean> {
    this.#busy = true;
    this.#error = null;
    // The workspace shows (its state event) before the call that opened it returns; an "Add a
    // workspace" chosen in between stays open: only an action taken from that screen closes it.
    const fromAdding = this.#adding;
    try {
      this.#apply(await action());
      if (fromAdding) this.#adding = false;
      return true;
    } catch (e) {
      this.#error = failure(e);
      return false;
    } finally {
      this.#busy = false;
    }
  }

  /** The demo workspace, seen as its attendant (the default) or as the operation's supervisor. */
  openDemo(as?: DemoPersona): Promise<boolean> {
    return this.#run(() => invoke('workspace:openDemo', as ? { as } : {}));
  }

  /** Who the open demo workspace is seen as (null when another workspace is open). */
  get demoPersona(): DemoPersona | null {
    const ws = this.#state?.workspace;
    return ws?.kind === 'demo' ? (ws.as ?? 'agent') : null;
  }

  /** Sees the demo workspace as someone else: like signing out and in again, nothing carries over. */
  async switchDemo(as: DemoPersona): Promise<boolean> {
    if (this.demoPersona === as) return true;
    return this.openDemo(as);
  }

  /**
   * Connects a service account: a workspace beside the others, or the one in front again when it
   * is not signed in (its token refused, or none kept).
   */
  connect(input: { baseUrl: string; token: string; userName?: string; allowWeakStorage: boolean }): Promise<boolean> {
    const s = this.#state;
    const front = s?.workspaces.find((w) => w.id === s.active);
    const replace = !this.#adding && front && !front.signedIn && front.workspace.kind === 'remote' ? { replace: front.id } : {};
    return this.#run(() => invoke('workspace:connect', { ...input, ...replace }));
  }

  /** Brings a workspace to the front. */
  focus(id: string): Promise<boolean> {
    if (this.#state?.active === id && !this.#adding) return Promise.resolve(true);
    return this.#run(() => invoke('workspace:focus', { id }));
  }

  /** Who the attendant is on the service, picked from its attendants. */
  setUser(userName: string): Promise<boolean> {
    return this.#run(() => invoke('workspace:setUser', { userName }));
  }

  /** Names a workspace (an empty name: its service and account name it again). */
  rename(id: string, name: string): Promise<boolean> {
    return this.#run(() => invoke('workspace:rename', { id, name }));
  }

  /** Signs out of one workspace (the one in front when none is named); the others stay. */
  signOut(id?: string): Promise<boolean> {
    return this.#run(() => invoke('workspace:signOut', id ? { id } : {}));
  }
}

/** A workspace's scope key: which sign-in, of whom, where (null: nobody); another token is another scope. */
function scopeKey(w: Pick<WorkspaceInfo, 'id' | 'signedIn' | 'user' | 'signIn'>): string | null {
  return w.signedIn ? `${w.id}|${w.signIn ?? ''}|${w.user?.userName ?? ''}` : null;
}

/**
 * What the views show: the workspace in front and who is signed in there (null: nobody). A
 * change shows another scope; one signed out, or signed in as someone else, starts over.
 */
function scopeOf(s: AppState | null): string | null {
  if (!s?.signedIn || s.active === null) return null;
  const signIn = s.workspaces.find((w) => w.id === s.active)?.signIn;
  return scopeKey({ id: s.active, signedIn: true, user: s.user, ...(signIn === undefined ? {} : { signIn }) });
}

export const app = new AppStore();
