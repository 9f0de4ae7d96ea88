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
    // The rules given to the first view were the ones kept from the last start: read again after
    // that view, they come here when they changed.
    scope.on('supervisor:rules', (answer) => this.#take(answer));
  }

  /** undefined: not asked yet; null: the service did not say. */
  #role = $state<Role | null | undefined>(undefined);
  #rules = $state<readonly string[] | null>(null);
  #kbRefused = $state(false);

  get role() {
    return this.#role;
  }
  get allowed(): boolean {
    return this.#role !== 'agent';
  }

  /**
   * Whether this account may upload knowledge bases, known before the form is filled: an
   * administrator's operation (the stand-in's rules name it "kb:upload"). null while the service
   * has not said; then the service decides when the form is sent.
   */
  get mayUploadKb(): boolean | null {
    if (this.#kbRefused) return false;
    if (this.#rules?.includes('kb:upload') || this.#role === 'admin') return true;
    return this.#role ? false : null;
  }

  /** The service refused an upload (403): the role may not, whatever the rules read before. */
  refusedKbUpload(): void {
    this.#kbRefused = true;
  }

  #take(answer: { role: Role | null; rules: readonly string[] | null }): void {
    this.#role = answer.role;
    this.#rules = answer.rules;
  }

  async load(): Promise<void> {
    try {
      this.#take(await this.#scope.invoke('supervisor:rules', {}));
    } catch {
      this.#role = null;
    }
  }
}
