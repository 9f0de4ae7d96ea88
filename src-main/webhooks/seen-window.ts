/**
 * The ids accepted recently, bounded by count and by age, oldest first. Arrival order and times
 * are kept in arrays read from a moving head, so evicting the oldest is O(1) (iterating a Map
 * from its front after many deletes walks every deleted slot again), and the times sit unboxed in
 * a number array instead of one heap number per id.
 */
export class SeenWindow {
  private readonly ids = new Set<string>();
  private order: string[] = [];
  private times: number[] = [];
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
    this.ids.add(id);
    this.order.push(id);
    this.times.push(receivedAt);
    if (this.ids.size > this.maxIds || ++this.sinceAgeCheck >= 256) {
      this.sinceAgeCheck = 0;
      this.prune(nowMs);
    }
  }

  prune(nowMs: number): void {
    while (this.head < this.order.length) {
      if (this.ids.size <= this.maxIds && nowMs - this.times[this.head]! <= this.maxAgeMs) break;
      this.ids.delete(this.order[this.head]!);
      this.head++;
    }
    // Drop the evicted prefix now and then, so the arrays do not grow without bound.
    if (this.head > 4096 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }

  get size(): number {
    return this.ids.size;
  }

  /** [id, receivedAt], oldest first. */
  entries(): Array<[string, number]> {
    const out: Array<[string, number]> = [];
    for (let i = this.head; i < this.order.length; i++) out.push([this.order[i]!, this.times[i]!]);
    return out;
  }
}
