/**
 * The ids accepted recently, for dedupe: an id seen within `maxAgeMs` (default 24 hours) is a
 * duplicate however many events came between. `maxIds` (default 200,000, some 20 MB at most)
 * only caps memory (about 20 MB with ids of 40 characters); past it the oldest ids go first.
 *
 * Forgetting an id early costs little: events are hints to the sync, which reads the service
 * itself, so a late duplicate is handled twice and changes nothing.
 */
export const SEEN_MAX_IDS = 200_000;
export const SEEN_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export class SeenWindow {
  /** Id to when it was received; a Map keeps insertion order, so the oldest come first. */
  readonly #ids = new Map<string, number>();

  readonly #maxIds: number;
  readonly #maxAgeMs: number;

  constructor(maxIds = SEEN_MAX_IDS, maxAgeMs = SEEN_MAX_AGE_MS) {
    this.#maxIds = maxIds;
    this.#maxAgeMs = maxAgeMs;
  }

  has(id: string, nowMs: number): boolean {
    const at = this.#ids.get(id);
    return at !== undefined && nowMs - at <= this.#maxAgeMs;
  }

  add(id: string, receivedAt: number, nowMs: number): void {
    // Deleted first so that an expired id seen again moves to the end: the order stays by arrival.
    this.#ids.delete(id);
    this.#ids.set(id, receivedAt);
    for (const [oldest, at] of this.#ids) {
      if (this.#ids.size <= this.#maxIds && nowMs - at <= this.#maxAgeMs) break;
      this.#ids.delete(oldest);
    }
  }

  get size(): number {
    return this.#ids.size;
  }

  /** Oldest first, for a snapshot. */
  entries(): Array<[string, number]> {
    return [...this.#ids];
  }
}
