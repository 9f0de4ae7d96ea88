import type { OutboxStatusInfo } from '../../../src-shared/bridge/notes';
import type { Connectivity } from '../../../src-shared/bridge/offline';
import type { Followed, Scope } from './scope.svelte';

/**
 * Whether the service can be reached (as the main process sees it) and what the outbox holds:
 * the banner, the "offline copy" marks and the held-reply question read it. Stores that must
 * catch up when the service is back register with `onBack`.
 */
export class OfflineStore {
  readonly #scope: Scope;
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  #status = $state<Connectivity | null>(null);
  #outbox = $state<OutboxStatusInfo | null>(null);
  #retrying = $state(false);
  /** Bumped each time the service answers again after being unreachable. */
  #backCount = $state(0);

  get status() {
    return this.#status;
  }
  get outbox() {
    return this.#outbox;
  }
  get retrying() {
    return this.#retrying;
  }
  get backCount() {
    return this.#backCount;
  }
  #unsubscribe: Array<() => void> = [];
  /** The pushed states, followed while the sessions view shows (`start` to `suspend`). */
  #followed: { connectivity: Followed<Connectivity>; outbox: Followed<OutboxStatusInfo> } | null = null;
  readonly #backHooks = new Set<() => void>();

  get offline(): boolean {
    return this.#status?.state === 'offline';
  }

  /** Notes waiting to go (pending, sending or being checked). */
  get waitingNotes(): number {
    const c = this.#outbox?.counts ?? {};
    return (c.pending ?? 0) + (c.sending ?? 0) + (c['outcome-unknown'] ?? 0);
  }

  onBack(hook: () => void): () => void {
    this.#backHooks.add(hook);
    return () => this.#backHooks.delete(hook);
  }

  #apply(s: Connectivity): void {
    const was = this.#status?.state;
    const waited = this.#status?.waitUntil != null;
    this.#status = s;
    // Back: reachable again, or the wait the service asked for is over (views read again).
    if ((was === 'offline' && s.state === 'online') || (waited && s.waitUntil == null && s.state === 'online')) {
      this.#backCount++;
      for (const hook of this.#backHooks) hook();
    }
  }

  async start(): Promise<void> {
    if (!this.#unsubscribe.length) {
      const connectivity = this.#scope.follow('offline:status', (s) => this.#apply(s));
      const outbox = this.#scope.follow('notes:status', (s) => (this.#outbox = s));
      this.#followed = { connectivity, outbox };
      this.#unsubscribe.push(connectivity.stop, outbox.stop);
      // The system says the network is back: probe now rather than at the next scheduled probe.
      const online = () => void this.retry();
      globalThis.window?.addEventListener('online', online);
      this.#unsubscribe.push(() => globalThis.window?.removeEventListener('online', online));
    }
    const f = this.#followed;
    if (!f) return;
    await Promise.allSettled([
      f.connectivity.read(() => this.#scope.invoke('offline:status', {})),
      f.outbox.read(() => this.#scope.invoke('notes:status', {})),
    ]);
  }

  async retry(): Promise<void> {
    this.#retrying = true;
    try {
      const ask = () => this.#scope.invoke('offline:retry', {});
      if (this.#followed) await this.#followed.connectivity.read(ask);
      else this.#apply(await ask());
    } catch {
      // The state arrives as an event anyway.
    } finally {
      this.#retrying = false;
    }
  }

  /** The sessions view leaves: listening stops until it shows again. */
  suspend(): void {
    for (const u of this.#unsubscribe) u();
    this.#unsubscribe = [];
    this.#followed = null;
    this.#status = null;
    this.#outbox = null;
  }
}
