import { dayOf } from '../../lib/format';
import type { Entity, SessionDetail, ThreadMessage } from '../../../../src-shared/bridge/attendance';
import { OLDER_PAGES_MAX } from '../../../../src-shared/thread-pages';
import { windowClosed, windowEndsAt } from '../../../../src-shared/newest';
import type { ChannelOutput } from '../../../../src-shared/bridge';
import { NONE_UNREADABLE, type Unreadable } from '../../../../src-shared/unreadable';
import { BridgeError, failure, type Worded, worded } from '../../lib/bridge';
import { isTemporary } from '../../../../src-shared/error-kinds';
import type { Scope } from '../../lib/scope.svelte';
import { ThreadPlaces, type ThreadPlace } from '../../lib/thread-places';
import { ComposerStore } from './composer.svelte';
import { ReadRetry } from '../../lib/read-retry.svelte';

/** Failures that say nothing about the reply itself: the service was not reached, or could not take it now. */
const isNetworkFailure = (e: unknown) => e instanceof BridgeError && isTemporary(e);

/** `unconfirmed`: the answer was lost and the thread could not be read to tell; retry with care. */
export type SendState = 'sending' | 'sent' | 'failed' | 'unconfirmed';

/** A message in the thread: from the service, or a reply of ours still on its way. */
export interface ThreadRow {
  key: string;
  message: ThreadMessage;
  /** Only for the attendant's own replies sent from this window. */
  send?: {
    state: SendState;
    clientId: string;
    /** Why it failed, worded when shown. */
    error?: Worded;
    template?: { id: number; params: string[] };
    /** The failed reply was put back into the saved draft (it survives a restart). */
    kept?: boolean;
  };
}

/**
 * The late-reply rule: a reply goes out without a question only within this long of the
 * attendant pressing Send, with the service reachable. A reply held while offline, or a failed
 * one retried later than this, asks "send now?" first: a stale answer is never sent silently.
 */
export const LATE_REPLY_MS = 60_000;

type OlderPage = ChannelOutput<'attendance:olderMessages'>['pages'][number];

let clientSeq = 0;
const newClientId = () => `${Date.now().toString(36)}-${(clientSeq++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export type { ThreadPlace };

/**
 * The open session's thread: the newest page first, older pages on scroll, live additions from
 * the sync engine, and the attendant's replies with their sending state (a failed one can be
 * retried with the same client id, so it is never sent twice).
 */
export class ThreadStore {
  readonly #scope: Scope;
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  get #composer(): ComposerStore {
    return this.#scope.use(ComposerStore);
  }

  placeOf(sessionId: number): ThreadPlace | null {
    return this.#scope.use(ThreadPlaces).placeOf(sessionId);
  }

  keepPlace(sessionId: number, place: ThreadPlace): void {
    this.#scope.use(ThreadPlaces).keepPlace(sessionId, place);
  }
  #sessionId = $state<number | null>(null);
  #detail = $state<SessionDetail | null>(null);
  #rows = $state.raw<ThreadRow[]>([]);
  #entities = $state.raw<Map<number, Entity[]>>(new Map());
  #loading = $state(false);
  #loadingOlder = $state(false);
  #hasMore = $state(false);
  /** Records of the loaded pages that could not be read as messages (shown as a quiet note). */
  #unreadable = $state<Unreadable>(NONE_UNREADABLE);
  #error = $state.raw<Worded | null>(null);
  /** When the shown thread was read from the service (ISO). */
  #fetchedAt = $state<string | null>(null);
  /** true: the service could not be reached and this is the copy kept on this computer. */
  #offlineCopy = $state(false);
  /**
   * Documents (CPF/CNPJ) the attendant revealed in this thread, as `messageId:segment` -> the
   * document. Kept here, not in the rows, so a revealed one stays revealed when its row scrolls
   * out of the virtualised list and back.
   */
  #revealed = $state.raw<Map<string, string>>(new Map());
  /** Time to open the last thread (bridge call to rows in state), for the bench. */
  #lastOpenMs = $state<number | null>(null);
  /** Counts the attendant's sends: the view goes to the newest message on each. */
  #follow = $state(0);

  get sessionId() {
    return this.#sessionId;
  }
  get detail() {
    return this.#detail;
  }
  get rows() {
    return this.#rows;
  }
  get entities() {
    return this.#entities;
  }
  get loading() {
    return this.#loading;
  }
  get loadingOlder() {
    return this.#loadingOlder;
  }
  get hasMore() {
    return this.#hasMore;
  }
  get unreadable() {
    return this.#unreadable;
  }
  get error() {
    return worded(this.#error);
  }
  /** When the read that failed is asked again by itself (ms since epoch), or null. */
  get retryAt() {
    return this.#retry.at;
  }
  readonly #retry = new ReadRetry();
  /** The read that failed, to ask again (by itself, or "Try again"). */
  #again: (() => Promise<void>) | null = null;
  /** The read that failed was of older pages (one that answers clears its failure). */
  #olderFailed = false;

  /** A read failed: said, and asked again when the service allows; what was shown stays. */
  #readFailed(e: unknown, again: () => Promise<void>, older = false): void {
    this.#error = failure(e);
    this.#again = again;
    this.#olderFailed = older;
    this.#retry.failedCall(e, () => void again());
  }

  /** "Try again": the read that failed, now. */
  again(): Promise<void> {
    const again = this.#again;
    this.#retry.stop();
    return again ? again() : Promise.resolve();
  }

  /** The workspace closed: nothing is asked again. */
  dispose(): void {
    this.#retry.stop();
    if (this.#windowTimer) clearTimeout(this.#windowTimer);
  }
  get fetchedAt() {
    return this.#fetchedAt;
  }
  get offlineCopy() {
    return this.#offlineCopy;
  }
  get revealed() {
    return this.#revealed;
  }
  get lastOpenMs() {
    return this.#lastOpenMs;
  }
  get follow() {
    return this.#follow;
  }
  /**
   * Whether only a template may reach the customer (a chat app's 24-hour window is closed):
   * derived from the thread as it is now, by the same rule as the service read at open
   * (src-shared/newest), so a customer's message arriving opens the window at once, and the
   * window's end closes it (`#now` moves then).
   */
  get needsTemplate(): boolean {
    return this.#needsTemplate;
  }
  readonly #needsTemplate = $derived.by(() => {
    const d = this.#detail;
    if (!d) return false;
    return windowClosed(d.item.channel, this.#served(), this.#now);
  });
  /** The clock the window is judged by: set when the thread changes and when its window ends. */
  #now = $state(Date.now());
  #windowTimer: ReturnType<typeof setTimeout> | null = null;

  /** The messages the service holds (replies still on their way are not the customer's). */
  #served(): ThreadMessage[] {
    return this.#rows.filter((r) => r.message.id > 0).map((r) => r.message);
  }

  /** The window is judged again now, and once more when it ends (no derived state waits for a reopen). */
  #judgeWindow(): void {
    if (this.#windowTimer) clearTimeout(this.#windowTimer);
    this.#windowTimer = null;
    this.#now = Date.now();
    const d = this.#detail;
    const ends = d ? windowEndsAt(d.item.channel, this.#served()) : null;
    if (ends === null || ends <= this.#now) return;
    // Timers hold at most ~24.8 days; a window is 24 hours.
    this.#windowTimer = setTimeout(() => this.#judgeWindow(), Math.min(ends - this.#now + 1, 2 ** 31 - 1));
  }

  /** Rows that begin a day in the thread (a date separator goes above each): by key. */
  get dayStarts(): ReadonlySet<string> {
    return this.#dayStarts;
  }
  readonly #dayStarts = $derived.by(() => {
    const starts = new Set<string>();
    let previous: number | null = null;
    for (const r of this.#rows) {
      const day = stampOf(r.message).day;
      if (day === null) continue;
      if (day !== previous) starts.add(r.key);
      previous = day;
    }
    return starts;
  });
  #nextPage = 1;
  #generation = 0;
  #unsubscribe: Array<() => void> = [];

  #listen(): void {
    if (this.#unsubscribe.length) return;
    this.#unsubscribe.push(
      this.#scope.on('attendance:messages', ({ sessionId, messages }) => {
        if (sessionId === this.#sessionId) this.#merge(messages);
      }),
      this.#scope.on('attendance:entities', ({ sessionId, messageId, entities }) => {
        if (sessionId !== this.#sessionId) return;
        const next = new Map(this.#entities);
        next.set(messageId, entities);
        this.#entities = next;
      }),
    );
  }

  async open(sessionId: number): Promise<void> {
    this.#listen();
    if (this.#sessionId !== null && this.#sessionId !== sessionId)
      void this.#scope.invoke('attendance:closeThread', { sessionId: this.#sessionId }).catch(() => undefined);
    const gen = ++this.#generation;
    // Read again (back online, or after a failed read): what is shown stays until the answer
    // replaces it, so a read that fails keeps the messages. Another session starts empty.
    const again = this.#sessionId === sessionId;
    this.#sessionId = sessionId;
    this.#retry.stop();
    this.#loading = true;
    this.#ahead = null;
    if (!again) {
      this.#retry.reset();
      this.#error = null;
      this.#again = null;
      this.#olderFailed = false;
      this.#clearShown([]);
    }
    const started = performance.now();
    try {
      const got = await this.#scope.invoke('attendance:openThread', { sessionId });
      if (gen !== this.#generation) return;
      // Replies not confirmed sent keep their bubble and its warning, which go only once the
      // reply is sent or discarded, not because the thread was read again.
      this.#clearShown(this.#rows.filter((r) => r.send && r.send.state !== 'sent'));
      this.#error = null;
      this.#again = null;
      this.#olderFailed = false;
      this.#retry.reset();
      this.#detail = got.detail;
      this.#judgeWindow();
      this.#fetchedAt = got.fetchedAt;
      this.#offlineCopy = got.offline;
      this.#hasMore = got.page.hasMore;
      this.#unreadable = got.page.unreadable;
      this.#merge(got.page.messages);
      this.#lastOpenMs = performance.now() - started;
    } catch (e) {
      if (gen === this.#generation) this.#readFailed(e, () => (this.#sessionId === sessionId ? this.open(sessionId) : Promise.resolve()));
    } finally {
      if (gen === this.#generation) this.#loading = false;
    }
  }

  /** Nothing of a thread shown but `rows` (the replies still on their way, for a thread read again). */
  #clearShown(rows: ThreadRow[]): void {
    this.#entities = new Map();
    this.#revealed = new Map();
    this.#detail = null;
    this.#rows = rows;
    this.#fetchedAt = null;
    this.#offlineCopy = false;
    this.#hasMore = false;
    this.#unreadable = NONE_UNREADABLE;
    this.#nextPage = 1;
    this.#olderBatch = 1;
  }

  close(): void {
    if (this.#sessionId !== null) void this.#scope.invoke('attendance:closeThread', { sessionId: this.#sessionId }).catch(() => undefined);
    this.#generation++;
    this.#ahead = null;
    this.#retry.reset();
    this.#again = null;
    this.#olderFailed = false;
    this.#error = null;
    this.#sessionId = null;
    this.#detail = null;
    this.#judgeWindow();
    this.#rows = [];
    this.#entities = new Map();
    this.#revealed = new Map();
    this.#fetchedAt = null;
    this.#offlineCopy = false;
  }

  /**
   * Older pages read at once, and merged in one change: one page at first, twice as many each
   * time the reader keeps going back (up to OLDER_PAGES_MAX). Scrolling a long thread back then
   * costs a few renders and overlapping reads, not a render and a round trip per page; a glance
   * at the previous page still reads one. From the second batch on, the next one is read while
   * this one is shown (`#ahead`): the main process reads while the page renders.
   */
  #olderBatch = 1;
  /** The next batch, read ahead while the reader keeps going back. */
  #ahead: { first: number; count: number; pages: Promise<OlderPage[]> } | null = null;

  async #readOlder(sessionId: number, first: number, count: number): Promise<OlderPage[]> {
    return (await this.#scope.invoke('attendance:olderMessages', { sessionId, page: first, count })).pages;
  }

  /** Older pages may be read now: some are left, none is on its way, and an offline copy's wait for the service (its banner says so). */
  readonly #olderReadable = () => !this.#loadingOlder && this.#hasMore && !this.#offlineCopy;

  async older(): Promise<void> {
    if (!this.#olderReadable() || this.#sessionId === null) return;
    const gen = this.#generation;
    const sessionId = this.#sessionId;
    const first = this.#nextPage;
    const ahead = this.#ahead?.first === first ? this.#ahead : null;
    this.#ahead = null;
    const count = ahead?.count ?? this.#olderBatch;
    this.#loadingOlder = true;
    try {
      const pages = await (ahead?.pages ?? this.#readOlder(sessionId, first, count));
      if (gen !== this.#generation) return;
      // Pages after a short one hold nothing new: the thread's beginning is in this batch.
      const end = pages.findIndex((p) => !p.hasMore);
      const used = end < 0 ? pages : pages.slice(0, end + 1);
      this.#nextPage = first + used.length;
      this.#hasMore = end < 0;
      this.#olderBatch = Math.min(OLDER_PAGES_MAX, count * 2);
      if (this.#hasMore && count > 1) {
        const next = {
          first: this.#nextPage,
          count: this.#olderBatch,
          pages: this.#readOlder(sessionId, this.#nextPage, this.#olderBatch),
        };
        // Its failure is told when the reader gets there, not before.
        next.pages.catch(() => undefined);
        this.#ahead = next;
      }
      let unreadable = this.#unreadable;
      for (const p of used)
        if (p.unreadable.count)
          unreadable = { count: unreadable.count + p.unreadable.count, first: unreadable.first ?? p.unreadable.first };
      this.#unreadable = unreadable;
      this.#merge(used.flatMap((p) => p.messages));
      if (this.#olderFailed) {
        this.#olderFailed = false;
        this.#error = null;
        this.#again = null;
        this.#retry.reset();
      }
    } catch (e) {
      if (gen === this.#generation) this.#readFailed(e, () => this.older(), true);
    } finally {
      this.#loadingOlder = false;
    }
  }

  isRevealed(messageId: number, segment: number): boolean {
    return this.#revealed.has(`${messageId}:${segment}`);
  }

  /** Shows or hides one document of a message (the attendant clicked it). */
  toggleReveal(messageId: number, segment: number, text: string): void {
    const key = `${messageId}:${segment}`;
    const next = new Map(this.#revealed);
    if (next.has(key)) next.delete(key);
    else next.set(key, text);
    this.#revealed = next;
  }

  /** The documents now shown in clear, each once (what "include the revealed documents" sends). */
  get revealedDocuments(): string[] {
    return [...new Set(this.#revealed.values())];
  }

  /** A failed reply of this thread with this text, if there is one (Send then retries it). */
  failedWith(text: string): ThreadRow | undefined {
    const t = text.trim();
    return this.#rows.find((r) => r.send?.state === 'failed' && r.message.text.trim() === t);
  }

  /**
   * Adds or updates service messages; keeps the order by time, then id. The rows are kept in
   * order, so new ones are sorted among themselves and merged in one pass: a page of older
   * messages costs its own size, not the whole thread's sorting again.
   */
  #merge(messages: readonly ThreadMessage[]): void {
    if (!messages.length) return;
    const at = new Map<string, number>();
    for (const [i, r] of this.#rows.entries()) at.set(r.key, i);
    const rows = this.#rows.slice();
    const fresh = new Map<string, ThreadRow>();
    let moved = false;
    for (const m of messages) {
      const key = `m${m.id}`;
      const i = at.get(key);
      if (i === undefined) {
        fresh.set(key, { key, message: m });
        continue;
      }
      if (rows[i]!.message.createdAt !== m.createdAt) moved = true;
      rows[i] = { ...rows[i]!, message: m };
    }
    this.#rows = moved ? sortRows([...rows, ...fresh.values()]) : mergeRows(rows, sortRows([...fresh.values()]));
    this.#judgeWindow();
  }

  #replace(clientKey: string, next: ThreadRow | null): void {
    const rows = this.#rows.filter((r) => r.key !== clientKey);
    if (next && !rows.some((r) => r.key === next.key)) rows.push(next);
    else if (next) {
      const i = rows.findIndex((r) => r.key === next.key);
      rows[i] = { ...rows[i]!, send: next.send };
    }
    this.#rows = sortRows(rows);
  }

  async send(text: string, template?: { id: number; params: string[] }): Promise<boolean> {
    const sessionId = this.#sessionId;
    if (sessionId === null || !text.trim()) return false;
    const clientId = newClientId();
    const key = `c${clientId}`;
    const pending: ThreadRow = {
      key,
      message: {
        id: -1,
        sessionId,
        text,
        caption: null,
        contentType: template ? 'template' : 'text',
        createdAt: new Date().toISOString(),
        fromCustomer: false,
        author: 'agent',
        sender: null,
        sentiment: null,
        bySupervisor: false,
        failed: false,
      },
      send: { state: 'sending', clientId, ...(template ? { template } : {}) },
    };
    this.#rows = [...this.#rows, pending];
    this.#follow++;
    return this.#deliver(pending);
  }

  /** A message this window saved apart from a reply (a file): shown in its thread at once, at the newest line. */
  showSent(m: ThreadMessage): void {
    if (m.sessionId !== this.#sessionId) return;
    this.#merge([m]);
    this.#follow++;
  }

  /** A reply that would reach the customer this late asks the attendant first (LATE_REPLY_MS). */
  isLate(row: ThreadRow, now = Date.now()): boolean {
    const at = row.message.createdAt ? Date.parse(row.message.createdAt) : NaN;
    return !Number.isNaN(at) && now - at > LATE_REPLY_MS;
  }

  /** Sends a failed reply again with the same client id: the main process never sends it twice. */
  retry(row: ThreadRow): Promise<boolean> {
    if (!row.send || (row.send.state !== 'failed' && row.send.state !== 'unconfirmed')) return Promise.resolve(false);
    const again: ThreadRow = { ...row, send: { ...row.send, state: 'sending' } };
    delete again.send!.error;
    delete again.send!.kept;
    this.#replace(row.key, again);
    return this.#deliver(again);
  }

  /** Drops a failed reply, and the copy of it kept in the draft (it is not to be sent). */
  discard(row: ThreadRow): void {
    if (row.send?.state !== 'failed' && row.send?.state !== 'unconfirmed') return;
    this.#rows = this.#rows.filter((r) => r.key !== row.key);
    void this.#composer.forgetUnsent(row.message.sessionId, row.message.text);
  }

  async #deliver(row: ThreadRow): Promise<boolean> {
    const sessionId = row.message.sessionId;
    const send = row.send!;
    try {
      const saved = send.template
        ? await this.#scope.invoke('attendance:sendTemplate', {
            sessionId,
            templateId: send.template.id,
            params: send.template.params,
            clientId: send.clientId,
          })
        : await this.#scope.invoke('attendance:send', { sessionId, text: row.message.text, clientId: send.clientId });
      void this.#composer.forgetUnsent(sessionId, row.message.text);
      if (this.#sessionId !== sessionId) return true;
      this.#replace(row.key, { key: `m${saved.id}`, message: saved, send: { state: 'sent', clientId: send.clientId } });
      return true;
    } catch (e) {
      // The service was not reached: the reply goes back into the saved draft, so a restart
      // (which forgets this bubble) cannot lose it. Refused replies stay on the bubble only.
      const unconfirmed = e instanceof BridgeError && e.info.kind === 'OutcomeUnknown';
      const kept = !unconfirmed && isNetworkFailure(e) && !send.template;
      if (kept) void this.#composer.keepUnsent(sessionId, row.message.text);
      if (this.#sessionId === sessionId)
        this.#replace(row.key, { ...row, send: { ...send, state: unconfirmed ? 'unconfirmed' : 'failed', error: failure(e), kept } });
      return false;
    }
  }

  /** Messages for the composer's AI and the summary. */
  get messages(): ThreadMessage[] {
    return this.#rows.filter((r) => r.message.id > 0).map((r) => r.message);
  }

  /** The sessions view leaves: the thread is let go and listening stops (the reader's place in it is kept). */
  suspend(): void {
    for (const u of this.#unsubscribe) u();
    this.#unsubscribe = [];
    this.close();
    this.#error = null;
  }
}

/** A message's instant (ms, 0 when unknown) and local day, worked out once per message record. */
const stamps = new WeakMap<ThreadMessage, { ms: number; day: number | null }>();
function stampOf(m: ThreadMessage): { ms: number; day: number | null } {
  let s = stamps.get(m);
  if (!s) {
    const ms = m.createdAt ? Date.parse(m.createdAt) : NaN;
    s = Number.isNaN(ms) ? { ms: 0, day: null } : { ms, day: dayOf(ms) };
    stamps.set(m, s);
  }
  return s;
}

// Replies still on their way stay at the end, in the order they were sent.
const timeOfRow = (r: ThreadRow) => (r.message.id < 0 ? Number.MAX_SAFE_INTEGER : stampOf(r.message).ms);
const before = (a: ThreadRow, b: ThreadRow) => timeOfRow(a) - timeOfRow(b) || a.message.id - b.message.id;

function sortRows(rows: ThreadRow[]): ThreadRow[] {
  return rows.sort(before);
}

/** Two lists in thread order, as one (linear: the usual case is a page of older rows before all the others). */
function mergeRows(a: ThreadRow[], b: ThreadRow[]): ThreadRow[] {
  if (!b.length) return a;
  if (!a.length || before(b[b.length - 1]!, a[0]!) <= 0) return [...b, ...a];
  const out: ThreadRow[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(before(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}
