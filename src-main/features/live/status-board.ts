import type { Logger } from '../../log';
import { errorText } from '../../../src-shared/error-text';

/** How often at most the live status reaches the page and the listener's watchers. */
const STATUS_MS = 100;

/**
 * The live status's broadcast: a change is told to the page and to the watchers once per
 * ~100 ms at most, so a burst of events does not flood the indicator. It owns its timer.
 */
export class StatusBoard {
  readonly #emit: () => void;
  readonly #log: Logger;
  readonly #watchers = new Set<() => void>();
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(o: { emit: () => void; log: Logger }) {
    this.#emit = o.emit;
    this.#log = o.log;
  }

  /** Something changed: told within ~100 ms (coalesced with what follows). */
  push(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#emit();
      for (const l of this.#watchers) {
        try {
          l();
        } catch (e) {
          this.#log.warn('live: a change listener failed', { error: errorText(e) });
        }
      }
    }, STATUS_MS);
    this.#timer.unref?.();
  }

  onChange(listener: () => void): () => void {
    this.#watchers.add(listener);
    return () => this.#watchers.delete(listener);
  }

  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
