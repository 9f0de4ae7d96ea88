import type { LiveSource, LiveSourceStatus, LiveStatus } from '../../../../src-shared/bridge/live';
import { BridgeError, failure, type Worded } from '../../lib/bridge';
import type { Followed, Scope } from '../../lib/scope.svelte';

/**
 * Where the workspace's live events come from (this computer's listener, a team relay, or the
 * poll alone), as the main process keeps it, and the relay's connection as it is pushed. The
 * relay's password or token goes to the main process once and never comes back. One per
 * workspace scope: the next workspace's choice is its own store's.
 */
export class LiveSourceStore {
  readonly #scope: Scope;
  /** The live status as pushed (the scope stops following when the workspace closes). */
  readonly #followed: Followed<LiveStatus>;
  constructor(scope: Scope) {
    this.#scope = scope;
    this.#followed = scope.follow('live:status', (s) => (this.#live = s));
  }

  #status = $state.raw<LiveSourceStatus | null>(null);
  #live = $state.raw<LiveStatus | null>(null);
  #busy = $state(false);
  #error = $state.raw<{ field: string | null; message: Worded } | null>(null);
  #saved = $state(false);
  #loadingOnce: Promise<void> | null = null;

  get status() {
    return this.#status;
  }
  /** The live status (pushed): the relay's connection while it is the source. */
  get live() {
    return this.#live;
  }
  get busy() {
    return this.#busy;
  }
  get error() {
    const e = this.#error;
    return e && { ...e, message: e.message() };
  }
  /** The last save went through (cleared by the next change). */
  get saved() {
    return this.#saved;
  }

  /** Loads the choice once and follows the live status. */
  ensure(): Promise<void> {
    this.#loadingOnce ??= this.#load();
    return this.#loadingOnce;
  }

  async #load(): Promise<void> {
    try {
      const [status] = await Promise.all([
        this.#scope.invoke('live:source', {}),
        this.#followed.read(() => this.#scope.invoke('live:status', {})),
      ]);
      this.#status = status;
    } catch (e) {
      this.#error = { field: null, message: failure(e) };
    }
  }

  /** Saves the source and switches to it; a relay's secret is sent only when typed. */
  async save(source: LiveSource, secret: string): Promise<boolean> {
    this.#busy = true;
    this.#error = null;
    this.#saved = false;
    try {
      this.#status = await this.#scope.invoke('live:setSource', { source, ...(secret ? { secret } : {}) });
      this.#saved = true;
      return true;
    } catch (e) {
      this.#error = { field: e instanceof BridgeError ? (e.info.field ?? null) : null, message: failure(e) };
      return false;
    } finally {
      this.#busy = false;
    }
  }

  /** A field changed: the last outcome no longer describes the form. */
  edited(): void {
    this.#saved = false;
  }
}
