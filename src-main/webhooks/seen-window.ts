/**
 * The ids accepted recently, bounded by count and by age, oldest first. Arrival order is kept in
 * an array read from a moving head, so evicting the oldest is O(1): iterating a Map from its
 * front after many deletes walks every deleted slot again, which at a full window cost more than
 * the rest of the request.
 */
export class SeenWindow {
  private readonly ids = new Map<string, number>();
  private order: string[] = [];
  private head = 0;
  /** Ageing out is checked every few hundred adds; the count bound on every add. */
  private sinceAgeCheck = 0;

  constructor(
    private readonly maxIds = 10_000,
    private readonly maxAgeMs = 24 * 60 * 60 * 1000,
  ) {}

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Callers add only ids not already here (they ask `has` first), so order stays by arrival. */
  add(id: string, receivedAt: number, nowMs: number): void {
    this.ids.set(id, receivedAt);
    this.order.push(id);
    if (this.ids.size > this.maxIds || ++this.sinceAgeCheck >= 256) {
      this.sinceAgeCheck = 0;
      this.prune(nowMs);
    }
  }

  prune(nowMs: number): void {
    while (this.head < this.order.length) {
      const id = this.order[this.head]!;
      const at = this.ids.get(id);
      if (at !== undefined && this.ids.size <= this.maxIds && nowMs - at <= this.maxAgeMs) break;
      this.ids.delete(id);
      this.head++;
    }
    // Drop the evicted prefix now and then, so the array does not grow without bound.
    if (this.head > 4096 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
  }

  get size(): number {
    return this.ids.size;
  }

  entries(): Array<[string, number]> {
    return [...this.ids];
  }
}
