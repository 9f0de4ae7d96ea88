import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { JournalEntrySchema, type JournalEntry } from './types';
import { DirSyncer, ensureDir, quarantineFile, removeFile, removeStaleTemps, writeFileDurable } from './fsutil';

/**
 * The note journal: one small JSON file per outstanding note under `<dir>/notes/`.
 *
 * Why a file per note rather than an append-only log: a state change is one atomic rename, a
 * confirmed note is one unlink (nothing to compact), and a damaged entry is one file to move
 * aside while every other note still goes. The price is a directory fsync per write, which
 * DirSyncer shares between concurrent writes (bench/outbox.ts measures both designs).
 */
export interface LoadedJournal {
  entries: JournalEntry[];
  quarantined: Array<{ file: string; movedTo: string; reason: string }>;
}

const ENTRY_FILE = /^([0-9a-f-]{36})\.json$/;

export class Journal {
  readonly notesDir: string;
  readonly quarantineDir: string;
  readonly #syncer: DirSyncer;
  /** Writes to one entry are chained so a later state never lands before an earlier one. */
  readonly #chains = new Map<string, Promise<void>>();

  constructor(readonly dir: string) {
    this.notesDir = path.join(dir, 'notes');
    this.quarantineDir = path.join(dir, 'quarantine');
    this.#syncer = new DirSyncer(this.notesDir);
  }

  get dirFsyncs(): number {
    return this.#syncer.fsyncs;
  }

  /** Reads every entry, validating each; whatever fails is moved to `quarantine/`. */
  async load(now: number): Promise<LoadedJournal> {
    await ensureDir(this.notesDir);
    await removeStaleTemps(this.notesDir);
    const entries: JournalEntry[] = [];
    const quarantined: LoadedJournal['quarantined'] = [];
    for (const name of (await readdir(this.notesDir)).sort()) {
      const file = path.join(this.notesDir, name);
      const reason = await this.#check(file, name, entries);
      if (reason) {
        const movedTo = await quarantineFile(file, this.quarantineDir, now, reason);
        quarantined.push({ file: name, movedTo, reason });
      }
    }
    entries.sort((a, b) => a.seq - b.seq);
    return { entries, quarantined };
  }

  /** Returns why a file is unusable, or pushes its entry and returns undefined. */
  async #check(file: string, name: string, into: JournalEntry[]): Promise<string | undefined> {
    const m = ENTRY_FILE.exec(name);
    if (!m) return 'not a journal entry name';
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(file, 'utf8'));
    } catch {
      return 'not readable as JSON';
    }
    const parsed = JournalEntrySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return `invalid entry${issue ? ` at "${issue.path.join('.')}": ${issue.message}` : ''}`;
    }
    if (parsed.data.id !== m[1]) return 'entry id does not match its file name';
    into.push(parsed.data);
    return undefined;
  }

  /** Resolves once the entry is on disk and would survive a crash or power loss. */
  write(entry: JournalEntry): Promise<void> {
    const data = JSON.stringify(JournalEntrySchema.parse(entry));
    return this.#chain(entry.id, () => writeFileDurable(this.#syncer, `${entry.id}.json`, data));
  }

  /**
   * Deletes an entry. After a confirmation it need not be durable: if the unlink is lost in a
   * crash the entry comes back as "sending" and reading the session back finds it stored. A
   * discard is durable, so a note the attendant threw away is never sent after a power loss.
   */
  remove(id: string, durable = false): Promise<void> {
    return this.#chain(id, async () => {
      await removeFile(path.join(this.notesDir, `${id}.json`));
      if (durable) await this.#syncer.sync();
    });
  }

  #chain(id: string, op: () => Promise<void>): Promise<void> {
    const prev = this.#chains.get(id) ?? Promise.resolve();
    const next = prev.then(op, op);
    this.#chains.set(id, next);
    const clear = () => {
      if (this.#chains.get(id) === next) this.#chains.delete(id);
    };
    next.then(clear, clear);
    return next;
  }

  /** Waits for every write already begun. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.#chains.values()]);
  }
}
