import { BridgeError, failure, type Worded, worded } from '../../lib/bridge';
import type { Scope } from '../../lib/scope.svelte';
import { tt } from './strings';

/** A link waiting for the attendant's yes: its host, shown first, and the whole address. */
export interface LinkAsk {
  url: string;
  host: string;
}

/**
 * Links in messages go to the system browser through the main process (never inside the
 * console). An https link goes at once; anything else shows its host first and asks.
 */
export class LinkStore {
  readonly #scope: Scope;
  #asking = $state<LinkAsk | null>(null);
  #notice = $state.raw<Worded | null>(null);
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  get asking() {
    return this.#asking;
  }
  /** Why the last link was not opened, if it was not. */
  get notice() {
    return worded(this.#notice);
  }

  open(url: string): void {
    this.#notice = null;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      this.#notice = () => tt('k.notOpened', { url });
      return;
    }
    if (parsed.protocol === 'https:') void this.#hand(url);
    else this.#asking = { url, host: parsed.protocol === 'mailto:' ? parsed.pathname.replace(/^.*@/, '') : parsed.host };
  }

  confirm(): void {
    const ask = this.#asking;
    this.#asking = null;
    if (ask) void this.#hand(ask.url);
  }

  cancel(): void {
    this.#asking = null;
  }

  dismiss(): void {
    this.#notice = null;
  }

  async #hand(url: string): Promise<void> {
    try {
      const { opened } = await this.#scope.invoke('attendance:openLink', { url });
      this.#notice = opened ? null : () => tt('k.notOpened', { url });
    } catch (e) {
      this.#notice = e instanceof BridgeError && e.info.kind === 'Invalid' ? () => tt('k.refused') : failure(e);
    }
  }
}
