import type { WebhookListener, WebhookLogger } from '../../webhooks';
import type { Logger } from '../../log';

/** Requests the listener refused, by reason, since the console started. */
export interface Refusals {
  byReason: Record<string, number>;
  last: { reason: string; status: number; at: number } | null;
}

export interface ListenerCounts {
  accepted: number;
  duplicates: number;
  refused: number;
  busy: number;
  queued: number;
}

/** The listener logs each refusal with this message and `{status, reason}`: counted per reason. */
const REFUSED_MESSAGE = 'Refused a webhook request.';

/**
 * What the listener counted since the console started, over every run of it (each run counts
 * from zero), and its refusals by reason, heard through the logger it is given.
 */
export class ListenerTally {
  readonly #closed = { accepted: 0, duplicates: 0, refused: 0, busy: 0 };
  readonly #refusals: Refusals = { byReason: {}, last: null };
  /** The logger the listener writes to: refusals are counted on their way to `log`. */
  readonly logger: WebhookLogger;

  constructor(log: Logger, onRefusal: () => void, now: () => number) {
    this.logger = {
      info: (m, f) => log.info(m, f as Record<string, unknown> | undefined),
      warn: (m, f) => {
        const fields = f as Record<string, unknown> | undefined;
        if (m === REFUSED_MESSAGE && typeof fields?.reason === 'string') {
          this.#refusals.byReason[fields.reason] = (this.#refusals.byReason[fields.reason] ?? 0) + 1;
          this.#refusals.last = { reason: fields.reason, status: typeof fields.status === 'number' ? fields.status : 0, at: now() };
          onRefusal();
        }
        log.warn(m, fields);
      },
      error: (m, f) => log.error(m, f as Record<string, unknown> | undefined),
    };
  }

  /** A run of the listener closed: its counts are kept. */
  closed(l: WebhookListener): void {
    const s = l.stats();
    this.#closed.accepted += s.accepted;
    this.#closed.duplicates += s.duplicates;
    this.#closed.refused += s.rejected;
    this.#closed.busy += s.busy;
  }

  /** The closed runs' counts plus those of the running listener, if any. */
  counts(running: WebhookListener | null): ListenerCounts {
    const s = running?.stats();
    return {
      accepted: this.#closed.accepted + (s?.accepted ?? 0),
      duplicates: this.#closed.duplicates + (s?.duplicates ?? 0),
      refused: this.#closed.refused + (s?.rejected ?? 0),
      busy: this.#closed.busy + (s?.busy ?? 0),
      queued: s?.queued ?? 0,
    };
  }

  refusals(): Refusals {
    return { byReason: { ...this.#refusals.byReason }, last: this.#refusals.last };
  }
}
