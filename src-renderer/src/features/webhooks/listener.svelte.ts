import type { ListenerStatus, TunnelChoice } from '../../../../src-shared/bridge/webhooks';
import { errorMessage } from '../../lib/bridge';
import type { Scope } from '../../lib/scope.svelte';

export type EventsTab = 'log' | 'listener' | 'source';

/**
 * The listener's settings and state as the main process reports them (pushed on every change),
 * the tunnel, and a signing secret just made, held only until the user says they copied it.
 */
export class ListenerStore {
  readonly #scope: Scope;
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  #status = $state.raw<ListenerStatus | null>(null);
  /** Shown once: the user copies it to the service. Never stored anywhere in the renderer. */
  #newSecret = $state<string | null>(null);
  #busy = $state<null | 'port' | 'signing' | 'tunnel'>(null);
  #error = $state<{ area: 'port' | 'signing' | 'tunnel' | 'load'; message: string } | null>(null);
  #tab = $state<EventsTab>('log');
  /** Banners mounted by the shell; the view's own copy shows only while there is none. */
  #shellBanners = $state(0);

  get status() {
    return this.#status;
  }
  get newSecret() {
    return this.#newSecret;
  }
  get busy() {
    return this.#busy;
  }
  get error() {
    return this.#error;
  }
  get tab() {
    return this.#tab;
  }
  set tab(v) {
    this.#tab = v;
  }
  get shellBanners() {
    return this.#shellBanners;
  }
  /** The shell shows the unsigned-listener warning; returns the call that takes it away. */
  holdBanner(): () => void {
    this.#shellBanners++;
    return () => {
      this.#shellBanners--;
    };
  }

  /** Following the pushed status (the scope stops it when it closes). */
  #following = false;
  #loadingOnce: Promise<void> | null = null;

  /** Signing is off while a workspace is open: the standing warning shows. */
  get unsigned(): boolean {
    const s = this.#status;
    return s !== null && !s.signing && s.state !== 'idle';
  }

  /** Loads the status once and follows its pushes. */
  ensure(): Promise<void> {
    if (!this.#following) {
      this.#following = true;
      this.#scope.on('webhooks:status', (s) => (this.#status = s));
    }
    this.#loadingOnce ??= this.load();
    return this.#loadingOnce;
  }

  async load(): Promise<void> {
    try {
      this.#status = await this.#scope.invoke('webhooks:status', {});
    } catch (e) {
      this.#error = { area: 'load', message: errorMessage(e) };
    }
  }

  async #run(area: 'port' | 'signing' | 'tunnel', action: () => Promise<void>): Promise<boolean> {
    this.#busy = area;
    this.#error = null;
    try {
      await action();
      return true;
    } catch (e) {
      this.#error = { area, message: errorMessage(e) };
      return false;
    } finally {
      this.#busy = null;
    }
  }

  setPort(port: number): Promise<boolean> {
    return this.#run('port', async () => {
      this.#status = await this.#scope.invoke('webhooks:setPort', { port });
    });
  }

  setSigning(enabled: boolean): Promise<boolean> {
    return this.#run('signing', async () => {
      const r = await this.#scope.invoke('webhooks:setSigning', { enabled });
      this.#status = r.status;
      this.#newSecret = r.newSecret;
    });
  }

  rotateSecret(): Promise<boolean> {
    return this.#run('signing', async () => {
      const r = await this.#scope.invoke('webhooks:newSecret', {});
      this.#status = r.status;
      this.#newSecret = r.newSecret;
    });
  }

  /** The user copied the secret: forget it. */
  dismissSecret(): void {
    this.#newSecret = null;
  }

  saveTunnel(provider: TunnelChoice, command: string, urlTemplate: string): Promise<boolean> {
    return this.#run('tunnel', async () => {
      this.#status = await this.#scope.invoke('webhooks:setTunnel', { provider, command, urlTemplate });
    });
  }

  /** `confirm`: the saved command line the user was shown and accepted. */
  startTunnel(confirm?: string): Promise<boolean> {
    return this.#run('tunnel', async () => {
      this.#status = await this.#scope.invoke('webhooks:startTunnel', confirm === undefined ? {} : { confirm });
    });
  }

  stopTunnel(): Promise<boolean> {
    return this.#run('tunnel', async () => {
      this.#status = await this.#scope.invoke('webhooks:stopTunnel', {});
    });
  }
}
