import type { GroupsOverview } from '../../../../src-shared/bridge/supervisor';
import { failure, type Worded, worded } from '../../lib/bridge';
import type { Scope } from '../../lib/scope.svelte';

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

  async load(): Promise<void> {
    this.#loading = true;
    this.#error = null;
    try {
      this.#data = await this.#scope.invoke('supervisor:groups', {});
    } catch (e) {
      this.#error = failure(e);
    } finally {
      this.#loading = false;
    }
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
