/**
 * The stand-in's records: one collection per resource, in memory, optionally mirrored to a data
 * directory (one JSON file per collection, written atomically: temp file, fsync, rename, fsync
 * of the directory). Writes are coalesced for a few milliseconds and flushed on close.
 */
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { COMPOSITE_KEYS, SPECS, isPlainObject, type CollectionName } from './fields';
import type { Rec, Resolver } from './query-engine';
import { keepPrivate, writeAtomic } from './files';

export const COLLECTIONS = Object.keys(SPECS) as CollectionName[];

/** Secondary indexes: the keys the console filters by EQNUM on big collections. */
const INDEXED: Partial<Record<CollectionName, Record<string, (r: Rec) => unknown>>> = {
  message: { 'session.id': (r) => (r.session as Rec | null | undefined)?.id },
  sessionComment: { sessionId: (r) => r.sessionId },
  user: { userName: (r) => r.userName, accessKey: (r) => r.accessKey },
  call: { sessionId: (r) => r.sessionId },
  npsAnswer: { sessionId: (r) => r.sessionId },
};

export function compositeKeyOf(name: CollectionName, rec: Rec): string | null {
  const ck = COMPOSITE_KEYS[name];
  if (!ck) return null;
  const v = rec[ck.field] as Rec | null | undefined;
  if (!v || typeof v !== 'object') return null;
  return ck.parts.map((p) => String(v[p])).join(':');
}

/** Numeric ids key the map as numbers (cheaper than strings on every reference lookup). */
type Key = number | string;
const toKey = (id: unknown): Key => (typeof id === 'number' ? id : typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : String(id));

export class Collection {
  readonly records = new Map<Key, Rec>();
  nextId = 1;
  readonly #indexes = new Map<string, { read: (r: Rec) => unknown; map: Map<unknown, Rec[]> }>();

  constructor(readonly name: CollectionName) {
    for (const [key, read] of Object.entries(INDEXED[name] ?? {})) this.#indexes.set(key, { read, map: new Map() });
  }

  keyOf(rec: Rec): Key {
    return compositeKeyOf(this.name, rec) ?? toKey(rec.id);
  }

  get(id: unknown): Rec | undefined {
    return this.records.get(typeof id === 'number' ? id : toKey(id));
  }

  values(): IterableIterator<Rec> {
    return this.records.values();
  }

  get size(): number {
    return this.records.size;
  }

  /** Assigns the next integer id. */
  allocateId(): number {
    return this.nextId++;
  }

  put(rec: Rec): void {
    const key = this.keyOf(rec);
    // Records are replaced, never mutated in place, so `old` still holds the indexed values.
    const old = this.records.get(key);
    if (old) this.#unindex(old);
    this.records.set(key, rec);
    if (typeof rec.id === 'number' && rec.id >= this.nextId) this.nextId = rec.id + 1;
    for (const idx of this.#indexes.values()) {
      const v = idx.read(rec);
      if (v == null) continue;
      const bucket = idx.map.get(v);
      if (bucket) bucket.push(rec);
      else idx.map.set(v, [rec]);
    }
  }

  #unindex(rec: Rec): void {
    for (const idx of this.#indexes.values()) {
      const v = idx.read(rec);
      const bucket = v == null ? undefined : idx.map.get(v);
      if (!bucket) continue;
      const i = bucket.indexOf(rec);
      if (i >= 0) bucket.splice(i, 1);
    }
  }

  /** Records whose indexed key equals value, in collection order; undefined if the key has no index. */
  lookup(key: string, value: unknown): Rec[] | undefined {
    const idx = this.#indexes.get(key);
    if (!idx) return undefined;
    return idx.map.get(value) ?? [];
  }

  hasIndex(key: string): boolean {
    return this.#indexes.has(key);
  }

  clear(): void {
    this.records.clear();
    for (const idx of this.#indexes.values()) idx.map.clear();
    this.nextId = 1;
  }
}

// A record is checked for being an object and kept as it is: checking each of its keys and values
// (z.record) was most of loading the demo's data, on every start.
const StoredRecordSchema = z.custom<Rec>(isPlainObject, 'expected a record');
const CollectionFileSchema = z.object({ nextId: z.number().int().min(1), records: z.array(StoredRecordSchema) });
const ExtraFileSchema = StoredRecordSchema;

export class Store {
  readonly c: Record<CollectionName, Collection>;
  /** Small named documents outside the collections (webhook registrations, meta). */
  readonly #extras = new Map<string, unknown>();
  readonly #dirty = new Set<string>();
  #flushTimer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(readonly dataDir: string | undefined) {
    this.c = Object.fromEntries(COLLECTIONS.map((n) => [n, new Collection(n)])) as Record<CollectionName, Collection>;
  }

  readonly resolve: Resolver = (collection, id) => (id == null ? undefined : this.c[collection].get(id));

  getExtra(name: string): unknown {
    return this.#extras.get(name);
  }

  setExtra(name: string, value: unknown): void {
    this.#extras.set(name, value);
    this.markDirty(`extra:${name}`);
  }

  markDirty(what: CollectionName | `extra:${string}`): void {
    if (!this.dataDir || this.#closed) return;
    this.#dirty.add(what);
    this.#flushTimer ??= setTimeout(() => {
      this.#flushTimer = null;
      void this.flush();
    }, 20);
  }

  /** Loads a data directory; false when it holds no data yet (the caller seeds it). */
  async load(): Promise<boolean> {
    if (!this.dataDir) return false;
    await mkdir(this.dataDir, { recursive: true, mode: 0o700 });
    await keepPrivate(this.dataDir);
    const names = new Set(await readdir(this.dataDir));
    if (!names.has('meta.json')) return false;
    for (const name of COLLECTIONS) {
      const file = `${name}.json`;
      if (!names.has(file)) continue;
      const parsed = CollectionFileSchema.parse(JSON.parse(await readFile(join(this.dataDir, file), 'utf8')));
      const col = this.c[name];
      col.clear();
      for (const r of parsed.records) col.put(r);
      col.nextId = Math.max(col.nextId, parsed.nextId);
    }
    for (const file of names) {
      if (!file.startsWith('extra-') || !file.endsWith('.json')) continue;
      const doc = ExtraFileSchema.parse(JSON.parse(await readFile(join(this.dataDir, file), 'utf8')));
      this.#extras.set(file.slice(6, -5), doc.value);
    }
    return true;
  }

  /** Marks everything dirty (after seeding a fresh data directory). */
  markAllDirty(): void {
    for (const n of COLLECTIONS) this.markDirty(n);
    for (const k of this.#extras.keys()) this.markDirty(`extra:${k}`);
  }

  flush(): Promise<void> {
    const run = async (): Promise<void> => {
      if (!this.dataDir || this.#dirty.size === 0) return;
      const todo = [...this.#dirty];
      this.#dirty.clear();
      for (const what of todo) {
        if (what.startsWith('extra:')) {
          const name = what.slice(6);
          await writeAtomic(this.dataDir, `extra-${name}.json`, JSON.stringify({ value: this.#extras.get(name) ?? null }));
        } else {
          const col = this.c[what as CollectionName];
          await writeAtomic(this.dataDir, `${what}.json`, JSON.stringify({ nextId: col.nextId, records: [...col.values()] }));
        }
      }
      // meta.json last: its presence says the directory holds a complete data set.
      await writeAtomic(this.dataDir, 'meta.json', JSON.stringify({ format: 1 }));
    };
    this.#flushing = this.#flushing.then(run, run);
    return this.#flushing;
  }

  async close(): Promise<void> {
    if (this.#flushTimer) clearTimeout(this.#flushTimer);
    this.#flushTimer = null;
    await this.flush();
    this.#closed = true;
  }
}
