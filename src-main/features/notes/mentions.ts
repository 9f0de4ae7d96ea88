import { z } from 'zod';
import type { Condition } from '../../../src-shared/query';
import { excerptOf, mentionIndex, type Mentionable } from '../../../src-shared/mentions';
import { msOf } from '../../../src-shared/concepts';
import { splitRef } from '../../../src-shared/note-ref';
import { maskDocuments } from '../../../src-shared/redact';
import { MentionSchema, type Mention } from '../../../src-shared/bridge/notes';
import { errorText } from '../../../src-shared/error-text';
import { systemClock } from '../../clock';
import { KeptFile } from '../../kept-file';

/** A note as the mention check needs it (the service's session comment, read). */
export interface NoteRow {
  id: number;
  sessionId: number;
  text: string;
  createdAt: string | null;
  createdBy: string | null;
}

/** How far back the first check of an account looks (mentions written before it ever ran). */
export const FIRST_LOOK_BACK_MS = 24 * 60 * 60_000;
/** Mentions kept waiting at most; the oldest go first past it. */
const MAX_PENDING = 200;
/** Note ids remembered as opened, so a note read again (same time as the high-water) is not shown again. */
const MAX_SEEN = 1_000;

const FileSchema = z.strictObject({
  v: z.literal(1),
  /** The newest note time the service answered (its own text), read after next time. */
  since: z.string().nullable(),
  pending: z.array(MentionSchema),
  seen: z.array(MentionSchema.shape.noteId),
});
type MentionFile = z.infer<typeof FileSchema>;

/**
 * The one query of a check: notes written after `since` whose text holds "@" and the attendant's
 * name or login (the service's LIKE is case-insensitive; the console checks the words again).
 */
export function mentionQuery(since: string, me: Mentionable): { conditions: Condition[] } {
  const like = (label: string): Condition => ({ key: 'comment', operator: 'LIKE', value: `%@${label.replace(/[%]/g, '')}%` });
  const labels = [...new Set([me.name.trim(), me.userName.trim()].filter((l) => l !== ''))];
  return {
    conditions: [
      { key: 'createdAt', operator: 'AFTER', value: since },
      { logic: 'AND', or: labels.map(like) },
    ],
  };
}

export interface MentionWatchOptions {
  /** The account's own file (`<account folder>/mentions.json`). */
  file: string;
  /** The attendant signed in, or null while unknown (nothing is checked). */
  me: () => Mentionable | null;
  /** Reads the notes of `mentionQuery`, oldest first: the one request of a check. */
  read: (query: { conditions: Condition[] }) => Promise<NoteRow[]>;
  /** The least time between two checks now: at most one request per this long. */
  minGapMs: () => number;
  now?: () => number;
  /** What the console knows, without asking, of a note's writer and session (names shown beside it). */
  describe?: (row: NoteRow) => { byName: string | null; customerName: string | null; protocol: string | null };
  /** The mentions waiting changed (found, opened). */
  onChange: (mentions: Mention[]) => void;
  log: (message: string) => void;
}

/**
 * Notes of colleagues that mention the attendant, for "Needs me". The service sends no event for
 * notes, so the safety-net poll asks for them: one query of notes written since the last one
 * seen, naming the attendant, at most once per `minGapMs` — a minute while polling (one more
 * request per attendant-minute at most), five while events flow (the poll is rarer then, and
 * the live budget tighter). Found mentions wait, kept per account across restarts, until the
 * attendant opens their session; one opened is never shown again.
 */
export class MentionWatch {
  readonly #o: MentionWatchOptions;
  #state: MentionFile = { v: 1, since: null, pending: [], seen: [] };
  #loaded: Promise<void> | null = null;
  #lastCheck = -Infinity;
  #checking: Promise<void> | null = null;
  readonly #kept: KeptFile<MentionFile>;
  readonly #now: () => number;

  constructor(o: MentionWatchOptions) {
    this.#o = o;
    this.#kept = new KeptFile({ file: o.file, schema: FileSchema, what: 'mentions file', warn: o.log });
    this.#now = o.now ?? systemClock.now;
  }

  /** The mentions waiting for the attendant, newest first. */
  list(): Mention[] {
    return [...this.#state.pending].sort((a, b) => msOf(b.at) - msOf(a.at) || b.noteId - a.noteId);
  }

  load(): Promise<void> {
    // Read once, on first use; an unreadable file is set aside and said (kept-file.ts).
    this.#loaded ??= Promise.resolve().then(() => {
      const kept = this.#kept.read();
      if (kept) this.#state = kept;
    });
    return this.#loaded;
  }

  /**
   * Asks the service when the last check is at least `minGapMs` old (or `force`): one request.
   * A failure is logged and asked again at the next poll; what was found stays.
   */
  check(o: { force?: boolean } = {}): Promise<void> {
    if (this.#checking) return this.#checking;
    if (!o.force && this.#now() - this.#lastCheck < this.#o.minGapMs()) return Promise.resolve();
    const me = this.#o.me();
    if (!me) return Promise.resolve();
    this.#lastCheck = this.#now();
    this.#checking = this.#run(me).finally(() => (this.#checking = null));
    return this.#checking;
  }

  async #run(me: Mentionable): Promise<void> {
    await this.load();
    const since = this.#state.since ?? new Date(this.#now() - FIRST_LOOK_BACK_MS).toISOString();
    let rows: NoteRow[];
    try {
      rows = await this.#o.read(mentionQuery(since, me));
    } catch (e) {
      this.#o.log(`mentions not checked: ${errorText(e)}`);
      return;
    }
    if (this.#take(rows, me, since)) this.#changed();
    else await this.#save();
  }

  /** Adds the notes that mention the attendant (not their own, not seen); true when one was added. */
  #take(rows: NoteRow[], me: Mentionable, since: string): boolean {
    const s = this.#state;
    const known = new Set([...s.seen, ...s.pending.map((p) => p.noteId)]);
    let newest = since;
    let added = false;
    for (const r of rows) {
      if (r.createdAt && msOf(r.createdAt) > msOf(newest)) newest = r.createdAt;
      if (known.has(r.id)) continue;
      if (r.createdBy && [me.userName, me.name].some((m) => m.trim().toLowerCase() === r.createdBy!.trim().toLowerCase())) continue;
      const text = splitRef(r.text).text;
      const at = mentionIndex(text, me);
      if (at < 0) continue;
      known.add(r.id);
      s.pending.push({
        noteId: r.id,
        sessionId: r.sessionId,
        by: r.createdBy,
        at: r.createdAt,
        // Shown in Needs me and kept on disk: a CPF or CNPJ in the note stays masked there.
        excerpt: maskDocuments(excerptOf(text, at)),
        ...this.#o.describe?.(r),
      });
      added = true;
    }
    s.since = newest;
    if (s.pending.length > MAX_PENDING) s.pending = this.list().slice(0, MAX_PENDING);
    return added;
  }

  /** The attendant opened the session: its mentions are seen, never shown again. */
  async seenSession(sessionId: number): Promise<void> {
    await this.load();
    const s = this.#state;
    const opened = s.pending.filter((p) => p.sessionId === sessionId);
    if (!opened.length) return;
    s.pending = s.pending.filter((p) => p.sessionId !== sessionId);
    s.seen = [...s.seen, ...opened.map((p) => p.noteId)].slice(-MAX_SEEN);
    this.#changed();
  }

  #changed(): void {
    void this.#save();
    this.#o.onChange(this.list());
  }

  #save(): Promise<void> {
    return this.#kept.write(this.#state);
  }

  /** Waits for what is being written (the sign-in ends). */
  async flush(): Promise<void> {
    await this.#checking?.catch(() => undefined);
    await this.#kept.flushed();
  }
}
