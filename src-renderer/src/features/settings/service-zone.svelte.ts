import type { ServiceTimeStatus } from '../../../../src-shared/bridge/live';
import { failure, worded, type Worded } from '../../lib/bridge';
import type { Scope } from '../../lib/scope.svelte';

/**
 * The time zone of the service's date-times written with no offset, for the workspace in front:
 * learned from the service, or set here (README: "Date-times without an offset").
 */
export class ServiceZoneStore {
  readonly #scope: Scope;
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  #status = $state.raw<ServiceTimeStatus | null>(null);
  #busy = $state(false);
  #saved = $state(false);
  #error = $state.raw<Worded | null>(null);

  get status() {
    return this.#status;
  }
  get busy() {
    return this.#busy;
  }
  get saved() {
    return this.#saved;
  }
  get error() {
    return worded(this.#error);
  }

  async load(): Promise<void> {
    try {
      this.#status = await this.#scope.invoke('live:serviceTime', {});
    } catch (e) {
      this.#error = failure(e);
    }
  }

  /** Saves the zone typed ('' : learn it from the service). */
  async set(zone: string): Promise<void> {
    this.#busy = true;
    this.#saved = false;
    this.#error = null;
    try {
      this.#status = await this.#scope.invoke('live:setServiceZone', { zone: zone.trim() || null });
      this.#saved = true;
    } catch (e) {
      this.#error = failure(e);
    } finally {
      this.#busy = false;
    }
  }

  edited(): void {
    this.#saved = false;
  }
}
