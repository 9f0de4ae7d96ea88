import type { WebhookEvent } from '../../src-shared/webhook';

export type SignatureState = 'valid' | 'unsigned';

export interface WebhookLogger {
  info(m: string, f?: object): void;
  warn(m: string, f?: object): void;
  error(m: string, f?: object): void;
}

/** One row of the event log (newest first when listed). */
export interface EventLogEntry {
  /** Idempotency key: the `webhook-id` header, else the body's id, else a hash of the body. */
  id: string;
  receivedAt: number;
  signature: SignatureState;
  /** Matched the envelope and one of the event groups the interface names (§6). */
  known: boolean;
  /** As the body names them, envelope or not. */
  group?: string;
  type?: string;
  occurredAt?: string;
  /** The body as received; in the log cut at its per-entry limit (then `truncated` is true). */
  raw: string;
  truncated?: boolean;
}

/** What the listener hands to `onEvent`, in the order events were accepted. */
export interface ReceivedEvent extends Omit<EventLogEntry, 'truncated'> {
  /** Present when the body parsed as the envelope (even with an unknown group). */
  event?: WebhookEvent;
}

export interface EventLogFilter {
  group?: string;
  type?: string;
  /** Case-insensitive substring of the id or the raw body. */
  text?: string;
  limit?: number;
}
