import type { ShortcutState, TicketView } from '../../../../src-shared/bridge/supervisor';
import { errorMessage, invoke, on } from '../../lib/bridge';
import { accelToCombo, comboText, comboToAccel } from './shortcut';

/** Until the main process answers: the same default it keeps. */
const DEFAULT_COMBO = 'Mod+Shift+T';

/** The ticket lookup: one dialog for the whole console, the recent list and the shortcut. */
export class TicketLookupStore {
  #open = $state(false);
  #loading = $state(false);
  #error = $state<string | null>(null);
  #result = $state<TicketView | null>(null);
  #recent = $state<TicketView[]>([]);
  #shortcut = $state<ShortcutState | null>(null);
  #shortcutMessage = $state<string | null>(null);
  #shortcutError = $state<string | null>(null);
  /** The key typed in the dialog (bound to its field). */
  query = $state('');
  /** The shortcut being edited in the tickets panel (bound to its field). */
  shortcutDraft = $state('');

  get open(): boolean {
    return this.#open;
  }
  get loading(): boolean {
    return this.#loading;
  }
  get error(): string | null {
    return this.#error;
  }
  get result(): TicketView | null {
    return this.#result;
  }
  get recent(): readonly TicketView[] {
    return this.#recent;
  }
  get shortcut(): ShortcutState | null {
    return this.#shortcut;
  }
  get shortcutMessage(): string | null {
    return this.#shortcutMessage;
  }
  get shortcutError(): string | null {
    return this.#shortcutError;
  }

  private unsubscribe: (() => void) | null = null;

  /** Listens for the global shortcut (Electron) and other features asking for a lookup. */
  listen(): void {
    this.unsubscribe ??= on('supervisor:openTicketLookup', ({ idOrKey }) => this.show(idOrKey ?? undefined));
    void this.loadShortcut();
  }

  /** The shortcut as the palette matches it: the same one the desktop app registers globally. */
  get combo(): string {
    return this.#shortcut ? accelToCombo(this.#shortcut.accelerator) : DEFAULT_COMBO;
  }

  /** A binding chosen in the palette: kept as the global accelerator too. */
  rebind(combo: string | null): boolean {
    if (!combo) return false;
    this.shortcutDraft = comboToAccel(combo);
    void this.saveShortcut();
    return true;
  }

  /** Where focus was before the dialog opened: it goes back there on close. */
  private returnFocus: HTMLElement | null = null;

  show(idOrKey?: string): void {
    // No page in the store's unit tests: nothing to return focus to.
    if (!this.#open) this.returnFocus = (globalThis.document?.activeElement as HTMLElement | null | undefined) ?? null;
    this.#open = true;
    void this.loadRecent();
    if (idOrKey) {
      this.query = idOrKey;
      void this.lookup();
    }
  }

  close(): void {
    this.#open = false;
    const back = this.returnFocus;
    this.returnFocus = null;
    if (back?.isConnected) queueMicrotask(() => back.focus());
  }

  async lookup(): Promise<void> {
    const idOrKey = this.query.trim();
    if (!idOrKey) return;
    this.#loading = true;
    this.#error = null;
    try {
      this.#result = await invoke('supervisor:ticket', { idOrKey });
      void this.loadRecent();
    } catch (e) {
      this.#result = null;
      this.#error = errorMessage(e);
    } finally {
      this.#loading = false;
    }
  }

  async loadRecent(): Promise<void> {
    try {
      this.#recent = (await invoke('supervisor:recentTickets', {})).tickets;
    } catch {
      // The recent list is a convenience: the lookup itself reports errors.
    }
  }

  async loadShortcut(): Promise<void> {
    try {
      this.#shortcut = await invoke('supervisor:ticketShortcut', {});
      this.shortcutDraft = comboText(this.combo);
    } catch (e) {
      this.#shortcutError = errorMessage(e);
    }
  }

  async saveShortcut(): Promise<void> {
    this.#shortcutError = null;
    this.#shortcutMessage = null;
    try {
      this.#shortcut = await invoke('supervisor:setTicketShortcut', { accelerator: this.shortcutDraft });
      this.shortcutDraft = comboText(this.combo);
      this.#shortcutMessage = this.combo;
    } catch (e) {
      this.#shortcutError = errorMessage(e);
    }
  }

  /** Forgets what was shown (sign-out); keeps listening for the global shortcut if asked to. */
  clear(): void {
    this.#open = false;
    this.query = '';
    this.#result = null;
    this.#error = null;
    this.#recent = [];
  }

  reset(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.clear();
  }
}

export const ticketLookup = new TicketLookupStore();
