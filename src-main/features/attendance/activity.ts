import { z } from 'zod';
import { maskDocuments } from '../../../src-shared/redact';
import { compareTimed, isNewer, messageTime } from '../../../src-shared/newest';
import type { ThreadMessage } from '../../../src-shared/bridge/attendance';
import {
  NO_CONVERSATION,
  UNANSWERED_KEPT,
  waitingSinceOf,
  withCustomerMessage,
  withReply,
  type Conversation,
} from '../../../src-shared/waiting';
import { systemClock } from '../../clock';
import { KeptFile } from '../../kept-file';

/** How much of the customer's last message the queue row shows. */
export const PREVIEW_CHARS = 140;
/** Sessions remembered per workspace; those with the oldest customer message are forgotten first. */
const PER_SCOPE = 5_000;
/** Writes are grouped: a burst of customer messages costs one write. */
const WRITE_DELAY_MS = 250;
/** Customer messages remembered per session to count each once. */
const COUNTED_IDS = 50;

const ActivitySchema = z
  .object({
    lastCustomerAt: z.string().nullable(),
    preview: z.string().nullable(),
    unread: z.number().int().min(0),
    /** The newest customer message by time, counted or shown (the one the row shows). */
    countedId: z.number().int(),
    /**
     * The last customer messages counted: a webhook and a sync read of one count it once, and two
     * messages reaching the console out of order (events race each other) are both counted.
     */
    counted: z.array(z.number().int()).max(COUNTED_IDS).optional(),
    /** The attendant's newest message seen (src-shared/waiting.ts); absent in files written before. */
    repliedAt: z.string().nullable().optional(),
    /** The customer's messages newer than that reply, oldest first: the wait starts at the first. */
    unanswered: z.array(z.string()).max(UNANSWERED_KEPT).optional(),
  })
  .strict();
type Activity = z.infer<typeof ActivitySchema>;
const FileSchema = z.record(z.string(), z.record(z.string(), ActivitySchema));

/** The start of a customer's message as the row shows it, documents masked; null for an empty one. */
function previewOf(m: ThreadMessage): string | null {
  const text = (m.text.trim() || m.caption?.trim() || '').replace(/\s+/g, ' ');
  return text ? maskDocuments(text).slice(0, PREVIEW_CHARS) : null;
}

/** The ids counted, with one more: the newest `COUNTED_IDS` are kept. */
function withCounted(counted: readonly number[], id: number): number[] {
  return [...counted, id].slice(-COUNTED_IDS);
}

/** What a queue row shows of a session's activity. */
export type ActivityFields = Pick<Activity, 'lastCustomerAt' | 'preview' | 'unread'>;

/** What a queue row shows of the wait (src-shared/waiting.ts): null fields when nothing was seen. */
export interface WaitFields {
  waitingSince: string | null;
  repliedAt: string | null;
}

/** A session's conversation as kept; a file written before it was kept knows only the customer's last message. */
function conversationOf(a: Activity): Conversation {
  if (a.unanswered || a.repliedAt !== undefined) return { repliedAt: a.repliedAt ?? null, unanswered: a.unanswered ?? [] };
  return a.lastCustomerAt ? { repliedAt: null, unanswered: [a.lastCustomerAt] } : NO_CONVERSATION;
}

/**
 * A session's row once customer message `m` is taken: counted when `record`, one more unread when
 * `news`, and shown when it is the newest (by time) the row knows of. Its conversation stays.
 */
function rowAfter(prev: Activity | undefined, m: ThreadMessage, o: { news: boolean; record: boolean; newest: boolean }): Activity {
  const counted = prev?.counted ?? [];
  // The newest message (by time) the row knows of, counted or shown: the one it shows.
  const shows =
    o.newest || !prev
      ? {
          lastCustomerAt: m.createdAt ?? (o.news ? new Date(systemClock.now()).toISOString() : null),
          preview: previewOf(m),
          countedId: m.id,
        }
      : { lastCustomerAt: prev.lastCustomerAt, preview: prev.preview, countedId: prev.countedId };
  return {
    lastCustomerAt: shows.lastCustomerAt,
    preview: shows.preview,
    unread: (prev?.unread ?? 0) + (o.news ? 1 : 0),
    countedId: shows.countedId,
    counted: o.record ? withCounted(counted, m.id) : counted,
    ...(prev?.repliedAt !== undefined ? { repliedAt: prev.repliedAt } : {}),
    ...(prev?.unanswered ? { unanswered: prev.unanswered } : {}),
  };
}

/**
 * The customer's last message and how many the attendant has not seen, per session, kept per
 * workspace (scope) across restarts in one private file.
 */
export class ActivityStore {
  #all: Record<string, Record<string, Activity>> = {};
  #scope: string | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  readonly #kept: KeptFile<Record<string, Record<string, Activity>>>;

  constructor(file: string, warn: (message: string) => void) {
    this.#kept = new KeptFile({ file, schema: FileSchema, what: 'attendance activity', warn });
    // Unreadable: set aside and said on the page; the activity starts empty.
    this.#all = this.#kept.read() ?? {};
  }

  /** The workspace and attendant now signed in (null: signed out). */
  setScope(scope: string | null): void {
    this.#scope = scope;
  }

  #sessions(): Record<string, Activity> | null {
    if (this.#scope === null) return null;
    return (this.#all[this.#scope] ??= {});
  }

  get(sessionId: number): ActivityFields | undefined {
    const a = this.#sessions()?.[sessionId];
    return a && { lastCustomerAt: a.lastCustomerAt, preview: a.preview, unread: a.unread };
  }

  /** The wait of a session's customer as far as the console saw (undefined: nothing seen). */
  wait(sessionId: number): WaitFields | undefined {
    const a = this.#sessions()?.[sessionId];
    if (!a) return undefined;
    const c = conversationOf(a);
    return { waitingSince: waitingSinceOf(c), repliedAt: c.repliedAt };
  }

  /**
   * Messages of a session read or received, of any author: an attendant's answers the customer's
   * messages up to it, a customer's starts (or continues) the wait. Only the conversation changes
   * here (previews and counts go through the other methods). True when the wait changed.
   */
  converse(messages: Iterable<ThreadMessage>): Set<number> {
    const sessions = this.#sessions();
    const changed = new Set<number>();
    if (!sessions) return changed;
    for (const m of messages) {
      if (!m.createdAt || (!m.fromCustomer && m.author !== 'agent')) continue;
      const key = String(m.sessionId);
      const prev = sessions[key];
      const before = prev ? conversationOf(prev) : NO_CONVERSATION;
      const after = m.fromCustomer ? withCustomerMessage(before, m.createdAt) : withReply(before, m.createdAt);
      if (after === before) continue;
      sessions[key] = {
        ...(prev ?? { lastCustomerAt: null, preview: null, unread: 0, countedId: 0, counted: [] }),
        repliedAt: after.repliedAt,
        unanswered: after.unanswered,
      };
      changed.add(m.sessionId);
    }
    if (changed.size) {
      this.#trim(sessions);
      this.#schedule();
    }
    return changed;
  }

  /** A customer message reached the console; true when it is news (not counted before). */
  customerMessage(m: ThreadMessage): boolean {
    return this.#take(m, 'news');
  }

  /**
   * A customer message the attendant has before their eyes (the newest of a thread opened): the
   * row shows it when it is newer than what the row shows, and it is never counted as unread, also
   * when its news reaches the console afterwards. True when the row changed.
   */
  known(m: ThreadMessage): boolean {
    return this.#take(m, 'known');
  }

  /**
   * A customer message read for the row's preview. Whether it is old or news still on its way (its
   * event or a sync read may come a moment later) cannot be told from the read, so it is only
   * shown: the row shows it when it is the newest, and its news, if any comes, counts it once.
   * True when the row changed.
   */
  shown(m: ThreadMessage): boolean {
    return this.#take(m, 'shown');
  }

  #take(m: ThreadMessage, how: 'news' | 'known' | 'shown'): boolean {
    const sessions = this.#sessions();
    if (!sessions || !m.fromCustomer) return false;
    const key = String(m.sessionId);
    const prev = sessions[key];
    // A file written before `counted` existed knows only the newest id counted.
    if (prev && (prev.counted ? prev.counted.includes(m.id) : m.id <= prev.countedId)) return false;
    const news = how === 'news';
    const record = how !== 'shown';
    // An older message reaching the console late is counted, but the row keeps showing the newest;
    // one that is not news changes nothing on the row unless it is the newest.
    // Newest by the messages' times (ids need not follow them), as everywhere else.
    const newest = !prev || isNewer(messageTime(m), { at: prev.lastCustomerAt, id: prev.countedId });
    if (!news && !newest) {
      // The message the row already shows (as a preview), now before the attendant: its news no longer counts.
      if (record && prev) {
        prev.counted = withCounted(prev.counted ?? [], m.id);
        this.#schedule();
      }
      return false;
    }
    sessions[key] = rowAfter(prev, m, { news, record, newest });
    this.#trim(sessions);
    this.#schedule();
    return true;
  }

  /** Whether the row of a session shows a customer's message already. */
  hasPreview(sessionId: number): boolean {
    return !!this.#sessions()?.[sessionId]?.preview;
  }

  /** The attendant saw the session's thread; true when that changed its count. */
  seen(sessionId: number): boolean {
    const a = this.#sessions()?.[sessionId];
    if (!a || a.unread === 0) return false;
    a.unread = 0;
    this.#schedule();
    return true;
  }

  #trim(sessions: Record<string, Activity>): void {
    const keys = Object.keys(sessions);
    if (keys.length <= PER_SCOPE) return;
    // Rare (past the cap): the sessions whose customer wrote longest ago go first.
    keys.sort((a, b) =>
      compareTimed(
        { at: sessions[a]!.lastCustomerAt, id: sessions[a]!.countedId },
        { at: sessions[b]!.lastCustomerAt, id: sessions[b]!.countedId },
      ),
    );
    for (const k of keys.slice(0, keys.length - PER_SCOPE)) delete sessions[k];
  }

  #schedule(): void {
    this.#timer ??= setTimeout(() => {
      this.#timer = null;
      void this.#write();
    }, WRITE_DELAY_MS);
  }

  #write(): Promise<void> {
    return this.#kept.write(this.#all);
  }

  /** Writes what is pending now (on stop). */
  async flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = null;
      void this.#write();
    }
    await this.#kept.flushed();
  }
}
