import { appendFile, open, rename } from 'node:fs/promises';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { setAsideFile, whyUnreadable } from '../set-aside';
import { systemClock } from '../clock';

/**
 * The ids of relay events this console applied, on disk, written before each acknowledgement:
 * a console that crashed after applying an event and before acknowledging it is handed the event
 * again at its next start, and finds it here instead of applying it twice. One line per id; a
 * line cut short by a crash is skipped; kept to the relay's duplicate window.
 */

const Line = z.object({ id: z.string().min(1).max(512), at: z.number() }).strict();

export class AppliedLog {
  readonly #file: string;
  readonly #windowMs: number;
  readonly #ids = new Map<string, number>();
  #lines = 0;
  #chain: Promise<void> = Promise.resolve();

  constructor(file: string, windowMs: number, now = systemClock.now()) {
    this.#file = file;
    this.#windowMs = windowMs;
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      // A directory in its place, or unreadable: set aside, and the log starts empty.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') setAsideFile(file, whyUnreadable(e));
    }
    for (const raw of text.split('\n')) {
      if (!raw.trim()) continue;
      try {
        const line = Line.parse(JSON.parse(raw));
        if (now - line.at <= windowMs) this.#ids.set(line.id, line.at);
      } catch {
        // A line cut short by a crash: the event it named comes again at worst.
      }
      this.#lines++;
    }
  }

  has(id: string, now = systemClock.now()): boolean {
    const at = this.#ids.get(id);
    return at !== undefined && now - at <= this.#windowMs;
  }

  /** Resolves once the id is on disk (synced): only then may the event be acknowledged. */
  record(id: string, now = systemClock.now()): Promise<void> {
    this.#ids.set(id, now);
    const next = this.#chain.then(() => this.#append(id, now));
    this.#chain = next.catch(() => undefined);
    return next;
  }

  async #append(id: string, now: number): Promise<void> {
    await appendFile(this.#file, `${JSON.stringify({ id, at: now })}\n`, { mode: 0o600 });
    const fh = await open(this.#file, 'r');
    try {
      await fh.datasync();
    } finally {
      await fh.close();
    }
    // Rewritten without what left the window once it holds far more lines than ids.
    if (++this.#lines > 2 * this.#ids.size + 1_000) await this.#compact(now);
  }

  async #compact(now: number): Promise<void> {
    for (const [id, at] of this.#ids) if (now - at > this.#windowMs) this.#ids.delete(id);
    const tmp = `${this.#file}.tmp`;
    const text = [...this.#ids].map(([id, at]) => JSON.stringify({ id, at })).join('\n');
    const fh = await open(tmp, 'w', 0o600);
    try {
      await fh.writeFile(text ? `${text}\n` : '');
      await fh.datasync();
    } finally {
      await fh.close();
    }
    await rename(tmp, this.#file);
    this.#lines = this.#ids.size;
  }
}
