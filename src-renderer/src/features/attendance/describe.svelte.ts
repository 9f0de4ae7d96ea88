import { SvelteMap } from 'svelte/reactivity';
import { BridgeError, failure, type Worded } from '../../lib/bridge';
import type { Scope } from '../../lib/scope.svelte';
import { tt } from './strings';

/** An image's description by the service's AI, as the thread shows it under the image. */
type Description = { state: 'busy' } | { state: 'ready'; text: string } | { state: 'failed'; error: Worded };

/**
 * Descriptions of the images in the threads, by message: asked for one at a time by the
 * attendant ("Describe image"), kept while the workspace is open so a row scrolled out of the
 * list and back still shows its description.
 */
export class ImageDescriptions {
  readonly #scope: Scope;
  readonly #items = new SvelteMap<number, Description>();
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  get(messageId: number): Description | undefined {
    return this.#items.get(messageId);
  }

  async describe(sessionId: number, messageId: number, choice: { provider: string; model: string }): Promise<void> {
    if (this.#items.get(messageId)?.state === 'busy') return;
    this.#items.set(messageId, { state: 'busy' });
    try {
      const { text } = await this.#scope.invoke('attendance:describeImage', { sessionId, messageId, choice });
      this.#items.set(messageId, { state: 'ready', text });
    } catch (e) {
      // Held back by the documents rule (the address names a CPF or CNPJ): said as such.
      const held = e instanceof BridgeError && e.info.kind === 'Invalid' && e.info.field === 'image_url';
      const why = failure(e);
      this.#items.set(messageId, { state: 'failed', error: held ? () => tt('d.document') : () => tt('d.failed', { error: why() }) });
    }
  }
}
