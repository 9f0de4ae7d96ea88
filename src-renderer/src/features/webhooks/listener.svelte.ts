import type { ListenerStatus, TunnelChoice } from '../../../../src-shared/bridge/webhooks';
import { failure, type Worded } from '../../lib/bridge';
import type { Followed, Scope } from '../../lib/scope.svelte';

export type EventsTab = 'log' | 'listener' | 'source';

/**
 * The listener's settings and state as the main process reports them (pushed on every change),
 * the tunnel, and a signing secret just made, held only until the user says they copied it.
 */
export class ListenerStore {
  readonly #scope: Scope;
  /** The status the main process pushes on every change (the scope stops following when it closes). */
  readonly #followed: Followed<ListenerStatus>;
  constructor(scope: Scope) {
    this.#scope = scope;
    this.#followed = scope.follow('webhooks:status', (s) => (this.#status = s));
  }

  #status = $state.raw<ListenerStatus | null>(null);
  /** Shown once: the user copies it to the service. Never stored anywhere in the renderer. */
  #newSecret = $state<string | null>(null);
  #busy = $state<null | 'port' | 'signing' | 'tunnel'>(null);
  #error = $state.raw<{ area: 'port' | 'signing' | 'tunnel' | 'load'; message: Worded } | null>(null);
  tab = $state<EventsTab>('log');
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
    const e = this.#error;
    return e && { ...e, message: e.message() };
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

  #loadingOnce: Promise<void> | null = null;

  /** Signing is off while a workspace is open: the standing warning shows. */
  get unsigned(): boolean {
    const s = this.#status;
    return s !== null && !s.signing && s.state !== 'idle';
  }

  /** Loads the status once and follows its pushes. */
  ensure(): Promise<void> {
    this.#loadingOnce ??= this.load();
    return this.#loadingOnce;
  }

  async load(): Promise<void> {
    try {
      await this.#followed.read(() => this.#scope.invoke('webhooks:status', {}));
    } catch (e) {
      this.#error = { area: 'load', message: failure(e) };
    }
  }

  async #run(area: 'port' | 'signing' | 'tunnel', action: () => Promise<void>): Promise<boolean> {
    this.#busy = area;
    this.#error = null;
    try {
      await action();
      return true;
    } catch (e) {
      this.#error = { area, message: failure(e) };
      return false;
    } finally {
      this.#busy = null;
    }
  }

  setPort(port: number): Promise<boolean> {
    return this.#run('port', async () => {
      await this.#followed.read(() => this.#scope.invoke('webhooks:setPort', { port }));
    });
  }

  setSigning(enabled: boolean): Promise<boolean> {
    return this.#run('signing', async () => {
      await this.#followed.read(async () => {
        const r = await this.#scope.invoke('webhooks:setSigning', { enabled });
        this.#newSecret = r.newSecret;
        return r.status;
      });
    });
  }

  rotateSecret(): Promise<boolean> {
    return this.#run('signing', async () => {
      await this.#followed.read(async () => {
        const r = await this.#scope.invoke('webhooks:newSecret', {});
        this.#newSecret = r.newSecret;
        return r.status;
      });
    });
  }

  /** The user copied the secret: forget it. */
  dismissSecret(): void {
    this.#newSecret = null;
  }

  saveTunnel(provider: TunnelChoice, command: string, urlTemplate: string): Promise<boolean> {
    return this.#run('tunnel', async () => {
      await this.#followed.read(() => this.#scope.invoke('webhooks:setTunnel', { provider, command, urlTemplate }));
    });
  }

  /** `confirm`: the saved command line the user was shown and accepted. */
  startTunnel(confirm?: string): Promise<boolean> {
    return this.#run('tunnel', async () => {
      await this.#followed.read(() => this.#scope.invoke('webhooks:startTunnel', confirm === undefined ? {} : { confirm }));
    });
  }

  stopTunnel(): Promise<boolean> {
    return this.#run('tunnel', async () => {
      await this.#followed.read(() => this.#scope.invoke('webhooks:stopTunnel', {}));
    });
  }
}
