import type { GroupsOverview } from '../../../../src-shared/bridge/supervisor';
import { failure, type Worded, worded } from '../../lib/bridge';
import type { Scope } from '../../lib/scope.svelte';
import { ReadRetry } from '../../lib/read-retry.svelte';

/** Live: a short poll (waits grow on their own) and a reload soon after any queue change. */
const POLL_MS = 10_000;
const EVENT_DELAY_MS = 1_500;

/** Groups overview; also the source of group names for the NPS and report filters. */
export class GroupsStore {
  readonly #scope: Scope;
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  #data = $state<GroupsOverview | null>(null);
  #loading = $state(false);
  #error = $state.raw<Worded | null>(null);

  get data() {
    return this.#data;
  }
  get loading() {
    return this.#loading;
  }
  get error() {
    return worded(this.#error);
  }
  /** When the overview that could not be read is asked again by itself (ms since epoch), or null. */
  get retryAt() {
    return this.#retry.at;
  }
  readonly #retry = new ReadRetry();

  /** Reads the overview; one that fails keeps what was shown and is asked again by itself. */
  async load(): Promise<void> {
    this.#retry.stop();
    this.#loading = true;
    try {
      this.#data = await this.#scope.invoke('supervisor:groups', {});
      this.#error = null;
      this.#retry.reset();
    } catch (e) {
      this.#error = failure(e);
      this.#retry.failedCall(e, () => void this.load());
    } finally {
      this.#loading = false;
    }
  }

  /** The workspace closed: nothing is asked again. */
  dispose(): void {
    this.#retry.stop();
  }

  /** Keeps the overview current while a view shows it; returns the stop. */
  watch(): () => void {
    void this.load();
    let soon: ReturnType<typeof setTimeout> | null = null;
    const poll = setInterval(() => void this.load(), POLL_MS);
    // Queue changes come in bursts: one reload shortly after the first of them.
    const off = this.#scope.on('attendance:queueDelta', () => {
      soon ??= setTimeout(() => {
        soon = null;
        void this.load();
      }, EVENT_DELAY_MS);
    });
    return () => {
      // The view is gone: nothing is asked again for it.
      this.#retry.stop();
      clearInterval(poll);
      if (soon) clearTimeout(soon);
      off();
    };
  }

  /** Loads once for the filters' group choices. */
  async ensure(): Promise<void> {
    if (!this.#data && !this.#loading) await this.load();
  }

  get choices(): Array<{ id: number; name: string }> {
    return (this.#data?.groups ?? [])
      .flatMap((g) => (g.id === null ? [] : [{ id: g.id, name: g.name }]))
      .sort((a, b) => a.name.localeCompare(b.name));
  }
}
