import type { ShortcutState, TicketView } from '../../../../src-shared/bridge/supervisor';
import { BridgeError, failure, invoke, type Worded, worded } from '../../lib/bridge';
import type { Scope } from '../../lib/scope.svelte';
import { accelToCombo, comboText, comboToAccel } from './shortcut';

/** Until the main process answers: the same default it keeps. */
const DEFAULT_COMBO = 'Mod+Shift+T';

/** The ticket lookup of one workspace: its dialog, the ticket shown and the recent list. */
export class TicketLookupStore {
  readonly #scope: Scope;
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  #open = $state(false);
  #loading = $state(false);
  #error = $state.raw<Worded | null>(null);
  #result = $state<TicketView | null>(null);
  #recent = $state<TicketView[]>([]);
  /** The key typed in the dialog (bound to its field). */
  query = $state('');

  get open(): boolean {
    return this.#open;
  }
  get loading(): boolean {
    return this.#loading;
  }
  get error(): string | null {
    return worded(this.#error);
  }
  get result(): TicketView | null {
    return this.#result;
  }
  get recent(): readonly TicketView[] {
    return this.#recent;
  }

  /** Where focus was before the dialog opened: it goes back there on close. */
  #returnFocus: HTMLElement | null = null;

  show(idOrKey?: string): void {
    // No page in the store's unit tests: nothing to return focus to.
    if (!this.#open) this.#returnFocus = (globalThis.document?.activeElement as HTMLElement | null | undefined) ?? null;
    this.#open = true;
    void this.loadRecent();
    if (idOrKey) {
      this.query = idOrKey;
      void this.lookup();
    }
  }

  close(): void {
    this.#open = false;
    const back = this.#returnFocus;
    this.#returnFocus = null;
    if (back?.isConnected) queueMicrotask(() => back.focus());
  }

  async lookup(): Promise<void> {
    const idOrKey = this.query.trim();
    if (!idOrKey) return;
    this.#loading = true;
    this.#error = null;
    try {
      this.#result = await this.#scope.invoke('supervisor:ticket', { idOrKey });
      void this.loadRecent();
    } catch (e) {
      this.#result = null;
      this.#error = failure(e);
    } finally {
      this.#loading = false;
    }
  }

  async loadRecent(): Promise<void> {
    try {
      this.#recent = (await this.#scope.invoke('supervisor:recentTickets', {})).tickets;
    } catch {
      // The recent list is a convenience: the lookup itself reports errors.
    }
  }
}

/**
 * The lookup's keyboard shortcut: one for the console (the desktop app registers it globally),
 * kept by the main process.
 */
export class TicketShortcutStore {
  #shortcut = $state<ShortcutState | null>(null);
  #message = $state<string | null>(null);
  #error = $state.raw<Worded | null>(null);
  /** The shortcut being edited in the tickets panel (bound to its field). */
  draft = $state('');

  get shortcut(): ShortcutState | null {
    return this.#shortcut;
  }
  /** The combination just saved (null before a save). */
  get message(): string | null {
    return this.#message;
  }
  get error(): string | null {
    return worded(this.#error);
  }

  /** The shortcut as the palette matches it: the same one the desktop app registers globally. */
  get combo(): string {
    return this.#shortcut ? accelToCombo(this.#shortcut.accelerator) : DEFAULT_COMBO;
  }

  /** A binding chosen in the palette: kept as the global accelerator too. */
  rebind(combo: string | null): boolean {
    if (!combo) return false;
    this.draft = comboToAccel(combo);
    void this.save();
    return true;
  }

  async load(): Promise<void> {
    try {
      this.#shortcut = await invoke('supervisor:ticketShortcut', {});
      this.draft = comboText(this.combo);
      this.#error = null;
    } catch (e) {
      // Read at start-up, before a workspace is open: that refusal is no news to the user (the
      // panel reads it again when shown), and must not linger as "Open a workspace first.".
      if (e instanceof BridgeError && e.info.kind === 'Unauthorized') return;
      this.#error = failure(e);
    }
  }

  async save(): Promise<void> {
    this.#error = null;
    this.#message = null;
    try {
      this.#shortcut = await invoke('supervisor:setTicketShortcut', { accelerator: this.draft });
      this.draft = comboText(this.combo);
      this.#message = this.combo;
    } catch (e) {
      this.#error = failure(e);
    }
  }
}

export const ticketShortcut = new TicketShortcutStore();
