import { setAsideFile, whyUnreadable } from '../set-aside';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { compareTimed } from '../../src-shared/newest';
import { z } from 'zod';
import { QueueItemSchema, type QueueItem } from '../../src-shared/bridge/attendance';
import { SessionDetailSchema, ThreadMessageSchema, type SessionDetail, type ThreadMessage } from '../../src-shared/bridge/attendance';
import { ServiceNoteSchema, type ServiceNote } from '../../src-shared/bridge/notes';
import { DirSyncer, ensureDir, removeFile, removeStaleTemps, writeFileDurable } from '../outbox/fsutil';
import { systemClock } from '../clock';

/**
 * What the attendant last saw, kept on disk so it stays readable while the service cannot be
 * reached (and across a restart): the queue, the threads opened with their notes, and the answers
 * the first view needs from the service (`keepAnswer`: the directory, the rules). Each file
 * is written whole and atomically, validated with zod when read back (a damaged one is dropped,
 * it is only a copy), and tied to one workspace and attendant (`scope`) so one account's copy is
 * never shown to another. Bounded: the last `maxThreads` threads, `maxMessages` messages each.
 */

const QueueFileSchema = z.strictObject({
  v: z.literal(1),
  scope: z.string(),
  fetchedAt: z.string(),
  items: z.array(QueueItemSchema),
});

/** Answers the service gave that the first view needs, by bridge channel (each checked by its own schema when used). */
const AnswersFileSchema = z.strictObject({
  v: z.literal(1),
  scope: z.string(),
  answers: z.record(z.string(), z.strictObject({ fetchedAt: z.string(), value: z.unknown() })),
});

const NotesCopySchema = z.strictObject({ fetchedAt: z.string(), items: z.array(ServiceNoteSchema) });

const ThreadFileSchema = z.strictObject({
  v: z.literal(1),
  scope: z.string(),
  sessionId: z.number().int(),
  fetchedAt: z.string(),
  /** Last time the attendant opened it: the least recently used thread is dropped first. */
  usedAt: z.number(),
  detail: SessionDetailSchema,
  messages: z.array(ThreadMessageSchema),
  hasMore: z.boolean(),
  notes: NotesCopySchema.nullable(),
});
type ThreadFile = z.infer<typeof ThreadFileSchema>;

export interface CachedThread {
  detail: SessionDetail;
  messages: ThreadMessage[];
  hasMore: boolean;
  fetchedAt: string;
}

export interface OfflineCacheOptions {
  /** Directory of the copies (created if missing). */
  dir: string;
  maxThreads?: number;
  maxMessages?: number;
  /** Quiet time before a changed copy is written (the queue changes in bursts). */
  writeDelayMs?: number;
  log?: (message: string, detail?: unknown) => void;
}

const QUEUE_FILE = 'queue.json';
const ANSWERS_FILE = 'answers.json';
const THREAD_FILE = /^session-(\d+)\.json$/;
const threadFile = (id: number) => `session-${id}.json`;

/** The files set aside as unreadable in a folder of copies (`<name>.unreadable-<time>`). */
async function setAsideIn(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((n) => n.includes('.unreadable-')).map((n) => path.join(dir, n));
  } catch {
    return [];
  }
}

export class OfflineCache {
  readonly #dir: string;
  readonly #threadsDir: string;
  readonly #syncer: DirSyncer;
  readonly #threadSyncer: DirSyncer;
  readonly #maxThreads: number;
  readonly #maxMessages: number;
  readonly #writeDelayMs: number;
  readonly #log: (message: string, detail?: unknown) => void;
  #scope: string | null = null;
  #queueCopy: { items: QueueItem[]; fetchedAt: string } | null = null;
  /** Where the freshest queue comes from when it is written (the live map, not a copy of it). */
  #queueSource: (() => { items: QueueItem[]; fetchedAt: string }) | null = null;
  readonly #threads = new Map<number, ThreadFile>();
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #writes = new Map<string, Promise<void>>();
  #loading: Promise<void> | null = null;
  /** The kept threads, read behind the rest (the first view shows the queue, not them). */
  #threadsLoading: Promise<void> | null = null;
  #threadsLoaded = false;
  /** Whether `setScope` has said whose copies these are yet (before, every copy read is held). */
  #scopeKnown = false;
  /** Scopes found on disk at load: kept until the first setScope decides whether they match. */
  #loadedScope: { queue: string | null; answers: string | null } = { queue: null, answers: null };
  #answers = new Map<string, { fetchedAt: string; value: unknown }>();

  constructor(o: OfflineCacheOptions) {
    this.#dir = o.dir;
    this.#threadsDir = path.join(o.dir, 'threads');
    this.#syncer = new DirSyncer(this.#dir);
    this.#threadSyncer = new DirSyncer(this.#threadsDir);
    this.#maxThreads = o.maxThreads ?? 50;
    this.#maxMessages = o.maxMessages ?? 200;
    this.#writeDelayMs = o.writeDelayMs ?? 1_000;
    this.#log = o.log ?? (() => undefined);
  }

  load(): Promise<void> {
    this.#loading ??= this.#doLoad();
    return this.#loading;
  }

  async #doLoad(): Promise<void> {
    await ensureDir(this.#threadsDir);
    await removeStaleTemps(this.#dir);
    const q = await this.#readJson(path.join(this.#dir, QUEUE_FILE), QueueFileSchema);
    if (q) {
      this.#queueCopy = { items: q.items, fetchedAt: q.fetchedAt };
      this.#loadedScope.queue = q.scope;
    }
    const a = await this.#readJson(path.join(this.#dir, ANSWERS_FILE), AnswersFileSchema);
    if (a) {
      this.#answers = new Map(Object.entries(a.answers));
      this.#loadedScope.answers = a.scope;
    }
    this.#threadsLoading = this.#loadThreads().catch((e: unknown) => this.#log('offline cache: threads not read', e));
  }

  async #loadThreads(): Promise<void> {
    await removeStaleTemps(this.#threadsDir);
    const drop: string[] = [];
    for (const name of await readdir(this.#threadsDir)) {
      if (!THREAD_FILE.test(name)) continue;
      const t = await this.#readJson(path.join(this.#threadsDir, name), ThreadFileSchema);
      if (!t || threadFile(t.sessionId) !== name) continue;
      // Whose copies these are was said meanwhile: another account's go.
      if (this.#scopeKnown && t.scope !== this.#scope) drop.push(path.join(this.#threadsDir, name));
      else this.#threads.set(t.sessionId, t);
    }
    this.#threadsLoaded = true;
    this.#evict();
    await Promise.all(drop.map((f) => removeFile(f).catch((e: unknown) => this.#log('offline cache: could not delete a copy', e))));
  }

  /** Resolves once the kept threads have been read. */
  async #threadsRead(): Promise<void> {
    await this.load();
    await this.#threadsLoading;
  }

  /**
   * Runs a change to the kept threads now, or once they have been read (then only while the
   * copies are still the same account's).
   */
  #whenThreadsRead(change: () => void): void {
    if (this.#threadsLoaded) return change();
    const scope = this.#scope;
    void this.#threadsRead().then(() => {
      if (this.#scope === scope) change();
    });
  }

  /** A copy that does not parse is dropped: it is only a copy, and the service has the truth. */
  async #readJson<T>(file: string, schema: z.ZodType<T>): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      this.#log('offline cache: unreadable file', e);
      this.#setAside(file, whyUnreadable(e));
      return null;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      raw = undefined;
    }
    const parsed = schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    this.#log('offline cache: setting a damaged copy aside', { file: path.basename(file) });
    this.#setAside(file, raw === undefined ? 'not readable as JSON' : 'not a copy of the expected shape');
    return null;
  }

  /** Kept beside, named with its time, and said on the page; removed only if it cannot be moved. */
  #setAside(file: string, reason: string): void {
    try {
      setAsideFile(file, reason);
    } catch {
      void removeFile(file).catch(() => undefined);
    }
  }

  /**
   * The workspace and attendant now signed in (null: signed out). Copies of another scope are
   * deleted, so nothing of one account is ever shown to the next.
   */
  async setScope(scope: string | null): Promise<void> {
    await this.load();
    if (scope === this.#scope && scope !== null) return;
    const before = this.#scopeKnown ? this.#scope : null;
    this.#scope = scope;
    this.#scopeKnown = true;
    this.#queueSource = null;
    const keepQueue = scope !== null && this.#loadedScope.queue === scope;
    const keepAnswers = scope !== null && this.#loadedScope.answers === scope;
    this.#loadedScope = { queue: null, answers: null };
    const drop: string[] = [];
    if (!keepQueue) {
      this.#queueCopy = null;
      this.#cancel(QUEUE_FILE);
      drop.push(path.join(this.#dir, QUEUE_FILE));
    }
    if (!keepAnswers) {
      this.#answers.clear();
      this.#cancel(ANSWERS_FILE);
      drop.push(path.join(this.#dir, ANSWERS_FILE));
    }
    for (const [id, t] of this.#threads) {
      if (scope !== null && t.scope === scope) continue;
      this.#threads.delete(id);
      this.#cancel(threadFile(id));
      drop.push(path.join(this.#threadsDir, threadFile(id)));
    }
    // Copies set aside as unreadable were the account before's too: they go with the rest of its copies.
    const setAside = before !== null && before !== scope ? [...(await setAsideIn(this.#dir)), ...(await setAsideIn(this.#threadsDir))] : [];
    await Promise.all(setAside.map((f) => rm(f, { recursive: true, force: true }).catch(() => undefined)));
    await this.#settled();
    await Promise.all(drop.map((f) => removeFile(f).catch((e: unknown) => this.#log('offline cache: could not delete a copy', e))));
  }

  get currentScope(): string | null {
    return this.#scope;
  }

  // ---- the queue ------------------------------------------------------------------------------

  queue(): { items: QueueItem[]; fetchedAt: string } | null {
    return this.#queueCopy;
  }

  /**
   * The queue changed (or was confirmed current at `fetchedAt`): write it after a quiet moment.
   * `source` is read at write time, so a burst of deltas costs one write.
   */
  queueChanged(source: () => { items: QueueItem[]; fetchedAt: string }): void {
    if (this.#scope === null) return;
    this.#queueSource = source;
    this.#schedule(QUEUE_FILE, async () => {
      const src = this.#queueSource;
      const scope = this.#scope;
      if (!src || scope === null) return;
      const { items, fetchedAt } = src();
      this.#queueCopy = { items, fetchedAt };
      await writeFileDurable(this.#syncer, QUEUE_FILE, JSON.stringify({ v: 1, scope, fetchedAt, items }));
    });
  }

  // ---- answers --------------------------------------------------------------------------------

  /** The answer kept for `channel` (unchecked: its reader checks it against the channel's schema). */
  answer(channel: string): { value: unknown; fetchedAt: string } | null {
    return this.#answers.get(channel) ?? null;
  }

  /** The service gave `value` for `channel`: kept (all the answers are written together after a quiet moment). */
  keepAnswer(channel: string, value: unknown): void {
    if (this.#scope === null) return;
    this.#answers.set(channel, { fetchedAt: new Date(systemClock.now()).toISOString(), value });
    this.#schedule(ANSWERS_FILE, async () => {
      const scope = this.#scope;
      if (scope === null) return;
      await writeFileDurable(this.#syncer, ANSWERS_FILE, JSON.stringify({ v: 1, scope, answers: Object.fromEntries(this.#answers) }));
    });
  }

  // ---- threads --------------------------------------------------------------------------------

  async thread(sessionId: number): Promise<CachedThread | null> {
    await this.#threadsRead();
    const t = this.#threads.get(sessionId);
    return t ? { detail: t.detail, messages: t.messages, hasMore: t.hasMore, fetchedAt: t.fetchedAt } : null;
  }

  /** Every kept thread (for searching them while the service is away). */
  async threads(): Promise<CachedThread[]> {
    await this.#threadsRead();
    return [...this.#threads.values()].map((t) => ({ detail: t.detail, messages: t.messages, hasMore: t.hasMore, fetchedAt: t.fetchedAt }));
  }

  async notes(sessionId: number): Promise<{ items: ServiceNote[]; fetchedAt: string } | null> {
    await this.#threadsRead();
    return this.#threads.get(sessionId)?.notes ?? null;
  }

  /** A thread as just read from the service (its newest page). */
  saveThread(
    sessionId: number,
    got: { detail: SessionDetail; messages: readonly ThreadMessage[]; hasMore: boolean },
    fetchedAt: string,
  ): void {
    if (this.#scope === null) return;
    this.#whenThreadsRead(() => this.#saveThread(sessionId, got, fetchedAt));
  }

  #saveThread(
    sessionId: number,
    got: { detail: SessionDetail; messages: readonly ThreadMessage[]; hasMore: boolean },
    fetchedAt: string,
  ): void {
    if (this.#scope === null) return;
    const prev = this.#threads.get(sessionId);
    const t: ThreadFile = {
      v: 1,
      scope: this.#scope,
      sessionId,
      fetchedAt,
      usedAt: systemClock.now(),
      detail: got.detail,
      messages: got.messages.slice(-this.#maxMessages),
      hasMore: got.hasMore || got.messages.length > this.#maxMessages,
      notes: prev?.notes ?? null,
    };
    this.#threads.delete(sessionId);
    this.#threads.set(sessionId, t);
    this.#evict();
    this.#writeThread(sessionId);
  }

  /** Messages that reached an open thread later (live updates, a reply sent). */
  addMessages(sessionId: number, messages: readonly ThreadMessage[], fetchedAt: string): void {
    this.#whenThreadsRead(() => this.#addMessages(sessionId, messages, fetchedAt));
  }

  #addMessages(sessionId: number, messages: readonly ThreadMessage[], fetchedAt: string): void {
    const t = this.#threads.get(sessionId);
    if (!t || !messages.length) return;
    const byId = new Map(t.messages.map((m) => [m.id, m]));
    for (const m of messages) byId.set(m.id, m);
    // By time (offsets and precisions differ in how a service spells it), not by the text.
    const all = [...byId.values()].sort((a, b) => compareTimed({ at: a.createdAt, id: a.id }, { at: b.createdAt, id: b.id }));
    t.hasMore = t.hasMore || all.length > this.#maxMessages;
    t.messages = all.slice(-this.#maxMessages);
    t.fetchedAt = fetchedAt;
    this.#writeThread(sessionId);
  }

  /** The session's notes as the service listed them; kept with its thread (if it is kept). */
  saveNotes(sessionId: number, items: readonly ServiceNote[], fetchedAt: string): void {
    this.#whenThreadsRead(() => {
      const t = this.#threads.get(sessionId);
      if (!t) return;
      t.notes = { fetchedAt, items: [...items] };
      this.#writeThread(sessionId);
    });
  }

  #evict(): void {
    while (this.#threads.size > this.#maxThreads) {
      let oldest: ThreadFile | null = null;
      for (const t of this.#threads.values()) if (!oldest || t.usedAt < oldest.usedAt) oldest = t;
      if (!oldest) return;
      const id = oldest.sessionId;
      this.#threads.delete(id);
      this.#cancel(threadFile(id));
      void this.#chain(threadFile(id), () => removeFile(path.join(this.#threadsDir, threadFile(id))));
    }
  }

  #writeThread(sessionId: number): void {
    const name = threadFile(sessionId);
    this.#schedule(name, async () => {
      const t = this.#threads.get(sessionId);
      if (!t || t.scope !== this.#scope) return;
      await writeFileDurable(this.#threadSyncer, name, JSON.stringify(t));
    });
  }

  // ---- writing --------------------------------------------------------------------------------

  readonly #jobs = new Map<string, () => Promise<void>>();

  #schedule(name: string, job: () => Promise<void>): void {
    this.#jobs.set(name, job);
    if (this.#timers.has(name)) return;
    // #chain logs a failed write: nothing to wait for here.
    const timer = setTimeout(() => void this.#run(name), this.#writeDelayMs);
    timer.unref?.();
    this.#timers.set(name, timer);
  }

  #cancel(name: string): void {
    const t = this.#timers.get(name);
    if (t) clearTimeout(t);
    this.#timers.delete(name);
    this.#jobs.delete(name);
  }

  #run(name: string): Promise<void> {
    this.#timers.delete(name);
    const job = this.#jobs.get(name);
    this.#jobs.delete(name);
    if (!job) return this.#writes.get(name) ?? Promise.resolve();
    return this.#chain(name, job);
  }

  /** Writes to one file go one after the other, so an older copy never lands after a newer one. */
  #chain(name: string, job: () => Promise<void>): Promise<void> {
    const prev = this.#writes.get(name) ?? Promise.resolve();
    const next = prev
      .then(job)
      .catch((e: unknown) => this.#log('offline cache: write failed', e))
      .finally(() => {
        if (this.#writes.get(name) === next) this.#writes.delete(name);
      });
    this.#writes.set(name, next);
    return next;
  }

  async #settled(): Promise<void> {
    await Promise.all([...this.#writes.values()]);
  }

  /** Writes everything waiting now (before quitting). */
  async flush(): Promise<void> {
    // Changes waiting for the threads to be read are scheduled once they are.
    if (this.#loading) await this.#threadsRead();
    await Promise.all(
      [...this.#timers.keys()].map((name) => {
        const t = this.#timers.get(name);
        if (t) clearTimeout(t);
        return this.#run(name);
      }),
    );
    await this.#settled();
  }

  /** Forgets every copy, on disk too (sign-out). */
  async wipe(): Promise<void> {
    await this.setScope(null);
    await rm(this.#threadsDir, { recursive: true, force: true }).catch(() => undefined);
    await ensureDir(this.#threadsDir);
  }
}
