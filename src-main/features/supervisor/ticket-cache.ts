import { z } from 'zod';
import { KeptFile } from '../../kept-file';
import { TicketViewSchema, type TicketView } from '../../../src-shared/bridge/supervisor';

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
  readonly #kept: KeptFile<z.infer<typeof FileSchema>>;

  constructor(file: string, onError: (message: string) => void) {
    this.#kept = new KeptFile({ file, schema: FileSchema, what: 'ticket cache', warn: onError });
  }

  #load(): Promise<void> {
    // Read once, on first use; an unreadable file is set aside and said (kept-file.ts), never written over.
    this.#loaded ??= Promise.resolve().then(() => {
      this.#entries = this.#kept.read()?.entries ?? [];
    });
    return this.#loaded;
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
    return this.#kept.write({ version: 1, entries: this.#entries });
  }
}
