import type { Role } from '../../../../src-shared/paths';
import type { Scope } from '../../lib/scope.svelte';

/**
 * Whether the supervisor tools are offered: not to an attendant (the service says the role in
 * users/rules). When the service does not say, they are offered and the service decides each
 * call (403).
 */
export class SupervisorAccess {
  readonly #scope: Scope;
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  /** undefined: not asked yet; null: the service did not say. */
  #role = $state<Role | null | undefined>(undefined);

  get role() {
    return this.#role;
  }
  get allowed(): boolean {
    return this.#role !== 'agent';
  }

  async load(): Promise<void> {
    try {
      this.#role = (await this.#scope.invoke('supervisor:rules', {})).role;
    } catch {
      this.#role = null;
    }
  }
}
