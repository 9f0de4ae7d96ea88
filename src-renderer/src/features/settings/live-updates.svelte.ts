import type { LiveStatus } from '../../../../src-shared/bridge/live';
import { failure, type Worded, worded } from '../../lib/bridge';
import type { Followed, Scope } from '../../lib/scope.svelte';

/** The "live updates" switch of the settings: events and the safety-net poll, on or paused. */
export class LiveUpdatesStore {
  readonly #scope: Scope;
  readonly #live: Followed<LiveStatus>;
  constructor(scope: Scope) {
    this.#scope = scope;
    this.#live = scope.follow('live:status', (s) => (this.#status = s));
  }

  #status = $state<LiveStatus | null>(null);
  #busy = $state(false);
  #error = $state.raw<Worded | null>(null);

  get status() {
    return this.#status;
  }
  get busy() {
    return this.#busy;
  }
  get error() {
    return worded(this.#error);
  }

  /** Paused by the attendant (not merely failing or idle). */
  get paused(): boolean {
    return this.#status?.state === 'stopped';
  }

  async load(): Promise<void> {
    try {
      await this.#live.read(() => this.#scope.invoke('live:status', {}));
    } catch (e) {
      this.#error = failure(e);
    }
  }

  async set(running: boolean): Promise<void> {
    this.#busy = true;
    this.#error = null;
    try {
      await this.#live.read(() => this.#scope.invoke('live:setRunning', { running }));
    } catch (e) {
      this.#error = failure(e);
    } finally {
      this.#busy = false;
    }
  }
}
