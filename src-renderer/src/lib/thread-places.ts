/**
 * Where the reader was in a thread: the row at the top of the view and how far into it, or at
 * the newest message (`stuck`), which the view then follows.
 */
export interface ThreadPlace {
  anchor: { key: string; delta: number } | null;
  stuck: boolean;
}

/**
 * Where the reader was in each thread opened in this workspace (not reactive: read when a thread
 * shows). A store of its own in lib: the attendance thread keeps it, and a search hit opened from
 * the history sets it, without either feature reaching into the other.
 */
export class ThreadPlaces {
  readonly #places = new Map<number, ThreadPlace>();

  placeOf(sessionId: number): ThreadPlace | null {
    return this.#places.get(sessionId) ?? null;
  }

  keepPlace(sessionId: number, place: ThreadPlace): void {
    this.#places.set(sessionId, place);
  }
}
