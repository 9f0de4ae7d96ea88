/**
 * The listener's durable state: the seen-id window, the event log and the accepted events not
 * yet handed to `onEvent`.
 *
 * Layout in `dir`: `state.json` (a snapshot, replaced atomically) and `journal-<gen>.ndjson`
 * (append-only). The snapshot names the first journal generation it does not cover; loading
 * replays every journal from there in order, so a crash at any step of a compaction, or a
 * snapshot that could not be written, leaves an unambiguous set to load. A journal holds:
 *  - an accepted event: a JSON header line (`k: "e"`, id, receivedAt, signature state and
 *    `bytes`; group, type and the rest are read from the body on replay), then the body exactly
 *    as received, `bytes` long, then a newline. The body is never re-encoded:
 *    escaping every body into a JSON string cost more than anything else the journal does.
 *  - a processed marker: `{"k":"d","through":...}`: every event up to and including that id is
 *    processed (events are processed in the order they were written, one at a time), so one
 *    marker per write covers them all. Read only: `{"k":"d","id":...}`, one event.
 *  - (read only) an accepted event of the first format, body inline: `k: "a"` with `raw`.
 *
 * Guarantee. An event's line (id and body together) is written before the event is
 * acknowledged, and its id joins the seen window only then; a duplicate of an id still being
 * written waits for that write. So an id is never remembered without its event, and a repeat
 * can never be acknowledged in place of an event that was not kept. Records are group-committed:
 * everything that arrives in one turn of the event loop shares one write. Compaction starts a
 * fresh journal at once and writes the snapshot in the background, so no acknowledgement waits
 * for it.
 *  - durability 'write' (default): acknowledged once the line is handed to the operating system
 *    (a synchronous append to the page cache, microseconds); fdatasync follows within
 *    `syncIntervalMs`. Survives any crash or kill of the console. A power loss or OS crash can
 *    drop the acknowledged events of the last interval (about 100 ms), id and body together; the
 *    sync engine's resync at start is what covers that window (events are hints).
 *  - durability 'fsync': acknowledged only after fdatasync. Survives power loss too, at the
 *    cost of one disk flush per batch in every acknowledgement.
 * Processed markers are never synced on their own: losing one only replays an event, so
 * delivery is at least once across crashes and exactly once within a run.
 */
import { closeSync, fdatasync, openSync, writeSync } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { WebhookEvent } from '../../src-shared/webhook';
import { describeBody, type BodyFacts } from './check-request';
import { EventLog } from './event-log';
import { PendingQueue } from './pending-queue';
import { SeenWindow } from './seen-window';
import type { EventLogEntry, EventLogFilter, SignatureState, WebhookLogger } from './types';

/** What is journaled for an accepted event: an event-log row with its whole body. */
export type AcceptedRecord = Omit<EventLogEntry, 'truncated'>;

/** In memory only: the parsed envelope and the body's bytes ride along so neither is made twice. */
export interface PendingEvent extends AcceptedRecord {
  event?: WebhookEvent;
  /** The body as received (`raw` is its text); dropped once journaled. */
  body?: Buffer | undefined;
}

const AcceptedSchema = z.object({
  id: z.string().min(1),
  receivedAt: z.number(),
  signature: z.enum(['valid', 'unsigned']),
  known: z.boolean(),
  group: z.string().optional(),
  type: z.string().optional(),
  occurredAt: z.string().optional(),
  raw: z.string(),
});
const JournalLineSchema = z.discriminatedUnion('k', [
  // Written without `known`, group, type and occurredAt since they are read from the body; older
  // journals have them in the header.
  AcceptedSchema.omit({ raw: true })
    .partial({ known: true })
    .extend({ k: z.literal('e'), bytes: z.number().int().nonnegative() }),
  AcceptedSchema.extend({ k: z.literal('a') }),
  z
    .object({ k: z.literal('d'), through: z.string().min(1).optional(), id: z.string().min(1).optional() })
    .refine((d) => (d.through === undefined) !== (d.id === undefined), 'a marker names one event'),
]);
const SnapshotSchema = z.object({
  v: z.literal(1),
  nextGen: z.number().int().positive(),
  /**
   * The seen window, oldest first: [hash, hash, receivedAt] under `seenSeed`; snapshots written
   * before the window kept hashes have [id, receivedAt].
   */
  seen: z.array(z.union([z.tuple([z.number().int(), z.number().int(), z.number()]), z.tuple([z.string(), z.number()])])),
  seenSeed: z.tuple([z.number().int(), z.number().int()]).optional(),
  log: z.array(AcceptedSchema.extend({ truncated: z.boolean().optional() })),
  pending: z.array(AcceptedSchema),
});
type Snapshot = z.infer<typeof SnapshotSchema>;

export interface WebhookStateOptions {
  dir: string;
  now: () => number;
  log: WebhookLogger;
  seenMaxIds?: number;
  seenMaxAgeMs?: number;
  logCapacity?: number;
  /** Journal size that triggers a snapshot; small values exercise compaction in tests. */
  compactBytes?: number;
  /** See the guarantee above. Default 'write'. */
  durability?: 'write' | 'fsync';
  /** In 'write' mode, how soon written lines are flushed to the disk. Default 100 ms. */
  syncIntervalMs?: number;
  /** The journal's write, for tests that make the disk fail. Default `fs.writeSync`. */
  writeJournal?: (fd: number, buf: Buffer, offset: number, length: number) => number;
}

/** Told once, when a commit settles: without an error once the event is durable. */
export interface CommitWaiter {
  committed(error?: unknown): void;
}

interface Settle {
  resolve(): void;
  reject(e: unknown): void;
}

interface BatchItem {
  rec: PendingEvent;
  waiter: CommitWaiter;
}

const SNAPSHOT = 'state.json';
const journalName = (gen: number) => `journal-${gen}.ndjson`;
const JOURNAL_RE = /^journal-(\d+)\.ndjson$/;

function recordOf(p: PendingEvent): AcceptedRecord {
  const r: AcceptedRecord = { id: p.id, receivedAt: p.receivedAt, signature: p.signature, known: p.known, raw: p.raw };
  if (p.group !== undefined) r.group = p.group;
  if (p.type !== undefined) r.type = p.type;
  if (p.occurredAt !== undefined) r.occurredAt = p.occurredAt;
  return r;
}

type WriteFn = NonNullable<WebhookStateOptions['writeJournal']>;

function writeAllSync(write: WriteFn, fd: number, buf: Buffer, length: number): void {
  let off = 0;
  while (off < length) off += write(fd, buf, off, length - off);
}

const datasync = (fd: number) =>
  new Promise<void>((resolve, reject) => fdatasync(fd, (e) => (e ? reject(e) : resolve())));

/**
 * An accepted event's header line, built by hand: this runs for every event. Only what the body
 * cannot tell: group, type and the rest are read from the body again on replay (`factsOf`).
 */
function recordHead(p: PendingEvent, bytes: number): string {
  return `{"k":"e","id":${JSON.stringify(p.id)},"receivedAt":${p.receivedAt},"signature":"${p.signature}","bytes":${bytes}}\n`;
}

/** The event-log facts of a replayed body (it parsed when it was accepted). */
function factsOf(raw: string): BodyFacts {
  const facts: BodyFacts = { known: false };
  try {
    describeBody(JSON.parse(raw), facts);
  } catch {
    // kept as received, with no facts
  }
  delete facts.event;
  return facts;
}

type JournalEntry = { k: 'd'; id?: string | undefined; through?: string | undefined } | ({ k: 'a' } & AcceptedRecord);

/**
 * Reads one journal generation. A line that does not parse is skipped and counted. An event
 * whose body is cut short ends the reading: appends only ever tear at the end, and reading on
 * from inside a body could take its text for records.
 */
function readJournal(buf: Buffer): { entries: JournalEntry[]; skipped: number } {
  const entries: JournalEntry[] = [];
  let skipped = 0;
  let pos = 0;
  while (pos < buf.length) {
    let nl = buf.indexOf(0x0a, pos);
    if (nl === -1) nl = buf.length;
    const line = buf.toString('utf8', pos, nl);
    pos = nl + 1;
    if (line === '') continue;
    let rec: z.infer<typeof JournalLineSchema> | undefined;
    try {
      const r = JournalLineSchema.safeParse(JSON.parse(line));
      rec = r.success ? r.data : undefined;
    } catch {
      rec = undefined;
    }
    if (!rec) {
      // A torn last line was never acknowledged (acks wait for the write).
      skipped++;
      continue;
    }
    if (rec.k === 'e') {
      const end = pos + rec.bytes;
      if (end >= buf.length || buf[end] !== 0x0a) {
        skipped++;
        break;
      }
      const { k: _k, bytes: _bytes, known, ...fields } = rec;
      const raw = buf.toString('utf8', pos, end);
      entries.push(known === undefined ? { k: 'a', ...fields, ...factsOf(raw), raw } : { k: 'a', ...fields, known, raw });
      pos = end + 1;
    } else {
      entries.push(rec);
    }
  }
  return { entries, skipped };
}

/** Batches up to this size are assembled in one reused buffer. */
const SCRATCH_BYTES = 256 * 1024;

/** Settles one item; a waiter that throws must not keep the others of its batch waiting. */
function tell(i: BatchItem, error: unknown, log: WebhookLogger): void {
  try {
    i.waiter.committed(error);
  } catch (e) {
    log.error('A webhook commit waiter failed.', { error: String(e) });
  }
}

async function writeAll(fh: FileHandle, buf: Buffer): Promise<void> {
  let off = 0;
  while (off < buf.length) {
    const { bytesWritten } = await fh.write(buf, off, buf.length - off);
    off += bytesWritten;
  }
}

/** Makes a rename or a new file durable; some platforms cannot open a directory, which is fine. */
async function syncDir(dir: string): Promise<void> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(dir, 'r');
    await fh.sync();
  } catch {
    // best effort
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

async function writeFileAtomic(dir: string, name: string, data: string): Promise<void> {
  const tmp = join(dir, `${name}.tmp`);
  const fh = await open(tmp, 'w');
  try {
    await writeAll(fh, Buffer.from(data, 'utf8'));
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, join(dir, name));
  await syncDir(dir);
}

export class WebhookState {
  /** Replaced once while loading, by the window of the snapshot's seed. */
  private seen: SeenWindow;
  private readonly events: EventLog;
  private readonly pending = new PendingQueue<PendingEvent>();
  /**
   * Ids accepted or being accepted and not yet processed: pending, in the batch or being
   * written. Only ids: a per-request Map of batch items kept each request's objects alive
   * through young-generation collections (see PendingQueue).
   */
  private readonly open = new Set<string>();
  /** Items taken from the batch whose write is still being awaited (fsync, slow path only). */
  private writing: BatchItem[] | null = null;
  /** Reused to assemble each batch's bytes; the writes are synchronous. */
  private readonly scratch = Buffer.allocUnsafe(SCRATCH_BYTES);
  /** Duplicates that arrived while their id was being written (rare; see `whenDurable`). */
  private readonly waiting = new Map<string, Settle[]>();
  private readonly compactBytes: number;
  private batch: BatchItem[] = [];
  /** A flush is queued for the end of this turn of the event loop. */
  private scheduled = false;
  /** The asynchronous flush ('fsync' durability) while it runs. */
  private flushing: Promise<void> | null = null;
  /** The snapshot being written in the background; true once it is in place. */
  private snapshotting: Promise<boolean> | null = null;
  /** A journal was started while a snapshot was being written: take another after it. */
  private snapshotDue = false;
  /** Journals no longer written are closed in this chain, after their last flush. */
  private retiring: Promise<void> = Promise.resolve();
  /** A journal was started since the directory was last synced ('fsync' durability). */
  private dirUnsynced = false;
  private readonly write: WriteFn;
  private fd: number | undefined;
  private gen = 0;
  private readonly durability: 'write' | 'fsync';
  private syncTimer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | null = null;
  private unsynced = false;
  /** The last event processed since the last write: its marker is not written yet. */
  private doneThrough: string | undefined;
  /** Markers of events processed out of order (not done by the listener). */
  private doneOthers = '';
  private journalBytes = 0;
  private nextCompactAt: number;
  private needsRotate = false;
  private closed = false;

  private constructor(private readonly o: WebhookStateOptions) {
    this.seen = new SeenWindow(o.seenMaxIds, o.seenMaxAgeMs);
    this.events = new EventLog(o.logCapacity);
    this.compactBytes = o.compactBytes ?? 8 * 1024 * 1024;
    this.nextCompactAt = this.compactBytes;
    this.durability = o.durability ?? 'write';
    this.write = o.writeJournal ?? writeSync;
  }

  static async open(o: WebhookStateOptions): Promise<WebhookState> {
    const s = new WebhookState(o);
    await s.load();
    return s;
  }

  /** Accepted before, waiting to be processed, or being committed right now. */
  isSeen(id: string): boolean {
    return this.seen.has(id) || this.open.has(id);
  }

  /** Resolves once an id being committed is durable; rejects if that commit failed. */
  whenDurable(id: string): Promise<void> {
    // Duplicates of an event still in flight are rare: a scan of the batch is enough.
    const inFlight = (items: BatchItem[] | null) => items?.some((i) => i.rec.id === id) ?? false;
    if (!this.open.has(id) || !(inFlight(this.batch) || inFlight(this.writing))) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const list = this.waiting.get(id);
      if (list) list.push({ resolve, reject });
      else this.waiting.set(id, [{ resolve, reject }]);
    });
  }

  /** Accepted events not yet processed, including those still being committed. */
  get queued(): number {
    return this.open.size;
  }

  /** The oldest accepted event not yet processed (it stays here until `markDone`). */
  firstPending(): PendingEvent | undefined {
    return this.pending.first();
  }

  eventLog(filter?: EventLogFilter): EventLogEntry[] {
    return this.events.list(filter);
  }

  /**
   * Writes the event (group-committed with everything else accepted in this turn of the event
   * loop), then records it as seen, logged and pending, then tells `waiter`. A callback rather
   * than a promise: this runs for every event, and the answer can go out in the same tick as
   * the write.
   */
  commit(rec: PendingEvent, waiter: CommitWaiter): void {
    if (this.closed) {
      waiter.committed(new Error('The webhook state is closed.'));
      return;
    }
    this.batch.push({ rec, waiter });
    this.open.add(rec.id);
    this.kick();
  }

  /**
   * Marks an event processed. The marker waits for the next write or the next sync tick and is
   * never synced on its own: losing it only means the event is replayed.
   */
  markDone(id: string): void {
    if (!this.open.delete(id)) return;
    const first = this.pending.first()?.id === id;
    this.pending.remove(id);
    if (this.closed) return;
    // The listener processes the oldest first; anything else gets a marker of its own.
    if (first) this.doneThrough = id;
    else this.doneOthers += `{"k":"d","id":${JSON.stringify(id)}}\n`;
    this.scheduleSync();
  }

  /** Writes what is buffered, leaves a fresh snapshot and releases the files. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // A flush queued for this turn still writes what was committed before close.
    if (this.scheduled) await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.flushing) await this.flushing;
    clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    // A fresh snapshot, so the next start reads one small file.
    if (await this.compactNow()) {
      // The snapshot reflects the markers still buffered.
      this.doneThrough = undefined;
      this.doneOthers = '';
    } else {
      try {
        if (this.fd !== undefined && !this.needsRotate) this.append([]);
      } catch {
        // the markers are lost: those events replay once
      }
    }
    await this.retiring;
    await this.syncing;
    if (this.fd !== undefined) {
      if (this.unsynced) await datasync(this.fd).catch(() => undefined);
      closeSync(this.fd);
    }
    this.fd = undefined;
  }

  /** Appends buffered markers and these events in one write. Throws when the write fails. */
  private append(items: readonly BatchItem[]): void {
    const markers = this.doneThrough === undefined && this.doneOthers === '' ? '' : this.takeMarkers();
    // Sizes are bounds (at most three UTF-8 bytes per UTF-16 unit): the writes say what they took.
    let size = markers.length * 3;
    const heads: string[] = [];
    for (const i of items) {
      const body = (i.rec.body ??= Buffer.from(i.rec.raw, 'utf8'));
      const head = recordHead(i.rec, body.length);
      heads.push(head);
      size += head.length * 3 + body.length + 1;
    }
    if (size === 0) return;
    // A batch of large bodies gets a buffer of its own rather than growing the reused one.
    const buf = size <= this.scratch.length ? this.scratch : Buffer.allocUnsafe(size);
    let off = buf.write(markers, 0, 'utf8');
    for (let k = 0; k < items.length; k++) {
      off += buf.write(heads[k]!, off, 'utf8');
      off += items[k]!.rec.body!.copy(buf, off);
      buf[off++] = 0x0a;
    }
    writeAllSync(this.write, this.fd!, buf, off);
    this.journalBytes += off;
    this.unsynced = true;
    if (this.durability === 'write') this.scheduleSync();
  }

  private takeMarkers(): string {
    const through = this.doneThrough === undefined ? '' : `{"k":"d","through":${JSON.stringify(this.doneThrough)}}\n`;
    const text = this.doneOthers + through;
    this.doneThrough = undefined;
    this.doneOthers = '';
    return text;
  }

  /** Flushes at the end of this turn of the event loop, so concurrent requests share one write. */
  private kick(): void {
    // A running asynchronous flush takes new items itself.
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    setImmediate(this.flushNow);
  }

  private readonly flushNow = (): void => {
    this.scheduled = false;
    if (this.flushing || this.batch.length === 0 || !this.ready()) return;
    if (this.durability === 'fsync') {
      this.flushing = this.flushSynced().finally(() => {
        this.flushing = null;
        if (this.batch.length > 0) this.kick();
      });
      return;
    }
    // The common case needs no await: one synchronous append, then everyone is told.
    const items = this.batch;
    this.batch = [];
    if (this.writeItems(items)) this.settle(items);
  };

  /**
   * Starts a fresh journal when one is due. False, with the batch refused (500), when the
   * journal may end in a torn record and no fresh one could be started.
   */
  private ready(): boolean {
    if (this.fd !== undefined && !this.needsRotate && this.journalBytes < this.nextCompactAt) return true;
    try {
      this.compact();
      return true;
    } catch (e) {
      if (this.needsRotate || this.fd === undefined) {
        this.fail(this.batch.splice(0), e);
        return false;
      }
      // The journal is intact; try again after another stretch instead of on every write.
      this.nextCompactAt = this.journalBytes + this.compactBytes;
      this.o.log.error('Could not start a new webhook journal.', { error: String(e) });
      return true;
    }
  }

  /** Appends the items; on failure refuses them (500) and moves on to a fresh journal. */
  private writeItems(items: BatchItem[]): boolean {
    try {
      this.append(items);
      return true;
    } catch (e) {
      // The journal may now end in a torn record: later ones go to a fresh generation.
      this.needsRotate = true;
      this.fail(items, e);
      return false;
    }
  }

  /** Writes buffered markers and flushes written lines to the disk soon, once per interval at most. */
  private scheduleSync(): void {
    if (this.syncTimer || this.closed) return;
    this.syncTimer = setTimeout(() => {
      this.syncTimer = undefined;
      if (this.doneThrough !== undefined || this.doneOthers !== '') {
        if (this.flushing || this.needsRotate || this.fd === undefined) {
          this.scheduleSync();
        } else {
          try {
            this.append([]);
          } catch {
            this.needsRotate = true;
          }
        }
      }
      const fd = this.fd;
      if (fd === undefined || !this.unsynced || this.syncing) return;
      this.unsynced = false;
      this.syncing = datasync(fd)
        .catch((e: unknown) => this.o.log.warn('Could not flush the webhook journal to disk.', { error: String(e) }))
        .finally(() => (this.syncing = null));
    }, this.o.syncIntervalMs ?? 100);
    this.syncTimer.unref();
  }

  /** 'fsync' durability: each batch is acknowledged once it is on the disk. */
  private async flushSynced(): Promise<void> {
    while (this.batch.length > 0 && this.ready()) {
      const items = this.batch;
      this.batch = [];
      if (!this.writeItems(items)) continue;
      this.writing = items;
      try {
        this.unsynced = false;
        await datasync(this.fd!);
        // A journal started since the last sync must be found after a power loss too.
        if (this.dirUnsynced) {
          this.dirUnsynced = false;
          await syncDir(this.o.dir);
        }
      } catch (e) {
        this.needsRotate = true;
        this.fail(items, e);
        continue;
      } finally {
        this.writing = null;
      }
      this.settle(items);
    }
  }

  /** The items' lines are written: record each event, then tell whoever waits. */
  private settle(items: BatchItem[]): void {
    const now = this.o.now();
    for (const i of items) {
      this.apply(i.rec, now);
      i.rec.body = undefined;
    }
    for (const i of items) tell(i, undefined, this.o.log);
    if (this.waiting.size > 0) this.release(items, undefined);
  }

  private fail(items: BatchItem[], e: unknown): void {
    this.o.log.error('Could not write accepted webhook events to disk; they were refused (500).', { error: String(e) });
    for (const i of items) this.open.delete(i.rec.id);
    for (const i of items) tell(i, e, this.o.log);
    if (this.waiting.size > 0) this.release(items, e);
  }

  /** Answers the duplicates that waited for these items' ids. */
  private release(items: BatchItem[], error: unknown): void {
    for (const i of items) {
      const list = this.waiting.get(i.rec.id);
      if (!list) continue;
      this.waiting.delete(i.rec.id);
      for (const w of list) {
        if (error === undefined) w.resolve();
        else w.reject(error);
      }
    }
  }

  private apply(rec: PendingEvent, now: number): void {
    this.seen.add(rec.id, rec.receivedAt, now);
    this.events.push(recordOf(rec));
    this.pending.push(rec);
  }

  /**
   * Moves writing to a fresh journal generation and, unless one is being written already, takes a
   * snapshot of the state in the background. Synchronous up to the switch, so acknowledgements
   * never wait for a snapshot: a crash before it lands replays the older journals and then the
   * fresh one. Throws when the fresh journal cannot be created (the current one stays in use).
   */
  private compact(): void {
    const nextGen = this.gen + 1;
    const fresh = openSync(join(this.o.dir, journalName(nextGen)), 'w');
    const old = this.fd;
    const oldUnsynced = this.unsynced;
    this.fd = fresh;
    this.gen = nextGen;
    this.journalBytes = 0;
    this.nextCompactAt = this.compactBytes;
    this.needsRotate = false;
    this.unsynced = false;
    this.dirUnsynced = true;
    if (old !== undefined) this.retire(old, oldUnsynced);
    // One snapshot at a time; the next is taken when this one is done.
    if (this.snapshotting) {
      this.snapshotDue = true;
      return;
    }
    this.snapshotDue = false;
    // Between batches the state in memory is exactly what the older journals hold. Buffered
    // markers stay buffered: they go to the fresh journal, where they are harmless repeats.
    const snapshot: Snapshot = {
      v: 1,
      nextGen,
      seen: this.seen.entries(),
      seenSeed: [...this.seen.seed],
      log: this.events.all(),
      pending: this.pending.values().map(recordOf),
    };
    this.snapshotting = this.writeSnapshot(snapshot).finally(() => {
      this.snapshotting = null;
      if (this.snapshotDue && !this.closed) this.compactSoon();
    });
  }

  /** Compacts now if no write is under way, else at the next write. */
  private compactSoon(): void {
    if (this.flushing) {
      this.nextCompactAt = 0;
      return;
    }
    try {
      this.compact();
    } catch (e) {
      this.o.log.error('Could not start a new webhook journal.', { error: String(e) });
    }
  }

  /** Compacts and waits for the snapshot; false when no snapshot could be written. */
  private async compactNow(): Promise<boolean> {
    while (this.snapshotting) await this.snapshotting;
    try {
      this.compact();
    } catch (e) {
      this.o.log.error('Could not start a new webhook journal.', { error: String(e) });
      return false;
    }
    return (await this.snapshotting) ?? false;
  }

  private async writeSnapshot(snapshot: Snapshot): Promise<boolean> {
    const dir = this.o.dir;
    try {
      await writeFileAtomic(dir, SNAPSHOT, JSON.stringify(snapshot));
    } catch (e) {
      this.o.log.error('Could not write the webhook state snapshot; the journals still hold everything.', { error: String(e) });
      return false;
    }
    // The journals before the snapshot's generation are covered now.
    await this.retiring;
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const m = JOURNAL_RE.exec(name);
      if (m && Number(m[1]) < snapshot.nextGen) await unlink(join(dir, name)).catch(() => undefined);
    }
    return true;
  }

  /** Closes a journal that is no longer written, after its last flush. */
  private retire(fd: number, unsynced: boolean): void {
    const syncing = this.syncing;
    this.retiring = this.retiring.then(async () => {
      await syncing;
      if (unsynced) await datasync(fd).catch(() => undefined);
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
    });
  }

  private async load(): Promise<void> {
    const { dir, log } = this.o;
    await mkdir(dir, { recursive: true });
    const now = this.o.now();
    let nextGen = 1;

    let text: string | undefined;
    try {
      text = await readFile(join(dir, SNAPSHOT), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    if (text !== undefined) {
      let parsed: ReturnType<typeof SnapshotSchema.safeParse> | undefined;
      try {
        parsed = SnapshotSchema.safeParse(JSON.parse(text));
      } catch {
        parsed = undefined;
      }
      if (parsed?.success) {
        const snap = parsed.data;
        nextGen = snap.nextGen;
        if (snap.seenSeed) this.seen = new SeenWindow(this.o.seenMaxIds, this.o.seenMaxAgeMs, snap.seenSeed);
        for (const entry of snap.seen) {
          if (entry.length === 2) this.seen.add(entry[0], entry[1], now);
          // Hashes are only meaningful under the seed they were made with.
          else if (snap.seenSeed) this.seen.addEntry(entry, now);
        }
        for (const entry of snap.log) this.events.push(entry);
        for (const p of snap.pending) {
          if (this.open.has(p.id)) continue;
          this.open.add(p.id);
          this.pending.push(p);
        }
      } else {
        // Keep the unreadable file for inspection; the journals still replay what they hold.
        const aside = `${SNAPSHOT}.unreadable-${now}`;
        await rename(join(dir, SNAPSHOT), join(dir, aside));
        log.error('The webhook state snapshot could not be read; it was set aside.', { file: aside });
        nextGen = 1;
      }
    }

    const gens = (await readdir(dir))
      .map((f) => JOURNAL_RE.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    let skipped = 0;
    for (const gen of gens) {
      if (gen < nextGen) continue;
      const journal = readJournal(await readFile(join(dir, journalName(gen))));
      skipped += journal.skipped;
      for (const rec of journal.entries) {
        if (rec.k === 'd' && rec.through !== undefined) {
          // Every pending event up to this one was processed before it.
          if (!this.open.has(rec.through)) continue;
          for (let p = this.pending.first(); p; p = this.pending.first()) {
            this.open.delete(p.id);
            this.pending.remove(p.id);
            if (p.id === rec.through) break;
          }
        } else if (rec.k === 'd') {
          if (rec.id !== undefined && this.open.delete(rec.id)) this.pending.remove(rec.id);
        } else if (!this.isSeen(rec.id)) {
          const { k: _k, ...accepted } = rec;
          this.open.add(accepted.id);
          this.apply(accepted, now);
        }
      }
    }
    if (skipped > 0) log.warn('Skipped unreadable records in the webhook journal.', { records: skipped });

    this.gen = Math.max(nextGen - 1, gens.at(-1) ?? 0);
    // A fresh journal (this throws if none can be made) and a snapshot covering every journal
    // read above, which are then removed; if the snapshot fails they stay, and so does all.
    this.compact();
    await this.snapshotting;
    if (this.pending.size > 0) log.info('Replaying webhook events accepted before the last stop.', { count: this.pending.size });
  }
}
