import type { EventPayload } from '../../../../src-shared/bridge';
import type { Scope } from '../../lib/scope.svelte';

/**
 * Customers writing while the attendance view is shown: this workspace's (a customer message of
 * one of its sessions) and the attendant's in other workspaces (the console's own event, naming
 * the workspace). The view decides how each is said; the scope stops both when it closes.
 */
export class CustomerAlerts {
  readonly #scope: Scope;
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  /** Hears both kinds until the returned call. */
  follow(
    here: (a: EventPayload<'attendance:customerMessage'>) => void,
    elsewhere: (m: EventPayload<'workspace:customerMessage'>) => void,
  ): () => void {
    const offHere = this.#scope.on('attendance:customerMessage', here);
    const offElsewhere = this.#scope.on('workspace:customerMessage', elsewhere);
    return () => {
      offHere();
      offElsewhere();
    };
  }
}
