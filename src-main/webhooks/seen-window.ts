/**
 * The ids accepted recently, bounded by count and by age, oldest first. A Map keeps insertion
 * order, so pruning only ever looks at the front.
 */
export class SeenWindow {
  private readonly ids = new Map<string, number>();
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
    if (this.ids.size > this.maxIds || ++this.sinceAgeCheck >= 256) {
      this.sinceAgeCheck = 0;
      this.prune(nowMs);
    }
  }

  prune(nowMs: number): void {
    for (const [id, at] of this.ids) {
      if (this.ids.size <= this.maxIds && nowMs - at <= this.maxAgeMs) break;
      this.ids.delete(id);
    }
  }

  get size(): number {
    return this.ids.size;
  }

  entries(): Array<[string, number]> {
    return [...this.ids];
  }
}
