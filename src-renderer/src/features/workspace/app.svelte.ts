import type { AppState, DemoPersona } from '../../../../src-shared/bridge';
import { errorMessage, invoke, on, setWorkspace } from '../../lib/bridge';
import { i18n } from '../../lib/i18n.svelte';

/** Which workspace is open and who is signed in: the root of every other state. */
export class AppStore {
  #state = $state<AppState | null>(null);
  #busy = $state(false);
  #error = $state<string | null>(null);

  get state() { return this.#state; }
  get busy() { return this.#busy; }
  get error() { return this.#error; }

  get signedIn(): boolean {
    return this.#state?.signedIn ?? false;
  }

  /**
   * What the views show: the workspace in front and who is signed in there (null: nobody). A
   * change is like signing out and in: every store starts over, nothing of one shows in another.
   */
  get scope(): string | null {
    return scopeOf(this.#state);
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
    on('workspace:state', (s) => this.apply(s));
    try {
      this.apply(await invoke('workspace:state', {}));
    } catch (e) {
      this.#error = errorMessage(e);
    }
  }

  private signOutHooks = new Set<() => void>();
  private signInHooks = new Set<() => void>();

  /** Called each time an account signs in (the demo workspace included). */
  onSignedIn(start: () => void): void {
    this.signInHooks.add(start);
  }

  /** Stores register their reset here, so nothing of one account shows to the next. */
  onSignedOut(reset: () => void): void {
    this.signOutHooks.add(reset);
  }

  private apply(s: AppState): void {
    const before = scopeOf(this.#state);
    const after = scopeOf(s);
    this.#state = s;
    setWorkspace(s.active);
    i18n.setLocale(s.locale);
    if (before === after) return;
    if (before !== null) for (const reset of this.signOutHooks) reset();
    if (after !== null) for (const start of this.signInHooks) start();
  }

  private async run(action: () => Promise<AppState>): Promise<boolean> {
    this.#busy = true;
    this.#error = null;
    try {
      this.apply(await action());
      this.#adding = false;
      return true;
    } catch (e) {
      this.#error = errorMessage(e);
      return false;
    } finally {
      this.#busy = false;
    }
  }

  /** The demo workspace, seen as its attendant (the default) or as the operation's supervisor. */
  openDemo(as?: DemoPersona): Promise<boolean> {
    return this.run(() => invoke('workspace:openDemo', as ? { as } : {}));
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

  /** Connects a service account: a workspace beside the others, or the one in front again when its token was refused. */
  connect(input: { baseUrl: string; token: string; userName?: string; allowWeakStorage: boolean }): Promise<boolean> {
    const s = this.#state;
    const replace = !this.#adding && s?.tokenRefused && s.active ? { replace: s.active } : {};
    return this.run(() => invoke('workspace:connect', { ...input, ...replace }));
  }

  /** Brings a workspace to the front. */
  focus(id: string): Promise<boolean> {
    if (this.#state?.active === id && !this.#adding) return Promise.resolve(true);
    return this.run(() => invoke('workspace:focus', { id }));
  }

  /** Who the attendant is on the service, picked from its attendants. */
  setUser(userName: string): Promise<boolean> {
    return this.run(() => invoke('workspace:setUser', { userName }));
  }

  /** Signs out of one workspace (the one in front when none is named); the others stay. */
  signOut(id?: string): Promise<boolean> {
    return this.run(() => invoke('workspace:signOut', id ? { id } : {}));
  }
}

function scopeOf(s: AppState | null): string | null {
  return s?.signedIn ? `${s.active ?? ''}|${s.user?.userName ?? ''}` : null;
}

export const app = new AppStore();
