import type { ThreadMessage } from '../../../../src-shared/bridge/attendance';
import type { CustomerHistory, PastSession, SearchHit, SearchResult } from '../../../../src-shared/bridge/history';
import type { ServiceNote } from '../../../../src-shared/bridge/notes';
import { tick } from 'svelte';
import { failure, type Worded, worded, wordingOf } from '../../lib/bridge';
import type { Scope } from '../../lib/scope.svelte';
import { QueueStore } from '../../lib/queue.svelte';
import { ThreadPlaces } from '../../lib/thread-places';
import { ReadRetry } from '../../lib/read-retry.svelte';

/** Quiet time after the last keystroke before the search asks the service. */
export const SEARCH_DEBOUNCE_MS = 250;

/**
 * The customer panel beside the thread: each session's customer history, read when the panel
 * first shows it and kept for as long as the workspace is open (a refresh reads it again), and
 * an earlier session shown read-only in the panel, the open thread left as it is.
 */
export class CustomerStore {
  readonly #scope: Scope;
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  #kept = $state.raw<Map<number, CustomerHistory>>(new Map());
  #loading = $state<number | null>(null);
  #error = $state.raw<{ sessionId: number; message: Worded } | null>(null);

  history(sessionId: number): CustomerHistory | null {
    return this.#kept.get(sessionId) ?? null;
  }
  loading(sessionId: number): boolean {
    return this.#loading === sessionId;
  }
  error(sessionId: number): string | null {
    return this.#error?.sessionId === sessionId ? this.#error.message() : null;
  }
  /** When the history that could not be read is asked again by itself (ms since epoch), or null. */
  retryAt(sessionId: number): number | null {
    return this.#error?.sessionId === sessionId || this.#kept.get(sessionId)?.failed.length ? this.#retry.at : null;
  }
  /** One history is asked again at a time: the one the panel shows (another session's starts anew). */
  readonly #retry = new ReadRetry();
  readonly #viewRetry = new ReadRetry();

  /** The workspace closed: nothing is asked again. */
  dispose(): void {
    this.#retry.stop();
    this.#viewRetry.stop();
  }

  /**
   * Reads the history of `sessionId`'s customer, unless it is kept already (or `fresh`). One
   * that fails keeps what was shown and is read again by itself while the panel shows it.
   */
  async load(sessionId: number, fresh = false): Promise<void> {
    if ((!fresh && this.#kept.has(sessionId)) || this.#loading === sessionId) return;
    if (this.#error?.sessionId !== sessionId) {
      this.#error = null;
      this.#retry.reset();
    }
    this.#retry.stop();
    this.#loading = sessionId;
    try {
      const got = await this.#scope.invoke('history:customer', { sessionId });
      this.#kept = new Map(this.#kept).set(sessionId, got);
      if (this.#error?.sessionId === sessionId) this.#error = null;
      // A part that could not load (named on the panel) is read again by itself, as a failure would be.
      if (got.failed.length && this.#loading === sessionId)
        this.#retry.failed({ kind: 'Unavailable', message: '' }, () => void this.load(sessionId, true));
      else this.#retry.reset();
    } catch (e) {
      // Another session's history was asked for meanwhile: that one's failure is not this one's.
      if (this.#loading === sessionId) {
        this.#error = { sessionId, message: failure(e) };
        this.#retry.failedCall(e, () => void this.load(sessionId, true));
      }
    } finally {
      if (this.#loading === sessionId) this.#loading = null;
    }
  }

  /** The panel no longer shows `sessionId`: its history is not asked again by itself. */
  leave(sessionId: number): void {
    if (this.#error?.sessionId === sessionId || this.#kept.get(sessionId)?.failed.length) this.#retry.stop();
    this.#viewRetry.stop();
  }

  #viewing = $state<PastSession | null>(null);
  #messages = $state.raw<ThreadMessage[]>([]);
  #notes = $state.raw<ServiceNote[]>([]);
  #viewLoading = $state(false);
  #viewError = $state.raw<Worded | null>(null);
  #viewSeq = 0;

  get viewing() {
    return this.#viewing;
  }
  get messages() {
    return this.#messages;
  }
  get notes() {
    return this.#notes;
  }
  get viewLoading() {
    return this.#viewLoading;
  }
  get viewError() {
    return worded(this.#viewError);
  }
  /** When the earlier session that could not be read is asked again by itself (ms since epoch), or null. */
  get viewRetryAt() {
    return this.#viewRetry.at;
  }
  /** Whether the earlier session shown was read (messages and notes): an empty list then means none. */
  #viewRead = $state(false);
  get viewRead() {
    return this.#viewRead;
  }

  /**
   * Shows an earlier session read-only: its messages and its notes. A read that fails keeps what
   * was shown (of this session) and is asked again by itself while it is shown.
   */
  async view(s: PastSession): Promise<void> {
    const seq = ++this.#viewSeq;
    const again = this.#viewing?.id === s.id;
    this.#viewing = s;
    this.#viewRetry.stop();
    if (!again) {
      this.#viewRetry.reset();
      this.#messages = [];
      this.#notes = [];
      this.#viewError = null;
      this.#viewRead = false;
    }
    this.#viewLoading = true;
    try {
      const [page, notes] = await Promise.all([
        this.#scope.invoke('history:session', { sessionId: s.id }),
        this.#scope.invoke('notes:list', { sessionId: s.id }),
      ]);
      if (seq !== this.#viewSeq) return;
      this.#messages = page.messages;
      // Notes that could not be read keep what was shown of them.
      if (!notes.serviceError || notes.service.length) this.#notes = notes.service;
      this.#viewRead = !notes.serviceError;
      this.#viewError = notes.serviceError ? wordingOf(notes.serviceError) : null;
      if (notes.serviceError) this.#viewRetry.failed(notes.serviceError, () => void this.#viewAgain(seq, s));
      else this.#viewRetry.reset();
    } catch (e) {
      if (seq !== this.#viewSeq) return;
      this.#viewError = failure(e);
      this.#viewRetry.failedCall(e, () => void this.#viewAgain(seq, s));
    } finally {
      if (seq === this.#viewSeq) this.#viewLoading = false;
    }
  }

  /** Asked again by itself: only while the same earlier session is still shown. */
  #viewAgain(seq: number, s: PastSession): Promise<void> {
    return seq === this.#viewSeq ? this.view(s) : Promise.resolve();
  }

  /** "Try again": the earlier session shown, read now. */
  viewAgain(): Promise<void> {
    return this.#viewing ? this.view(this.#viewing) : Promise.resolve();
  }

  closeView(): void {
    this.#viewRetry.reset();
    this.#viewRead = false;
    this.#viewSeq++;
    this.#viewing = null;
    this.#messages = [];
    this.#notes = [];
    this.#viewError = null;
    this.#viewLoading = false;
  }
}

/**
 * The search over sessions and messages: debounced as the attendant types; each search asks the
 * main process, which cancels the one still running, and an answer older than the newest asked is
 * never shown. `found` is the message a hit opened, marked in the thread.
 */
export class SearchStore {
  readonly #scope: Scope;
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  #query = $state('');
  #result = $state.raw<SearchResult | null>(null);
  #searching = $state(false);
  #error = $state.raw<Worded | null>(null);
  #found = $state<number | null>(null);
  #timer: ReturnType<typeof setTimeout> | null = null;
  #seq = 0;

  get query() {
    return this.#query;
  }
  get result() {
    return this.#result;
  }
  get searching() {
    return this.#searching;
  }
  get error() {
    return worded(this.#error);
  }
  get found() {
    return this.#found;
  }

  /** The attendant typed: search once they pause. */
  type(q: string): void {
    this.#query = q;
    if (this.#timer) clearTimeout(this.#timer);
    if (q.trim().length < 2) {
      this.#seq++;
      this.#result = null;
      this.#searching = false;
      this.#error = null;
      return;
    }
    this.#searching = true;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.run();
    }, SEARCH_DEBOUNCE_MS);
  }

  /** Searches now (Enter, or after the pause). */
  async run(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const q = this.#query;
    if (q.trim().length < 2) return;
    const seq = ++this.#seq;
    this.#searching = true;
    this.#error = null;
    try {
      const got = await this.#scope.invoke('history:search', { query: q });
      if (seq !== this.#seq || got.superseded) return;
      this.#result = got;
    } catch (e) {
      if (seq === this.#seq) this.#error = failure(e);
    } finally {
      if (seq === this.#seq) this.#searching = false;
    }
  }

  clear(): void {
    this.type('');
  }

  /**
   * Opens a hit's session in the attendance view, at the message that matched (scrolled to it and
   * marked until another hit is opened); the results stay for the next one.
   */
  async open(hit: SearchHit): Promise<void> {
    const queue = this.#scope.use(QueueStore);
    this.#found = hit.messageId;
    // The thread opens where its reader last was: here, a little above the message found.
    if (hit.messageId !== null)
      this.#scope.use(ThreadPlaces).keepPlace(hit.sessionId, { anchor: { key: `m${hit.messageId}`, delta: 96 }, stuck: false });
    if (queue.selectedId === hit.sessionId) {
      // Already open: shown again, so the thread opens at the message.
      queue.select(null);
      await tick();
    }
    queue.select(hit.sessionId);
    queue.revealSelected();
  }
}
