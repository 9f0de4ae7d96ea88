import type { EventRow } from '../../../../src-shared/bridge/webhooks';
import { failure, type Worded, worded } from '../../lib/bridge';
import type { Scope } from '../../lib/scope.svelte';
import { ReadRetry } from '../../lib/read-retry.svelte';
import { LOG_ROWS, matches, NO_FILTER, type RowFilter } from './rows';

/**
 * Measurement hook for bench/events-latency.ts: when a page defines it, it hears which rows
 * reached this store and when (ms since the epoch). Nothing in the console sets it.
 */
type Probe = (ids: string[], at: number) => void;
const probe = (): Probe | undefined => (globalThis as { __eventLogProbe?: Probe }).__eventLogProbe;

const FILTER_DEBOUNCE_MS = 200;

/**
 * The listener's recent events. Pushed rows wait in an inbox and are applied once per animation
 * frame, so a burst of a thousand events a second costs one state change (and one render) per
 * frame, not one per event. Reading the log again (a filter change) replaces the rows.
 */
export class EventLogStore {
  readonly #scope: Scope;
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  #rows = $state.raw<EventRow[]>([]);
  #filter = $state<RowFilter>({ ...NO_FILTER });
  #loading = $state(false);
  #loaded = $state(false);
  #error = $state.raw<Worded | null>(null);
  #selectedId = $state<string | null>(null);
  /** The selected event's whole body, when the pushed row was cut. */
  #full = $state.raw<EventRow | null>(null);
  /** Every type seen, for the type filter (a filtered list would hide the others). */
  #types = $state.raw<string[]>([]);

  get rows() {
    return this.#rows;
  }
  get filter() {
    return this.#filter;
  }
  get loading() {
    return this.#loading;
  }
  get loaded() {
    return this.#loaded;
  }
  get error() {
    return worded(this.#error);
  }
  /** When the log that could not be read is asked again by itself (ms since epoch), or null. */
  get retryAt() {
    return this.#retry.at;
  }
  readonly #retry = new ReadRetry();
  get selectedId() {
    return this.#selectedId;
  }
  get full() {
    return this.#full;
  }
  get types() {
    return this.#types;
  }

  #inbox: EventRow[] = [];
  #frame = 0;
  /** Following the pushed rows (the scope stops it when it closes). */
  #following = false;
  #gen = 0;
  #debounce: ReturnType<typeof setTimeout> | null = null;

  get selected(): EventRow | null {
    const id = this.#selectedId;
    if (id === null) return null;
    if (this.#full?.id === id) return this.#full;
    return this.#rows.find((r) => r.id === id) ?? null;
  }

  get filtered(): boolean {
    return this.#filter.group !== '' || this.#filter.type !== '' || this.#filter.text !== '';
  }

  /** Starts listening for pushed rows (once). */
  listen(): void {
    if (!this.#following) {
      this.#following = true;
      this.#scope.on('webhooks:events', ({ entries }) => this.#receive(entries));
    }
  }

  #receive(entries: EventRow[]): void {
    for (const e of entries) this.#inbox.push(e);
    // A hidden window gets no frames: keep only what the list could show.
    if (this.#inbox.length > LOG_ROWS * 2) this.#inbox = this.#inbox.slice(-LOG_ROWS);
    if (!this.#frame) this.#frame = requestAnimationFrame(() => this.#flush());
  }

  #flush(): void {
    this.#frame = 0;
    const incoming = this.#inbox;
    this.#inbox = [];
    if (!incoming.length) return;
    this.#noteTypes(incoming);
    const f = { ...this.#filter };
    const fresh: EventRow[] = [];
    for (let i = incoming.length - 1; i >= 0; i--) {
      const r = incoming[i]!;
      if (matches(r, f)) fresh.push(r);
    }
    if (fresh.length) {
      const ids = new Set(fresh.map((r) => r.id));
      const kept = this.#rows.filter((r) => !ids.has(r.id));
      this.#rows = fresh.length >= LOG_ROWS ? fresh.slice(0, LOG_ROWS) : [...fresh, ...kept.slice(0, LOG_ROWS - fresh.length)];
    }
    const p = probe();
    if (p)
      p(
        incoming.map((r) => r.id),
        performance.timeOrigin + performance.now(),
      );
  }

  #noteTypes(rows: EventRow[]): void {
    let added = false;
    const known = new Set(this.#types);
    for (const r of rows) {
      if (r.type && !known.has(r.type) && known.size < 200) {
        known.add(r.type);
        added = true;
      }
    }
    if (added) this.#types = [...known].sort();
  }

  /** Reads the log from the listener with the current filter. */
  async load(): Promise<void> {
    this.listen();
    const gen = ++this.#gen;
    this.#loading = true;
    this.#retry.stop();
    const f = { ...this.#filter };
    try {
      const { entries } = await this.#scope.invoke('webhooks:log', {
        ...(f.group ? { group: f.group } : {}),
        ...(f.type ? { type: f.type } : {}),
        ...(f.text ? { text: f.text } : {}),
      });
      if (gen !== this.#gen) return;
      // Rows pushed meanwhile are newer than the read: they stay in front.
      const ids = new Set(entries.map((e) => e.id));
      const newer = this.#rows.filter((r) => !ids.has(r.id) && r.receivedAt >= (entries[0]?.receivedAt ?? 0) && matches(r, f));
      this.#rows = [...newer, ...entries].slice(0, LOG_ROWS);
      this.#noteTypes(entries);
      this.#loaded = true;
      this.#error = null;
      this.#retry.reset();
    } catch (e) {
      if (gen !== this.#gen) return;
      // What was shown stays (rows of another filter are not this one's: the list says it could not load).
      this.#error = failure(e);
      this.#retry.failedCall(e, () => void this.load());
    } finally {
      if (gen === this.#gen) this.#loading = false;
    }
  }

  setFilter(change: Partial<RowFilter>): void {
    this.#filter = { ...this.#filter, ...change };
    if (this.#debounce) clearTimeout(this.#debounce);
    // Typing in the search box reads the log once the user pauses.
    this.#debounce = setTimeout(
      () => {
        this.#debounce = null;
        void this.load();
      },
      change.text !== undefined ? FILTER_DEBOUNCE_MS : 0,
    );
  }

  clearFilter(): void {
    this.setFilter({ ...NO_FILTER });
  }

  async select(id: string | null): Promise<void> {
    this.#selectedId = id;
    this.#full = null;
    const row = id === null ? null : this.#rows.find((r) => r.id === id);
    if (!row?.cut) return;
    try {
      const { entry } = await this.#scope.invoke('webhooks:entry', { id: row.id });
      if (this.#selectedId === row.id && entry) this.#full = entry;
    } catch (e) {
      this.#error = failure(e);
    }
  }

  /** The workspace closed: nothing left to apply. */
  dispose(): void {
    if (this.#frame) cancelAnimationFrame(this.#frame);
    if (this.#debounce) clearTimeout(this.#debounce);
    this.#retry.stop();
    this.#frame = 0;
    this.#debounce = null;
    this.#inbox = [];
  }
}
