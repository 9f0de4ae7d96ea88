import type { LocalNote, OutboxStatusInfo, ServiceNote } from '../../../../src-shared/bridge/notes';
import type { EventPayload } from '../../../../src-shared/bridge';
import { refOf, splitRef } from '../../../../src-shared/note-ref';
import { BridgeError, failure, type Worded, worded } from '../../lib/bridge';
import { errorText } from '../../lib/error-strings';
import type { ErrorInfo } from '../../../../src-shared/errors';
import { WorkspaceClosed, type Scope } from '../../lib/scope.svelte';
import { ReadRetry } from '../../lib/read-retry.svelte';

/** A note of the outbox that changed state or left it. */
type NoteChange = EventPayload<'notes:changed'>;

/** A service note as shown: `text` without the outbox's "· ref XXXXXXXX" suffix. */
export type NoteView = { kind: 'service'; key: string; note: ServiceNote } | { kind: 'local'; key: string; note: LocalNote };

/**
 * The open session's notes: those on the service, and those still in the outbox with their state
 * (pending, sending, confirmed, failed with the reason, outcome unknown). A note typed is never
 * lost: it is journaled before `add` returns, and a failed one waits to be edited or discarded.
 */
export class NotesStore {
  readonly #scope: Scope;
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  #sessionId = $state<number | null>(null);
  #service = $state.raw<ServiceNote[]>([]);
  #local = $state.raw<LocalNote[]>([]);
  #serviceError = $state.raw<ErrorInfo | null>(null);
  /** Set when the service notes shown are the offline copy: when they were read (ISO). */
  #cachedAt = $state<string | null>(null);
  #status = $state<OutboxStatusInfo | null>(null);
  #error = $state.raw<Worded | null>(null);
  #draft = $state('');

  get sessionId() {
    return this.#sessionId;
  }
  get service() {
    return this.#service;
  }
  get local() {
    return this.#local;
  }
  get serviceError() {
    return this.#serviceError && errorText(this.#serviceError);
  }
  /** When the notes are read again by themselves after a failed read (ms since epoch), or null. */
  get retryAt() {
    return this.#retry.at;
  }

  readonly #retry = new ReadRetry();

  /** A failed read of the service's notes is read again by itself, when the service allows. */
  #afterRead(err: ErrorInfo | null): void {
    if (!err) this.#retry.reset();
    else this.#retry.failed(err, () => void this.#refreshService());
  }

  dispose(): void {
    this.#retry.stop();
  }
  get cachedAt() {
    return this.#cachedAt;
  }
  get status() {
    return this.#status;
  }
  get error() {
    return worded(this.#error);
  }
  get draft() {
    return this.#draft;
  }
  #draftTimer: ReturnType<typeof setTimeout> | null = null;
  #unsubscribe: Array<() => void> = [];
  #gen = 0;

  /** Service notes and outbox notes, once each (a confirmed note shows as the service's). */
  get all(): NoteView[] {
    const shown = this.#service.map((note) => {
      const split = splitRef(note.text);
      return { ...note, text: split.text, ref: note.ref ?? split.ref ?? refOf(note.text) ?? null };
    });
    const refs = new Set(shown.map((s) => s.ref).filter((r): r is string => r !== null));
    const ids = new Set(shown.map((s) => s.id));
    const out: NoteView[] = shown.map((note) => ({ kind: 'service', key: `s${note.id}`, note }));
    for (const note of this.#local) {
      if (refs.has(note.ref) || (note.serviceId !== undefined && ids.has(note.serviceId))) continue;
      out.push({ kind: 'local', key: `l${note.id}`, note });
    }
    return out;
  }

  get offline(): boolean {
    return this.#status !== null && this.#status.connectivity !== 'online';
  }

  #listen(): void {
    if (this.#unsubscribe.length) return;
    this.#unsubscribe.push(
      this.#scope.on('notes:changed', (change) => {
        if (change.sessionId !== this.#sessionId) return;
        this.#arrived?.push(change);
        this.#change(change);
      }),
    );
    const status = this.#scope.follow('notes:status', (s) => (this.#status = s));
    this.#unsubscribe.push(status.stop);
    void status.read(() => this.#scope.invoke('notes:status', {})).catch(() => undefined);
  }

  /** Changes heard while the session's list is on its way: applied again on top of it, in order. */
  #arrived: NoteChange[] | null = null;

  /** A note of the outbox changed state, or left it. */
  #change({ note, removedId }: NoteChange): void {
    if (removedId) this.#local = this.#local.filter((n) => n.id !== removedId);
    if (note) {
      const others = this.#local.filter((n) => n.id !== note.id);
      this.#local = [...others, note].sort((a, b) => a.createdAt - b.createdAt);
      if (note.state === 'confirmed') void this.#refreshService();
    }
  }

  async open(sessionId: number): Promise<void> {
    this.#listen();
    this.flushDraft();
    const gen = ++this.#gen;
    this.#sessionId = sessionId;
    this.#service = [];
    this.#local = [];
    this.#draft = '';
    this.#error = null;
    this.#cachedAt = null;
    const arrived: NoteChange[] = [];
    this.#arrived = arrived;
    const [list, drafts] = await Promise.allSettled([
      this.#scope.invoke('notes:list', { sessionId }),
      this.#scope.invoke('notes:draft', { sessionId }),
    ]);
    if (this.#arrived === arrived) this.#arrived = null;
    if (gen !== this.#gen) return;
    this.#retry.reset();
    if (list.status === 'fulfilled') {
      this.#service = list.value.service;
      this.#local = list.value.local;
      this.#serviceError = list.value.serviceError;
      this.#cachedAt = list.value.cachedAt;
      this.#afterRead(list.value.serviceError);
      // Events overtake answers: what changed while the list travelled is newer than it or in it.
      for (const c of arrived) this.#change(c);
    } else this.#listFailed(list.reason);
    if (drafts.status === 'fulfilled' && !this.#draft) this.#draft = drafts.value.note;
  }

  /** Reads the session's notes again (the service is back). */
  reload(): Promise<void> {
    return this.#refreshService();
  }

  async #refreshService(): Promise<void> {
    const sessionId = this.#sessionId;
    if (sessionId === null) return;
    try {
      const got = await this.#scope.invoke('notes:list', { sessionId });
      if (sessionId !== this.#sessionId) return;
      // A read that failed keeps what was shown before (never an empty list for a failure).
      if (!got.serviceError || got.service.length) {
        this.#service = got.service;
        this.#cachedAt = got.cachedAt;
      }
      this.#serviceError = got.serviceError;
      this.#afterRead(got.serviceError);
    } catch (e) {
      // The outbox state is still shown, and the notes shown stay.
      if (sessionId === this.#sessionId) this.#listFailed(e);
    }
  }

  /** The list call itself failed (not only the service's part of it): said and read again as a service failure is. */
  #listFailed(e: unknown): void {
    // Nobody is left to tell: the workspace closed.
    if (e instanceof WorkspaceClosed) return;
    if (!(e instanceof BridgeError)) {
      this.#error = failure(e);
      return;
    }
    this.#serviceError = e.info;
    this.#afterRead(e.info);
  }

  setDraft(text: string): void {
    this.#draft = text;
    if (this.#draftTimer) clearTimeout(this.#draftTimer);
    this.#draftTimer = setTimeout(() => this.flushDraft(), 300);
  }

  flushDraft(): void {
    if (this.#draftTimer) clearTimeout(this.#draftTimer);
    this.#draftTimer = null;
    if (this.#sessionId !== null)
      void this.#scope.invoke('notes:setDraft', { sessionId: this.#sessionId, kind: 'note', text: this.#draft }).catch(() => undefined);
  }

  async add(): Promise<boolean> {
    const text = this.#draft.trim();
    if (!text || this.#sessionId === null) return false;
    try {
      const note = await this.#scope.invoke('notes:add', { sessionId: this.#sessionId, text });
      if (!this.#local.some((n) => n.id === note.id)) this.#local = [...this.#local, note];
      this.#draft = '';
      this.#error = null;
      return true;
    } catch (e) {
      this.#error = failure(e);
      return false;
    }
  }

  async retry(id: string, text?: string): Promise<void> {
    try {
      const note = await this.#scope.invoke('notes:retry', { id, ...(text ? { text } : {}) });
      this.#local = this.#local.map((n) => (n.id === id ? note : n));
    } catch (e) {
      this.#error = failure(e);
    }
  }

  async discard(id: string): Promise<void> {
    try {
      await this.#scope.invoke('notes:discard', { id });
      this.#local = this.#local.filter((n) => n.id !== id);
    } catch (e) {
      this.#error = failure(e);
    }
  }

  /** The sessions view leaves: the note typed is saved, listening stops, the notes shown go. */
  suspend(): void {
    for (const u of this.#unsubscribe) u();
    this.#unsubscribe = [];
    this.flushDraft();
    this.#gen++;
    this.#sessionId = null;
    this.#service = [];
    this.#local = [];
    this.#status = null;
  }
}
