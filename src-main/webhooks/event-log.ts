import type { EventLogEntry, EventLogFilter } from './types';

/**
 * Recent accepted events, a fixed-size ring. Raw bodies are cut per entry so that a burst of
 * large events cannot make a long-running console hold hundreds of megabytes.
 */
export class EventLog {
  private readonly ring: Array<EventLogEntry | undefined>;
  private next = 0;
  private count = 0;

  constructor(
    readonly capacity = 500,
    private readonly maxRawChars = 32 * 1024,
  ) {
    this.ring = new Array<EventLogEntry | undefined>(capacity);
  }

  push(entry: EventLogEntry): void {
    const kept =
      entry.raw.length > this.maxRawChars ? { ...entry, raw: entry.raw.slice(0, this.maxRawChars), truncated: true } : entry;
    this.ring[this.next] = kept;
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  /** Oldest first: the order to persist and to replay in. */
  all(): EventLogEntry[] {
    const out: EventLogEntry[] = [];
    for (let i = 0; i < this.count; i++) {
      const e = this.ring[(this.next - this.count + i + this.capacity) % this.capacity];
      if (e) out.push(e);
    }
    return out;
  }

  /** Newest first, filtered. */
  list(filter: EventLogFilter = {}): EventLogEntry[] {
    const limit = filter.limit ?? this.capacity;
    const text = filter.text?.toLowerCase();
    const out: EventLogEntry[] = [];
    for (let i = 1; i <= this.count && out.length < limit; i++) {
      const e = this.ring[(this.next - i + this.capacity) % this.capacity];
      if (!e) continue;
      if (filter.group !== undefined && e.group !== filter.group) continue;
      if (filter.type !== undefined && e.type !== filter.type) continue;
      if (text && !e.id.toLowerCase().includes(text) && !e.raw.toLowerCase().includes(text)) continue;
      out.push(e);
    }
    return out;
  }
}
