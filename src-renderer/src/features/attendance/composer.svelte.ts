import type { CannedReply, ComposerHelp, CredentialKept, ProviderInfo, Template } from '../../../../src-shared/bridge/attendance';
import { BridgeError, failure, type Worded, worded } from '../../lib/bridge';
import { ReadRetry } from '../../lib/read-retry.svelte';
import type { Scope } from '../../lib/scope.svelte';
import { fillPlaceholders } from '../../../../src-shared/template';

const SAVE_DELAY_MS = 300;

/** Where help goes in a reply that already has text. */
export type Placement = 'replace' | 'insert' | 'append';
/** What the composer writes: a reply the customer reads, or a note only the team sees. */
export type ComposerMode = 'reply' | 'note';
/** Where help came from (the question names it). */
type HelpSource = 'ai' | 'kb' | 'suggestion' | 'canned';
/** A reply as the attendant had it: its text and selection. */
interface Typed {
  text: string;
  start: number;
  end: number;
}

/**
 * The edit that puts `help` into `text` whose selection is `start`..`end`: the range to replace
 * and what goes there. At the caret and after the reply, a space keeps words apart.
 */
export function placement(
  text: string,
  start: number,
  end: number,
  how: Placement,
  help: string,
): { from: number; to: number; insert: string } {
  if (how === 'replace') return { from: 0, to: text.length, insert: help };
  const from = how === 'append' ? text.length : Math.max(0, Math.min(start, text.length));
  const to = how === 'append' ? text.length : Math.max(from, Math.min(end, text.length));
  // A word or a sentence's end before, a word after: a space between (never before punctuation).
  const before = from > 0 && /[\p{L}\p{N}.,;:!?)\]]/u.test(text[from - 1]!) ? ' ' : '';
  const after = to < text.length && /[\p{L}\p{N}(]/u.test(text[to]!) ? ' ' : '';
  return { from, to, insert: before + help + after };
}

/** The `/code` being typed at the caret, if any. */
export function slashToken(text: string, caret: number): { start: number; token: string } | null {
  const before = text.slice(0, caret);
  const m = /(^|\s)(\/[\p{L}\p{N}_-]*)$/u.exec(before);
  if (!m) return null;
  return { start: caret - m[2]!.length, token: m[2]! };
}

/**
 * The reply being written: its draft (kept per session in the main process, so it survives a
 * restart), canned replies expanded from `/code`, suggestions, templates, the AI draft and
 * knowledge-base answers.
 */
export class ComposerStore {
  readonly #scope: Scope;
  constructor(scope: Scope) {
    this.#scope = scope;
    // The session's reply suggestions follow its thread: a customer's message read anew brings
    // the service's suggestions for it (never only those of when the session was opened).
    scope.on('attendance:messages', ({ sessionId, messages }) => {
      if (sessionId === this.#sessionId && messages.some((m) => m.fromCustomer)) void this.#refreshHelp(sessionId);
    });
  }

  /** Help read again for the open session; what failed keeps what was shown. */
  async #refreshHelp(sessionId: number): Promise<void> {
    const gen = this.#loadGen;
    try {
      const help = await this.#scope.invoke('attendance:help', { sessionId });
      if (gen === this.#loadGen && this.#sessionId === sessionId) this.#help = help;
    } catch {
      // The help shown stays; the next message or reopening reads it again.
    }
  }

  #sessionId = $state<number | null>(null);
  #text = $state('');
  #help = $state<ComposerHelp | null>(null);
  #helpError = $state.raw<Worded | null>(null);
  #providers = $state<ProviderInfo[]>([]);
  provider = $state('local');
  model = $state('local-extractive');
  #aiBusy = $state(false);
  #aiError = $state.raw<Worded | null>(null);
  /** Where the provider credential just saved is kept (the form says so); null before a save. */
  #credentialKept = $state<CredentialKept | null>(null);
  kbQuestion = $state('');
  #kbIndex = $state<string | null>(null);
  /** The bases this workspace knows (main process's list), and the one picked to search. */
  #kbBases = $state<string[]>([]);
  kbChosen = $state('');
  #kbAnswers = $state<Array<{ text: string; score: number }>>([]);
  #kbBusy = $state(false);
  #kbError = $state.raw<Worded | null>(null);
  /**
   * Set when Send was pressed while the service could not be reached: the reply was not sent and
   * stays in the box (and in the draft on disk). When the service is back the console asks
   * before it goes (see LATE_REPLY_MS in thread.svelte.ts); it is never sent on its own.
   */
  #heldAt = $state<number | null>(null);
  /** Held replies by session: going to another session and back does not forget that one was never sent. */
  readonly #heldBySession = new Map<number, number>();
  /** Set by components that own the textarea: focus it and put the caret at the end. */
  #focusRequest = $state(0);
  /** Help waiting for the attendant to say where it goes (the box has text). */
  #offer = $state<{ text: string; source: HelpSource } | null>(null);
  /** Help on its way into the box, applied there as an edit of its own (see `offer`). */
  #edit = $state<{ how: Placement; text: string; seq: number } | null>(null);
  /** The reply as it was before the last help went in: what Undo gives back. */
  #undo = $state<Typed | null>(null);
  /** A reply to put back (Undo), for the box to apply with its caret. */
  #restore = $state<(Typed & { seq: number }) | null>(null);
  /** What the box writes: a reply to the customer, or a note only the team sees (per session). */
  #mode = $state<ComposerMode>('reply');
  readonly #modeBySession = new Map<number, ComposerMode>();

  get sessionId() {
    return this.#sessionId;
  }
  get text() {
    return this.#text;
  }
  get help() {
    return this.#help;
  }
  get helpError() {
    return worded(this.#helpError);
  }
  get providers() {
    return this.#providers;
  }
  get aiBusy() {
    return this.#aiBusy;
  }
  get aiError() {
    return worded(this.#aiError);
  }
  get credentialKept() {
    return this.#credentialKept;
  }
  get kbIndex() {
    return this.#kbIndex;
  }
  get kbBases() {
    return this.#kbBases;
  }

  /** The workspace's known bases, the one searched last picked unless the attendant picked another. */
  async loadKbBases(): Promise<void> {
    try {
      const { bases, last } = await this.#scope.invoke('attendance:kbBases', {});
      this.#kbBases = bases;
      if (!this.kbChosen || !bases.includes(this.kbChosen)) this.kbChosen = last ?? bases[0] ?? '';
    } catch (e) {
      this.#kbError = failure(e);
    }
  }
  get kbAnswers() {
    return this.#kbAnswers;
  }
  get kbBusy() {
    return this.#kbBusy;
  }
  get kbError() {
    return worded(this.#kbError);
  }
  get heldAt() {
    return this.#heldAt;
  }
  get focusRequest() {
    return this.#focusRequest;
  }
  get offered() {
    return this.#offer;
  }
  get edit() {
    return this.#edit;
  }
  get canUndo() {
    return this.#undo !== null;
  }
  get restore() {
    return this.#restore;
  }
  /** Asks the reply box to take the keyboard (it watches this counter). */
  requestFocus(): void {
    this.#focusRequest++;
  }
  #saveTimer: ReturnType<typeof setTimeout> | null = null;
  #loadGen = 0;

  async open(sessionId: number): Promise<void> {
    this.flush();
    const gen = ++this.#loadGen;
    this.#sessionId = sessionId;
    this.#text = '';
    this.#heldAt = this.#heldBySession.get(sessionId) ?? null;
    this.#mode = this.#modeBySession.get(sessionId) ?? 'reply';
    this.#help = null;
    this.#helpError = null;
    this.#aiError = null;
    this.#kbAnswers = [];
    this.#kbError = null;
    this.#forgetHelp();
    // The draft is on this computer: shown at once, not after the help (which needs the service).
    const draft = this.#scope.invoke('notes:draft', { sessionId }).then(
      (d) => {
        // The attendant may have started typing while the draft loaded: their keystrokes win.
        if (gen === this.#loadGen && !this.#text) this.#text = d.reply;
      },
      () => undefined,
    );
    this.#helpRetry.reset();
    const [help] = await Promise.allSettled([this.#scope.invoke('attendance:help', { sessionId }), draft]);
    if (gen !== this.#loadGen) return;
    this.#helpAnswered(gen, sessionId, help);
  }

  readonly #helpRetry = new ReadRetry();
  /** When the help that could not load is read again by itself (ms since epoch), or null. */
  get helpRetryAt() {
    return this.#helpRetry.at;
  }

  /**
   * The help's answer: a part that could not load keeps what was shown before and is read again
   * by itself (the service's Retry-After, else a backoff), never shown as an empty list.
   */
  #helpAnswered(gen: number, sessionId: number, help: PromiseSettledResult<ComposerHelp>): void {
    const again = () => {
      if (gen !== this.#loadGen) return;
      void Promise.allSettled([this.#scope.invoke('attendance:help', { sessionId })]).then(([answer]) => {
        if (gen === this.#loadGen) this.#helpAnswered(gen, sessionId, answer);
      });
    };
    if (help.status === 'fulfilled') {
      const next = { ...help.value };
      const prev = this.#help;
      if (prev) for (const p of next.failed) if (!prev.failed.includes(p)) next[p] = prev[p] as never;
      this.#help = next;
      this.#helpError = null;
      if (next.failed.length) this.#helpRetry.failed({ kind: 'Unavailable', status: 503, message: '' }, again);
      else this.#helpRetry.reset();
    } else {
      this.#helpError = failure(help.reason);
      if (help.reason instanceof BridgeError) this.#helpRetry.failed(help.reason.info, again);
      else this.#helpRetry.stop();
    }
  }

  dispose(): void {
    this.#helpRetry.stop();
  }

  setText(text: string): void {
    this.#text = text;
    if (this.#saveTimer) clearTimeout(this.#saveTimer);
    this.#saveTimer = setTimeout(() => this.flush(), SAVE_DELAY_MS);
  }

  /** Sends the draft to the main process now (also before switching sessions). */
  flush(): void {
    if (this.#saveTimer) clearTimeout(this.#saveTimer);
    this.#saveTimer = null;
    if (this.#sessionId !== null)
      void this.#scope.invoke('notes:setDraft', { sessionId: this.#sessionId, kind: 'reply', text: this.#text }).catch(() => undefined);
  }

  clear(): void {
    this.#heldAt = null;
    if (this.#sessionId !== null) this.#heldBySession.delete(this.#sessionId);
    this.#text = '';
    // Sent (or emptied): what Undo would have given back is not a reply to restore any more.
    this.#undo = null;
    // At once, not after the typing delay: a failed send puts the reply back into the draft,
    // and a late empty save must not overwrite it.
    this.flush();
  }

  /**
   * A reply that could not reach the service goes back into its session's saved draft (the
   * failed bubble still offers retry and discard). Text typed since is kept after it.
   */
  async keepUnsent(sessionId: number, text: string): Promise<void> {
    const t = text.trim();
    if (!t) return;
    const merged = (current: string) => (!current.trim() ? t : current.includes(t) ? current : `${t}\n\n${current}`);
    if (this.#sessionId === sessionId) {
      this.#text = merged(this.#text);
      this.flush();
      return;
    }
    const d = await this.#scope.invoke('notes:draft', { sessionId }).catch(() => null);
    if (d && merged(d.reply) !== d.reply)
      await this.#scope.invoke('notes:setDraft', { sessionId, kind: 'reply', text: merged(d.reply) }).catch(() => undefined);
  }

  /** The failed reply was sent after all, or discarded: its copy in the draft goes too. */
  async forgetUnsent(sessionId: number, text: string): Promise<void> {
    const t = text.trim();
    if (this.#sessionId === sessionId) {
      if (this.#text.trim() === t) this.clear();
      return;
    }
    const d = await this.#scope.invoke('notes:draft', { sessionId }).catch(() => null);
    if (d && d.reply.trim() === t)
      await this.#scope.invoke('notes:setDraft', { sessionId, kind: 'reply', text: '' }).catch(() => undefined);
  }

  /** Keeps the reply instead of sending it (offline): saved at once, asked about later. */
  hold(): void {
    this.#heldAt ??= Date.now();
    if (this.#sessionId !== null) this.#heldBySession.set(this.#sessionId, this.#heldAt);
    this.flush();
  }

  /** "Not yet": the held reply stays an ordinary draft, sent only when Send is pressed again. */
  unhold(): void {
    this.#heldAt = null;
    if (this.#sessionId !== null) this.#heldBySession.delete(this.#sessionId);
  }

  /** Canned replies whose code starts with the typed token. */
  matches(token: string): CannedReply[] {
    const t = token.toLowerCase();
    return (this.#help?.canned ?? []).filter((c) => c.code.toLowerCase().startsWith(t)).slice(0, 8);
  }

  /** Fills the placeholders a canned text may carry. */
  fill(text: string, vars: { agent?: string | null; protocol?: string | null; customer?: string | null }): string {
    return fillPlaceholders(text, { agente: vars.agent, protocolo: vars.protocol, nome: vars.customer });
  }

  /** Replaces the `/code` token at `start` with the canned text; returns the new caret. */
  expand(start: number, tokenLength: number, replacement: string): number {
    const next = this.#text.slice(0, start) + replacement + this.#text.slice(start + tokenLength);
    this.setText(next);
    return start + replacement.length;
  }

  /**
   * Help for the reply (an AI draft, a knowledge-base answer, a suggestion, a canned reply).
   * An empty box takes it at once; over text already typed the attendant is asked where it goes
   * (`place`), so nothing typed is lost without their say.
   */
  offer(text: string, source: HelpSource): void {
    if (!text.trim()) return;
    if (!this.#text.trim()) {
      this.#offer = null;
      this.#queueEdit('replace', text);
    } else this.#offer = { text, source };
  }

  /** Where the offered help goes: over the whole reply, at the caret, or after the reply. */
  place(how: Placement): void {
    const o = this.#offer;
    this.#offer = null;
    if (o) this.#queueEdit(how, o.text);
  }

  /** The attendant keeps their reply as it is. */
  dismissOffer(): void {
    this.#offer = null;
  }

  // No focus request here: the box takes the keyboard as it applies the edit, without first
  // moving the caret (help "at the cursor" goes where the attendant left it).
  #queueEdit(how: Placement, text: string): void {
    this.#edit = { how, text, seq: (this.#edit?.seq ?? 0) + 1 };
  }

  /** The box takes the edit waiting for it (applied as an edit of its own, so Ctrl+Z undoes it). */
  takeEdit(): { how: Placement; text: string } | null {
    const e = this.#edit;
    this.#edit = null;
    return e ? { how: e.how, text: e.text } : null;
  }

  /** The box applied help over `before`: Undo gives that back, until the attendant edits again. */
  applied(before: Typed): void {
    this.#undo = before;
  }

  /** The attendant edited the reply themselves: what Undo would give back is gone. */
  edited(): void {
    this.#undo = null;
  }

  /** Gives back the reply as it was before the help went in (the box restores it, caret included). */
  undo(): void {
    const before = this.#undo;
    this.#undo = null;
    if (before) this.#restore = { ...before, seq: (this.#restore?.seq ?? 0) + 1 };
  }

  takeRestore(): Typed | null {
    const r = this.#restore;
    this.#restore = null;
    return r ? { text: r.text, start: r.start, end: r.end } : null;
  }

  async loadProviders(): Promise<void> {
    try {
      this.#providers = (await this.#scope.invoke('attendance:providers', {})).providers;
      const current = this.#providers.find((p) => p.name === this.provider);
      if (!current && this.#providers[0]) {
        this.provider = this.#providers[0].name;
        this.model = this.#providers[0].models[0]?.id ?? '';
      }
    } catch (e) {
      this.#aiError = failure(e);
    }
  }

  /**
   * `revealed`: the documents the attendant revealed in the thread and chose to include; by
   * default (none) every CPF/CNPJ leaves masked.
   */
  async aiDraft(revealed: readonly string[] = []): Promise<void> {
    if (this.#sessionId === null || !this.model) return;
    this.#aiBusy = true;
    this.#aiError = null;
    try {
      const { text } = await this.#scope.invoke('attendance:aiDraft', {
        sessionId: this.#sessionId,
        choice: { provider: this.provider, model: this.model },
        ...(revealed.length ? { revealDocuments: true, revealed: [...revealed] } : {}),
      });
      this.offer(text, 'ai');
    } catch (e) {
      this.#aiError = failure(e);
    } finally {
      this.#aiBusy = false;
    }
  }

  /** `allowWeakStorage`: the user agreed to weak protection (no keyring); else this run only. */
  async saveCredential(
    provider: string,
    c: { accessKey?: string; secretKey?: string; token?: string },
    allowWeakStorage = false,
  ): Promise<boolean> {
    this.#aiError = null;
    try {
      const { credentialSet, kept } = await this.#scope.invoke('attendance:setCredential', { provider, ...c, allowWeakStorage });
      this.#providers = this.#providers.map((p) => (p.name === provider ? { ...p, credentialSet, kept } : p));
      this.#credentialKept = kept;
      return true;
    } catch (e) {
      this.#aiError = failure(e);
      return false;
    }
  }

  async clearCredential(provider: string): Promise<void> {
    const { credentialSet, kept } = await this.#scope.invoke('attendance:clearCredential', { provider });
    this.#providers = this.#providers.map((p) => (p.name === provider ? { ...p, credentialSet, kept } : p));
    this.#credentialKept = null;
  }

  async ask(index?: string, revealed: readonly string[] = []): Promise<void> {
    const question = this.kbQuestion.trim();
    if (!question) return;
    this.#kbBusy = true;
    this.#kbError = null;
    try {
      const got = await this.#scope.invoke('attendance:kbAnswer', {
        question,
        ...(index !== undefined ? { index } : {}),
        ...(revealed.length ? { revealDocuments: true, revealed: [...revealed] } : {}),
      });
      this.#kbIndex = got.index;
      this.#kbAnswers = got.answers;
      // A base named by hand that answered joins the list, picked.
      if (got.index) {
        if (!this.#kbBases.includes(got.index)) this.#kbBases = [got.index, ...this.#kbBases];
        this.kbChosen = got.index;
      }
    } catch (e) {
      this.#kbError = failure(e);
      this.#kbAnswers = [];
    } finally {
      this.#kbBusy = false;
    }
  }

  templateById(id: number): Template | undefined {
    return this.#help?.templates.find((t) => t.id === id);
  }

  get mode(): ComposerMode {
    return this.#mode;
  }

  /** Reply or note: each keeps its own draft; the choice is remembered for the session. */
  setMode(mode: ComposerMode): void {
    this.#mode = mode;
    if (this.#sessionId !== null) this.#modeBySession.set(this.#sessionId, mode);
    this.requestFocus();
  }

  toggleMode(): void {
    this.setMode(this.#mode === 'reply' ? 'note' : 'reply');
  }

  /** The sessions view leaves: the draft is saved and the box let go (the draft comes back from the main process). */
  suspend(): void {
    this.flush();
    this.#loadGen++;
    this.#sessionId = null;
    this.#text = '';
    this.#heldAt = null;
    this.#help = null;
    this.#kbAnswers = [];
    this.kbQuestion = '';
    this.#credentialKept = null;
    this.#forgetHelp();
  }

  /** Another session's reply: help offered or applied to the last one does not carry over. */
  #forgetHelp(): void {
    this.#offer = null;
    this.#edit = null;
    this.#undo = null;
    this.#restore = null;
  }
}
