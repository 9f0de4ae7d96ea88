/**
 * The listener's durable state: the seen-id window, the event log and the accepted events not
 * yet handed to `onEvent`.
 *
 * In `dir` (0700, files 0600): `state.json`, a snapshot replaced atomically, naming the first
 * journal generation it does not cover, and `journal-<gen>.ndjson`, one record a line:
 * `{"k":"e",...}` an accepted event with its body as received, `{"k":"d","id"}` it was processed.
 * Loading replays the journals from the snapshot's generation on, so a crash at any step of a
 * compaction leaves an unambiguous set; a record the snapshot already holds changes nothing.
 *
 * An event's record is written (synchronously, to the operating system; all accepted in one turn of
 * the event loop in one write) before the event is acknowledged and before its id counts as seen:
 * an acknowledged event survives any crash of the console, and a duplicate is never acknowledged
 * in place of an event not kept. Records reach the
 * disk within a second (fdatasync); what a power loss drops of that second the sync's resync at
 * start covers (events are hints). A processed marker is written at once too, so a crash after
 * processing replays nothing; only a power loss within that second may replay its event.
 */
import { noteSetAside } from '../set-aside';
import { closeSync, fdatasync, openSync, writeSync } from 'node:fs';
import { chmod, readFile, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { describeBody } from './check-request';
import { DirSyncer, ensureDir, removeStaleTemps, writeFileDurable } from '../outbox/fsutil';
import { EventRing } from './event-log';
import { SeenWindow } from './seen-window';
import type { EventLogEntry, EventLogFilter, ReceivedEvent, WebhookLogger } from './types';

/** What is journaled for an accepted event: an event-log row with its whole body. */
type AcceptedRecord = Omit<EventLogEntry, 'truncated'>;

/** A record read back from disk, its envelope parsed again from the body as received. */
function pendingOf(r: AcceptedRecord): ReceivedEvent {
  try {
    const { event } = describeBody(JSON.parse(r.raw));
    if (event) return { ...r, event };
  } catch {
    // not JSON after all: handed out as received
  }
  return r;
}

const RecordSchema = z.object({
  id: z.string().min(1),
  receivedAt: z.number(),
  signature: z.enum(['valid', 'unsigned']),
  known: z.boolean(),
  group: z.string().optional(),
  type: z.string().optional(),
  occurredAt: z.string().optional(),
  raw: z.string(),
});
const LineSchema = z.discriminatedUnion('k', [
  RecordSchema.extend({ k: z.literal('e') }),
  z.object({ k: z.literal('d'), id: z.string().min(1) }),
]);
const SnapshotSchema = z.object({
  v: z.literal(2),
  nextGen: z.number().int().positive(),
  /** [id, receivedAt], oldest first. */
  seen: z.array(z.tuple([z.string(), z.number()])),
  log: z.array(RecordSchema.extend({ truncated: z.boolean().optional() })),
  pending: z.array(RecordSchema),
});
type Snapshot = z.infer<typeof SnapshotSchema>;

export interface WebhookStateOptions {
  dir: string;
  now: () => number;
  log: WebhookLogger;
  seenMaxIds?: number | undefined;
  seenMaxAgeMs?: number | undefined;
  /** Event log rows kept. Default 500. */
  logCapacity?: number | undefined;
  /** Journal size that starts a new generation and a snapshot. Default 4 MiB. */
  compactBytes?: number | undefined;
  /** The journal's write, for tests that make the disk fail. Default `fs.writeSync`. */
  writeJournal?: (fd: number, buf: Buffer, offset: number, length: number) => number;
}

const SNAPSHOT = 'state.json';
const journalName = (gen: number) => `journal-${gen}.ndjson`;
const JOURNAL_RE = /^journal-(\d+)\.ndjson$/;
const SYNC_MS = 1000;

/** The record alone, without the parsed envelope (zod drops unknown keys). */
const recordOf = (p: AcceptedRecord): AcceptedRecord => RecordSchema.parse(p);

const datasync = (fd: number) => new Promise<void>((resolve, reject) => fdatasync(fd, (e) => (e ? reject(e) : resolve())));

export class WebhookState {
  readonly #seen: SeenWindow;
  readonly #log: EventRing;
  /** Accepted, not yet processed; a Map keeps them in the order accepted. */
  readonly #pending = new Map<string, ReceivedEvent>();
  /** Accepted in this turn of the event loop, written together by `flush`. */
  readonly #staged = new Map<string, ReceivedEvent>();
  readonly #syncer: DirSyncer;
  readonly #compactBytes: number;
  readonly #write: NonNullable<WebhookStateOptions['writeJournal']>;
  #fd: number | undefined;
  #gen = 0;
  #journalBytes = 0;
  /** A write failed: the journal may end in a torn record, so the next one goes to a fresh file. */
  #needsRotate = false;
  #syncTimer: NodeJS.Timeout | undefined;
  /** Processed markers not yet written; a snapshot makes them moot. */
  #markers = '';
  /** Data syncs and closes of journals, one after another (a journal is closed after its last sync). */
  #syncing: Promise<void> = Promise.resolve();
  #snapshotting: Promise<boolean> | null = null;
  #snapshotDue = false;
  #closed = false;

  readonly #o: WebhookStateOptions;
  private constructor(o: WebhookStateOptions) {
    this.#o = o;
    this.#seen = new SeenWindow(o.seenMaxIds, o.seenMaxAgeMs);
    this.#log = new EventRing(o.logCapacity);
    this.#syncer = new DirSyncer(o.dir);
    this.#compactBytes = o.compactBytes ?? 4 * 1024 * 1024;
    this.#write = o.writeJournal ?? writeSync;
  }

  static async open(o: WebhookStateOptions): Promise<WebhookState> {
    const s = new WebhookState(o);
    await s.#load();
    return s;
  }

  /** Accepted within the seen window, or accepted and not yet processed (or written). */
  isSeen(id: string): boolean {
    return this.#staged.has(id) || this.#pending.has(id) || this.#seen.has(id, this.#o.now());
  }

  /** Staged and not yet written: a repeat of it can be answered only after `flush`. */
  isStaged(id: string): boolean {
    return this.#staged.has(id);
  }

  /** Accepted events not yet processed. */
  get queued(): number {
    return this.#pending.size + this.#staged.size;
  }

  /** The oldest accepted event not yet processed (it stays here until `markDone`). */
  firstPending(): ReceivedEvent | undefined {
    return this.#pending.values().next().value;
  }

  /** Newest first, filtered. */
  eventLog(filter: EventLogFilter = {}): EventLogEntry[] {
    return this.#log.select(filter);
  }

  /** Takes an accepted event, to be written by the next `flush`. */
  stage(rec: ReceivedEvent): void {
    if (this.#closed) throw new Error('The webhook state is closed.');
    this.#staged.set(rec.id, rec);
  }

  /**
   * Writes the staged events' records in one write, then counts them as seen, logged and pending.
   * Throws when they could not be written: they are then not accepted, and a retry is a new event.
   */
  flush(): void {
    if (this.#staged.size === 0) return;
    const batch = [...this.#staged.values()];
    this.#staged.clear();
    if ((this.#needsRotate || this.#journalBytes >= this.#compactBytes) && !this.#tryRotate()) {
      if (this.#needsRotate) throw new Error('No fresh webhook journal could be started.');
      // The journal is intact and can take more: try again after another stretch.
      this.#journalBytes = 0;
    }
    const rows = batch.map(recordOf);
    this.#append(rows.map((row) => `${JSON.stringify({ k: 'e', ...row })}\n`).join(''));
    batch.forEach((rec, i) => this.#apply(rec, rows[i]));
  }

  /**
   * Marks an event processed. The marker is written to the operating system at once: a console
   * that crashes right after processing an event does not process it again at its next start
   * (it reaches the disk within a second; a power loss in that second replays the event).
   */
  markDone(id: string): void {
    if (!this.#pending.delete(id) || this.#closed) return;
    this.#markers += `${JSON.stringify({ k: 'd', id })}\n`;
    if (!this.#needsRotate) {
      try {
        this.#append('');
      } catch {
        // Kept buffered: it goes out with the next record, in the fresh journal.
      }
    }
    this.#syncSoon();
  }

  /** Leaves a fresh snapshot and releases the files. */
  async close(): Promise<void> {
    if (this.#closed) return;
    // Anything still staged was never acknowledged: the sender sends it again.
    this.#closed = true;
    clearTimeout(this.#syncTimer);
    await this.#snapshotting;
    // A snapshot of everything, so the next start reads one small file.
    this.#tryRotate();
    await this.#snapshotting;
    if (this.#fd !== undefined) this.#retire(this.#fd);
    this.#fd = undefined;
    await this.#syncing;
  }

  /** Appends buffered markers and this record; on failure marks the journal for replacement and throws. */
  #append(record: string): void {
    const buf = Buffer.from(this.#markers + record, 'utf8');
    try {
      for (let off = 0; off < buf.length;) off += this.#write(this.#fd!, buf, off, buf.length - off);
    } catch (e) {
      this.#needsRotate = true;
      this.#o.log.error('Could not write to the webhook journal.', { error: String(e) });
      throw e;
    }
    this.#markers = '';
    this.#journalBytes += buf.length;
    this.#syncSoon();
  }

  /** Within a second: buffered markers written, written records flushed to the disk. */
  #syncSoon(): void {
    if (this.#syncTimer || this.#closed) return;
    this.#syncTimer = setTimeout(() => {
      this.#syncTimer = undefined;
      try {
        if (this.#markers && !this.#needsRotate) this.#append('');
      } catch {
        // Those events replay once, unless the next snapshot covers them.
      }
      const fd = this.#fd;
      // Chained before any later close of this journal.
      if (fd !== undefined) this.#chain(() => datasync(fd));
    }, SYNC_MS);
    this.#syncTimer.unref();
  }

  #chain(step: () => Promise<void>): void {
    this.#syncing = this.#syncing
      .then(step)
      .catch((e: unknown) => this.#o.log.warn('Could not flush the webhook journal to disk.', { error: String(e) }));
  }

  #retire(fd: number): void {
    this.#chain(async () => {
      await datasync(fd).catch(() => undefined);
      closeSync(fd);
    });
  }

  #apply(rec: ReceivedEvent, row = recordOf(rec)): void {
    this.#seen.add(rec.id, rec.receivedAt, this.#o.now());
    this.#log.add(row);
    this.#pending.set(rec.id, rec);
  }

  /**
   * Moves writing to a fresh journal generation and snapshots the state in the background, so no
   * acknowledgement waits for the snapshot. Throws when the fresh journal cannot be created.
   */
  #rotate(): void {
    const gen = this.#gen + 1;
    const fd = openSync(join(this.#o.dir, journalName(gen)), 'a', 0o600);
    if (this.#fd !== undefined) this.#retire(this.#fd);
    this.#fd = fd;
    this.#gen = gen;
    this.#journalBytes = 0;
    this.#needsRotate = false;
    if (this.#snapshotting) {
      this.#snapshotDue = true;
      return;
    }
    // Events marked processed are not pending in the snapshot: their markers are moot.
    this.#markers = '';
    // The state in memory now is exactly what the older journals hold.
    const snapshot: Snapshot = {
      v: 2,
      nextGen: gen,
      seen: this.#seen.entries(),
      log: this.#log.entries(),
      pending: [...this.#pending.values()].map(recordOf),
    };
    this.#snapshotting = this.#writeSnapshot(snapshot).finally(() => {
      this.#snapshotting = null;
      if (!this.#snapshotDue || this.#closed) return;
      this.#snapshotDue = false;
      this.#tryRotate();
    });
  }

  /** `rotate`, with a failure logged; false when no fresh journal could be started. */
  #tryRotate(): boolean {
    try {
      this.#rotate();
      return true;
    } catch (e) {
      this.#o.log.error('Could not start a new webhook journal.', { error: String(e) });
      return false;
    }
  }

  /** Writes the snapshot, then removes the journals it covers; false when it could not be written. */
  async #writeSnapshot(snapshot: Snapshot): Promise<boolean> {
    try {
      await writeFileDurable(this.#syncer, SNAPSHOT, JSON.stringify(snapshot));
    } catch (e) {
      this.#o.log.error('Could not write the webhook state snapshot; the journals still hold everything.', { error: String(e) });
      return false;
    }
    // Closed before removed (Windows cannot remove an open file).
    await this.#syncing;
    for (const name of await readdir(this.#o.dir).catch(() => [] as string[])) {
      const m = JOURNAL_RE.exec(name);
      if (m && Number(m[1]) < snapshot.nextGen) await unlink(join(this.#o.dir, name)).catch(() => undefined);
    }
    return true;
  }

  async #load(): Promise<void> {
    const { dir, log } = this.#o;
    await ensureDir(dir);
    // The folder may predate this rule: it holds event bodies, so only this user may read it.
    await chmod(dir, 0o700);
    await removeStaleTemps(dir);
    let nextGen = 1;

    const text = await readFile(join(dir, SNAPSHOT), 'utf8').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      // A directory in its place is set aside like an unreadable snapshot (below).
      if (e.code === 'EISDIR') return '';
      throw e;
    });
    if (text !== undefined) {
      let snap: Snapshot | undefined;
      try {
        snap = SnapshotSchema.parse(JSON.parse(text));
      } catch {
        // Kept for inspection; the journals still replay what they hold.
        const aside = `${SNAPSHOT}.unreadable-${this.#o.now()}`;
        await rename(join(dir, SNAPSHOT), join(dir, aside));
        noteSetAside({ file: join(dir, SNAPSHOT), keptAs: join(dir, aside), reason: 'not a readable webhook state' });
        log.error('The webhook state snapshot could not be read; it was set aside.', { file: aside });
      }
      if (snap) {
        nextGen = snap.nextGen;
        const now = this.#o.now();
        for (const [id, at] of snap.seen) this.#seen.add(id, at, now);
        this.#log.load(snap.log);
        for (const p of snap.pending) this.#pending.set(p.id, pendingOf(p));
      }
    }

    const gens = (await readdir(dir))
      .map((f) => Number(JOURNAL_RE.exec(f)?.[1] ?? NaN))
      .filter((g) => g >= nextGen)
      .sort((a, b) => a - b);
    let skipped = 0;
    for (const gen of gens) {
      for (const line of (await readFile(join(dir, journalName(gen)), 'utf8')).split('\n')) {
        if (line === '') continue;
        let rec: z.infer<typeof LineSchema>;
        try {
          rec = LineSchema.parse(JSON.parse(line));
        } catch {
          // A torn last line: its write failed or was cut by a crash, so it was never acknowledged.
          skipped++;
          continue;
        }
        if (rec.k === 'd') this.#pending.delete(rec.id);
        else if (!this.isSeen(rec.id)) this.#apply(pendingOf(recordOf(rec)));
      }
    }
    if (skipped > 0) log.warn('Skipped unreadable records in the webhook journal.', { records: skipped });

    this.#gen = Math.max(nextGen - 1, gens.at(-1) ?? 0);
    // A fresh journal (this throws if none can be made) and a snapshot covering every journal
    // read above, which are then removed; if the snapshot fails they stay, and so does all.
    this.#rotate();
    await this.#snapshotting;
    if (this.#pending.size > 0) log.info('Replaying webhook events accepted before the last stop.', { count: this.#pending.size });
  }
}
