/**
 * The ids accepted recently, bounded by count and by age, oldest first.
 *
 * Kept as hashes in typed arrays, not as strings in a Set: every event adds an id and evicts
 * one, and a Set of strings churned that way cost the listener nearly as much CPU as verifying
 * the signature (the strings outlive young-generation collections and are copied, the tables
 * are rehashed and reallocated). Here nothing is allocated per id: a ring of (hash, time) oldest
 * first, and an open-addressing table (linear probing, deletion by shifting back) from hash to
 * ring slot.
 *
 * An id is remembered as two seeded 32-bit hashes, and two ids are taken for the same only when
 * both agree. With a full window of 10,000 ids the chance that a new id is taken for a repeat is
 * about 10,000 / 2^64, some 5e-16 per event. The seed is random per state directory (it is
 * saved with the window), so nobody can pick ids that collide.
 */
export type SeenSeed = readonly [number, number];
/** A remembered id: its two hashes and when it was received. */
export type SeenEntry = [h1: number, h2: number, receivedAt: number];

const randomSeed = (): SeenSeed => [(Math.random() * 0x100000000) | 0, (Math.random() * 0x100000000) | 0];

/** The final mix of MurmurHash3: every input bit affects every output bit. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

export class SeenWindow {
  readonly seed: SeenSeed;
  /** Ring capacity: one more than the count bound, as an add may briefly exceed it. */
  private readonly cap: number;
  private readonly mask: number;
  /** Open addressing: ring slot + 1, or 0 for empty. */
  private readonly table: Int32Array;
  private readonly h1s: Int32Array;
  private readonly h2s: Int32Array;
  private readonly times: Float64Array;
  private head = 0;
  private count = 0;
  /** Ageing out is checked every few hundred adds; the count bound on every add. */
  private sinceAgeCheck = 0;
  /** The hashes of the id last hashed (two numbers without an array per call). */
  private h1 = 0;
  private h2 = 0;

  private readonly maxIds: number;

  constructor(
    maxIds = 10_000,
    private readonly maxAgeMs = 24 * 60 * 60 * 1000,
    seed: SeenSeed = randomSeed(),
  ) {
    this.seed = [seed[0] | 0, seed[1] | 0];
    // A whole number of at least one: the ring and the table are sized from it.
    this.maxIds = Number.isFinite(maxIds) ? Math.max(1, Math.floor(maxIds)) : 1;
    this.cap = this.maxIds + 1;
    // At most half full, so probes stay short.
    let size = 16;
    while (size < this.cap * 2) size *= 2;
    this.mask = size - 1;
    this.table = new Int32Array(size);
    this.h1s = new Int32Array(this.cap);
    this.h2s = new Int32Array(this.cap);
    this.times = new Float64Array(this.cap);
  }

  has(id: string): boolean {
    this.hash(id);
    return this.find(this.h1, this.h2);
  }

  /** Callers add only ids not already here (they ask `has` first), so order stays by arrival. */
  add(id: string, receivedAt: number, nowMs: number): void {
    this.hash(id);
    this.insert(this.h1, this.h2, receivedAt, nowMs);
  }

  /** Adds an entry as `entries` gives it; its hashes must come from a window with the same seed. */
  addEntry(entry: SeenEntry, nowMs: number): void {
    this.insert(entry[0] | 0, entry[1] | 0, entry[2], nowMs);
  }

  private insert(h1: number, h2: number, receivedAt: number, nowMs: number): void {
    let r = this.head + this.count;
    if (r >= this.cap) r -= this.cap;
    this.h1s[r] = h1;
    this.h2s[r] = h2;
    this.times[r] = receivedAt;
    const mask = this.mask;
    let i = h1 & mask;
    while (this.table[i] !== 0) i = (i + 1) & mask;
    this.table[i] = r + 1;
    this.count++;
    if (this.count > this.maxIds || ++this.sinceAgeCheck >= 256) {
      this.sinceAgeCheck = 0;
      this.prune(nowMs);
    }
  }

  prune(nowMs: number): void {
    while (this.count > 0 && (this.count > this.maxIds || nowMs - this.times[this.head]! > this.maxAgeMs)) this.evictOldest();
  }

  get size(): number {
    return this.count;
  }

  /** Oldest first, for a snapshot (to be read back with the same seed). */
  entries(): SeenEntry[] {
    const out: SeenEntry[] = [];
    for (let k = 0, r = this.head; k < this.count; k++, r = r + 1 === this.cap ? 0 : r + 1) {
      out.push([this.h1s[r]!, this.h2s[r]!, this.times[r]!]);
    }
    return out;
  }

  private hash(id: string): void {
    let a = this.seed[0] ^ id.length;
    let b = this.seed[1] ^ Math.imul(id.length, 0x9e3779b1);
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    this.h1 = mix(a);
    this.h2 = mix(b);
  }

  private find(h1: number, h2: number): boolean {
    const mask = this.mask;
    for (let i = h1 & mask; ; i = (i + 1) & mask) {
      const s = this.table[i]!;
      if (s === 0) return false;
      if (this.h1s[s - 1] === h1 && this.h2s[s - 1] === h2) return true;
    }
  }

  private evictOldest(): void {
    const r = this.head;
    const mask = this.mask;
    let i = this.h1s[r]! & mask;
    while (this.table[i] !== r + 1) i = (i + 1) & mask;
    // Shift back the entries after the hole that may not stay behind it.
    for (let j = i; ; ) {
      j = (j + 1) & mask;
      const s = this.table[j]!;
      if (s === 0) break;
      const home = this.h1s[s - 1]! & mask;
      if (((j - home) & mask) >= ((j - i) & mask)) {
        this.table[i] = s;
        i = j;
      }
    }
    this.table[i] = 0;
    this.head = r + 1 === this.cap ? 0 : r + 1;
    this.count--;
  }
}
