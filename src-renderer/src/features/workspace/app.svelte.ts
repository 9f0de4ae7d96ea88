import type { AppState, DemoPersona } from '../../../../src-shared/bridge';
import { errorMessage, invoke, on } from '../../lib/bridge';
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
    const wasSignedIn = this.#state?.signedIn ?? false;
    this.#state = s;
    i18n.setLocale(s.locale);
    if (wasSignedIn && !s.signedIn) for (const reset of this.signOutHooks) reset();
    if (!wasSignedIn && s.signedIn) for (const start of this.signInHooks) start();
  }

  private async run(action: () => Promise<AppState>): Promise<boolean> {
    this.#busy = true;
    this.#error = null;
    try {
      this.apply(await action());
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
    await this.signOut();
    return this.openDemo(as);
  }

  connect(input: { baseUrl: string; token: string; userName?: string; allowWeakStorage: boolean }): Promise<boolean> {
    return this.run(() => invoke('workspace:connect', input));
  }

  /** Who the attendant is on the service, picked from its attendants. */
  setUser(userName: string): Promise<boolean> {
    return this.run(() => invoke('workspace:setUser', { userName }));
  }

  signOut(): Promise<boolean> {
    return this.run(() => invoke('workspace:signOut', {}));
  }
}

export const app = new AppStore();
