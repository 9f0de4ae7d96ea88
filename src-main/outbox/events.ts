import { toRecord, type Note } from './notes';
import type { OutboxEvent, OutboxStatus } from './types';

/** The outbox's listeners (the bridge pushes to the renderer what they hear). */
export class OutboxEvents {
  readonly #listeners = new Set<(e: OutboxEvent) => void>();
  readonly #status: () => OutboxStatus;
  readonly #log: (message: string, detail?: unknown) => void;
  #lastStatusKey = '';

  /** `status` reads the outbox's current status whenever it may have changed. */
  constructor(status: () => OutboxStatus, log: (message: string, detail?: unknown) => void) {
    this.#status = status;
    this.#log = log;
  }

  /** Returns the unsubscribe. */
  subscribe(listener: (e: OutboxEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A note changed: its new record, then the status if that changed too. */
  changed(note: Note): void {
    this.note(note);
    this.status();
  }

  note(note: Note): void {
    this.emit({ type: 'note', note: toRecord(note) });
  }

  /** The status, only when it differs from the last one sent (a new retry time alone is no news). */
  status(): void {
    const status = this.#status();
    const key = JSON.stringify({ ...status, nextAttemptAt: undefined });
    if (key === this.#lastStatusKey) return;
    this.#lastStatusKey = key;
    this.emit({ type: 'status', status });
  }

  emit(e: OutboxEvent): void {
    for (const l of this.#listeners) {
      try {
        l(e);
      } catch (err) {
        this.#log('outbox: listener failed', err);
      }
    }
  }
}
