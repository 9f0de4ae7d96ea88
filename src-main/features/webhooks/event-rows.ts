import { EVENT_LOG_ROWS, PUSHED_RAW_CHARS, type EventRow } from '../../../src-shared/bridge/webhooks';
import { redactJsonText } from '../../../src-shared/secret-fields';
import type { EventLogEntry, ReceivedEvent } from '../../webhooks';
import type { EventHub } from '../../bridge/table';
import type { LiveFeature } from '../live';

/** Main-side coalescing of pushes to the renderer: about one frame. */
export const PUSH_MS = 16;

/** A body for the event log's view: its secret fields hidden (as the bridge hides them in records), then cut to `max`. */
function cut(received: string, max: number | undefined): { raw: string; cut: boolean } {
  const raw = redactJsonText(received);
  return max !== undefined && raw.length > max ? { raw: raw.slice(0, max), cut: true } : { raw, cut: false };
}

function rowOfReceived(e: ReceivedEvent): EventRow {
  return {
    id: e.id,
    receivedAt: e.receivedAt,
    signature: e.signature,
    known: e.known,
    group: e.event?.group ?? null,
    type: e.event?.type ?? null,
    occurredAt: e.event?.occurredAt ?? null,
    ...cut(e.raw, PUSHED_RAW_CHARS),
  };
}

export function rowOfEntry(e: EventLogEntry, max?: number): EventRow {
  const body = cut(e.raw, max);
  return {
    id: e.id,
    receivedAt: e.receivedAt,
    signature: e.signature,
    known: e.known,
    group: e.group ?? null,
    type: e.type ?? null,
    occurredAt: e.occurredAt ?? null,
    raw: body.raw,
    cut: body.cut || e.truncated === true,
  };
}

/**
 * New events reach the renderer in batches, at most one per ~16 ms: a burst of a thousand a
 * second costs ~60 pushes. The first event after a quiet spell goes at once (next turn). It
 * listens to the live feature until disposed.
 */
export class EventRowFeed {
  readonly #events: EventHub;
  #pending: EventRow[] = [];
  #timer: ReturnType<typeof setTimeout> | null = null;
  #lastFlush = 0;
  readonly #off: () => void;

  constructor(live: LiveFeature, events: EventHub) {
    this.#events = events;
    this.#off = live.onReceived((e) => this.#add(e));
  }

  #add(e: ReceivedEvent): void {
    this.#pending.push(rowOfReceived(e));
    // The renderer keeps as many rows as the log: older ones of a huge burst would be dropped there anyway.
    if (this.#pending.length > EVENT_LOG_ROWS * 2) this.#pending = this.#pending.slice(-EVENT_LOG_ROWS);
    if (!this.#timer) {
      this.#timer = setTimeout(() => this.#flush(), Math.max(0, PUSH_MS - (performance.now() - this.#lastFlush)));
      this.#timer.unref?.();
    }
  }

  #flush(): void {
    this.#timer = null;
    this.#lastFlush = performance.now();
    const entries = this.#pending;
    this.#pending = [];
    if (entries.length) this.#events.emit('webhooks:events', { entries });
  }

  dispose(): void {
    this.#off();
    if (this.#timer) clearTimeout(this.#timer);
  }
}
