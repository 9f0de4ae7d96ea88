import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { TicketViewSchema, type TicketView } from '../../../src-shared/bridge/supervisor';
import { setAsideFile, whyUnreadable } from '../../set-aside';
import { errorText } from '../../../src-shared/error-text';

/**
 * Recently looked-up tickets, kept in the main process with the time they were fetched, so a
 * supervisor can still read them when the network is gone. One file in the workspace's folder,
 * written whole (temp file, then rename): the workspace is the scope, not the service's address,
 * which changes under the same workspace (the demo's stand-in comes up on another port each start).
 */

const MAX_ENTRIES = 50;

const EntrySchema = z.object({
  /** Written by earlier versions, which kept entries per service address; no longer read. */
  baseUrl: z.string().optional(),
  /** What users typed to find it (id, key), lower case. */
  aliases: z.array(z.string()),
  ticket: TicketViewSchema,
});
const FileSchema = z.object({ version: z.literal(1), entries: z.array(EntrySchema) });
type Entry = z.infer<typeof EntrySchema>;

const norm = (s: string) => s.trim().toLowerCase();

export class TicketCache {
  #entries: Entry[] = [];
  #loaded: Promise<void> | null = null;
  #writing: Promise<void> = Promise.resolve();

  readonly #file: string;
  readonly #onError: (message: string) => void;
  constructor(file: string, onError: (message: string) => void) {
    this.#file = file;
    this.#onError = onError;
  }

  #load(): Promise<void> {
    this.#loaded ??= (async () => {
      try {
        const parsed = FileSchema.safeParse(JSON.parse(await readFile(this.#file, 'utf8')));
        if (parsed.success) this.#entries = parsed.data.entries;
        else this.#setAside('its contents are not what the console writes');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.#setAside(whyUnreadable(e));
      }
    })();
    return this.#loaded;
  }

  /** An unreadable file is kept beside, named with its time (and said on the page), never written over. */
  #setAside(reason: string): void {
    try {
      setAsideFile(this.#file, reason);
      this.#onError(`ticket cache set aside: ${reason}`);
    } catch (e) {
      this.#onError(`ticket cache unreadable (${reason}) and could not be set aside: ${errorText(e)}`);
    }
  }

  /** The stored copy, moved to the front of the recent list (reading it offline is a use too). */
  async find(idOrKey: string): Promise<TicketView | null> {
    await this.#load();
    const wanted = norm(idOrKey);
    const hit = this.#entries.find((e) => e.aliases.includes(wanted));
    if (!hit) return null;
    if (this.#entries[0] !== hit) {
      this.#entries = [hit, ...this.#entries.filter((e) => e !== hit)];
      await this.#save();
    }
    return hit.ticket;
  }

  /** Most recent first. */
  async recent(): Promise<TicketView[]> {
    await this.#load();
    return this.#entries.map((e) => e.ticket);
  }

  async put(asked: string, ticket: TicketView): Promise<void> {
    await this.#load();
    const aliases = new Set([norm(asked)]);
    if (ticket.id !== null) aliases.add(String(ticket.id));
    if (ticket.key) aliases.add(norm(ticket.key));
    const same = (e: Entry) => (ticket.id !== null && e.ticket.id === ticket.id) || e.aliases.some((a) => aliases.has(a));
    for (const e of this.#entries.filter(same)) for (const a of e.aliases) aliases.add(a);
    this.#entries = [{ aliases: [...aliases], ticket }, ...this.#entries.filter((e) => !same(e))].slice(0, MAX_ENTRIES);
    await this.#save();
  }

  #save(): Promise<void> {
    const snapshot = JSON.stringify({ version: 1, entries: this.#entries });
    // Writes are chained so an older snapshot can never land after a newer one.
    this.#writing = this.#writing.then(async () => {
      try {
        await mkdir(dirname(this.#file), { recursive: true, mode: 0o700 });
        const tmp = `${this.#file}.${process.pid}.tmp`;
        await writeFile(tmp, snapshot, { mode: 0o600 }); // customers' tickets
        await rename(tmp, this.#file);
      } catch (e) {
        this.#onError(`ticket cache not saved: ${errorText(e)}`);
      }
    });
    return this.#writing;
  }
}
