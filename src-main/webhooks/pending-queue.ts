/**
 * Accepted events waiting for the consumer, oldest first.
 *
 * Not a Map of id to event: events are added and removed on every request, and a Map that churns
 * like that keeps removed values reachable from its discarded tables until the next full
 * collection, so every event's body and parsed object survived the young-generation collections
 * and was copied twice. Here the order lives in an array read from a moving head, whose slots are
 * cleared as events leave. Membership by id is the caller's (an id set holds only strings).
 */
export class PendingQueue<T extends { id: string }> {
  private items: Array<T | undefined> = [];
  private head = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(item: T): void {
    this.items.push(item);
    this.count++;
  }

  first(): T | undefined {
    return this.count > 0 ? this.items[this.head] : undefined;
  }

  /** Removes the event with this id: O(1) for the first one, which is the common case. */
  remove(id: string): boolean {
    let at = -1;
    if (this.items[this.head]?.id === id) at = this.head;
    else {
      // Out of order only while replaying a journal at start.
      for (let i = this.head + 1; i < this.items.length; i++) {
        if (this.items[i]?.id === id) {
          at = i;
          break;
        }
      }
    }
    if (at === -1) return false;
    this.items[at] = undefined;
    this.count--;
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
