import { readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { z } from 'zod';
import { errorText } from '../src-shared/error-text';
import { DirSyncer, ensureDir, TMP_SUFFIX, writeFileDurable } from './outbox/fsutil';
import { setAsideFile, whyUnreadable } from './set-aside';

export interface KeptFileOptions<T> {
  file: string;
  /** What the console writes there: anything else is set aside, never written over. */
  schema: z.ZodType<T>;
  /** What the file holds, in a few words, to begin each log line ("snoozed sessions"). */
  what: string;
  warn: (message: string) => void;
}

/**
 * One JSON file the console keeps for itself (a workspace's snoozes and activity, an account's
 * mentions, recent tickets). The one way such a file is read and written:
 * - read with its schema; a file that is unreadable or not what the console writes is set aside
 *   beside itself (set-aside.ts: the page says so) and the reader starts empty;
 * - written whole and durably (a temporary file, synced, then renamed), one write after another,
 *   so an older snapshot never lands after a newer one;
 * - the temporary files of a write cut short (a crash between write and rename) are removed when
 *   the file is read, so none stays in the profile.
 */
export class KeptFile<T> {
  readonly #o: KeptFileOptions<T>;
  readonly #syncer: DirSyncer;
  #writing: Promise<void> = Promise.resolve();

  constructor(o: KeptFileOptions<T>) {
    this.#o = o;
    this.#syncer = new DirSyncer(dirname(o.file));
  }

  /** What the file holds; null when there is none yet or it was set aside (said in the log). */
  read(): T | null {
    this.#removeLeftovers();
    let problem: string;
    try {
      const parsed = this.#o.schema.safeParse(JSON.parse(readFileSync(this.#o.file, 'utf8')));
      if (parsed.success) return parsed.data;
      problem = 'its contents are not what the console writes';
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      problem = whyUnreadable(e);
    }
    try {
      setAsideFile(this.#o.file, problem);
      this.#o.warn(`${this.#o.what} set aside: ${problem}`);
    } catch (e) {
      this.#o.warn(`${this.#o.what} unreadable (${problem}) and could not be set aside: ${errorText(e)}`);
    }
    return null;
  }

  /** Writes `value` as it is now, after every write asked before; settles once it is on disk (or said to have failed). */
  write(value: T): Promise<void> {
    const text = JSON.stringify(value);
    this.#writing = this.#writing.then(async () => {
      try {
        await ensureDir(dirname(this.#o.file));
        await writeFileDurable(this.#syncer, basename(this.#o.file), text);
      } catch (e) {
        this.#o.warn(`${this.#o.what} not saved: ${errorText(e)}`);
      }
    });
    return this.#writing;
  }

  /** Settles once every write asked so far is done. */
  flushed(): Promise<void> {
    return this.#writing;
  }

  #removeLeftovers(): void {
    const dir = dirname(this.#o.file);
    const prefix = `${basename(this.#o.file)}.`;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return; // No folder yet: nothing was ever written.
    }
    for (const name of names) {
      if (!name.startsWith(prefix) || !name.endsWith(TMP_SUFFIX)) continue;
      try {
        unlinkSync(join(dir, name));
      } catch {
        // Already gone, or not removable now: the next read tries again.
      }
    }
  }
}
