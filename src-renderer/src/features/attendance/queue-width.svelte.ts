import { QUEUE_WIDTH_MAX, QUEUE_WIDTH_MIN } from '../../../../src-shared/queue-width';
import type { Scope } from '../../lib/scope.svelte';

/** A drag or key presses are kept once they settle, not on every pixel. */
const SAVE_DELAY_MS = 150;

export { QUEUE_WIDTH_MAX, QUEUE_WIDTH_MIN };

/**
 * The queue column's width as the attendant set it (dragging its edge or with the arrow keys),
 * kept per workspace by the main process, so it is the same after a restart. Null: the layout's
 * default for the window's width.
 */
export class QueueWidth {
  readonly #scope: Scope;
  #width = $state<number | null>(null);
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(scope: Scope) {
    this.#scope = scope;
    scope.onClose(() => {
      if (this.#timer) clearTimeout(this.#timer);
    });
    void scope
      .invoke('attendance:queueWidth', {})
      .then((r) => {
        // A width set meanwhile (a drag before the answer) wins.
        if (this.#width === null) this.#width = r.width;
      })
      .catch(() => undefined);
  }

  get width(): number | null {
    return this.#width;
  }

  /**
   * Shows the column `px` wide; kept `now` (a drag let go), `soon` (key presses, folded into one
   * write) or not yet (`later`: a drag still moving).
   */
  set(px: number, keep: 'now' | 'soon' | 'later'): void {
    this.#width = Math.round(Math.min(QUEUE_WIDTH_MAX, Math.max(QUEUE_WIDTH_MIN, px)));
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (keep === 'now') this.#save();
    else if (keep === 'soon') this.#timer = setTimeout(() => this.#save(), SAVE_DELAY_MS);
  }

  #save(): void {
    this.#timer = null;
    void this.#scope.invoke('attendance:queueWidth', { width: this.#width }).catch(() => undefined);
  }
}
