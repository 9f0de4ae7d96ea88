/**
 * Accepted events waiting for the consumer, oldest first, with a lookup by id.
 *
 * Not a Map of id to event: events are added and removed on every request, and a Map that churns
 * like that keeps removed values reachable from its discarded tables until the next full
 * collection, so every event's body and parsed object survived the young-generation collections
 * and was copied twice. Here the order lives in an array read from a moving head, whose slots are
 * cleared as events leave, and the id set holds only strings.
 */
export class PendingQueue<T extends { id: string }> {
  private items: Array<T | undefined> = [];
  private head = 0;
  private readonly ids = new Set<string>();

  get size(): number {
    return this.ids.size;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Callers add an id only when it is not here already. */
  push(item: T): void {
    this.ids.add(item.id);
    this.items.push(item);
  }

  first(): T | undefined {
    return this.size > 0 ? this.items[this.head] : undefined;
  }

  /** Removes the event with this id; the common case is the first one, in O(1). */
  remove(id: string): boolean {
    if (!this.ids.delete(id)) return false;
    if (this.items[this.head]?.id === id) {
      this.items[this.head] = undefined;
    } else {
      // Out of order only while replaying a journal at start.
      for (let i = this.head; i < this.items.length; i++) {
        if (this.items[i]?.id === id) {
          this.items[i] = undefined;
          break;
        }
      }
    }
    while (this.head < this.items.length && this.items[this.head] === undefined) this.head++;
    if (this.head === this.items.length) {
      this.items.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return true;
  }

  /** Oldest first. */
  values(): T[] {
    const out: T[] = [];
    for (let i = this.head; i < this.items.length; i++) {
      const item = this.items[i];
      if (item !== undefined) out.push(item);
    }
    return out;
  }
}
