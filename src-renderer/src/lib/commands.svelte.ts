/**
 * Every action the console offers, in one registry: the command palette lists them with their
 * shortcuts, and the keyboard handler runs them. Features register their commands at import.
 */
export interface Command {
  id: string;
  /** Shown in the palette; a function so it follows the language. */
  title: () => string;
  group: string;
  /**
   * Default shortcut, e.g. "Mod+K", "Alt+ArrowDown" (Mod = Ctrl, or Cmd on macOS); a function
   * when the shortcut lives elsewhere (the ticket lookup's is also the global one).
   */
  shortcut?: string | (() => string | null);
  /** Takes a new binding itself instead of the palette's stored overrides; false refuses it. */
  rebind?: (combo: string | null) => boolean;
  /** Whether it can run now (greyed out in the palette otherwise). */
  enabled?: () => boolean;
  run: () => void | Promise<void>;
}

export class CommandRegistry {
  #byId = $state<Record<string, Command>>({});
  /** User rebinding: command id -> shortcut (persisted by the keyboard feature). */
  #overrides = $state<Record<string, string | null>>({});

  get overrides() {
    return this.#overrides;
  }
  /** The user's rebinds, as stored (all at once) or one changed. */
  setOverrides(next: Record<string, string | null>): void {
    this.#overrides = next;
  }

  register(...commands: Command[]): () => void {
    for (const c of commands) this.#byId[c.id] = c;
    return () => {
      for (const c of commands) delete this.#byId[c.id];
    };
  }

  get all(): Command[] {
    return Object.values(this.#byId);
  }

  shortcutOf(id: string): string | null {
    if (id in this.#overrides) return this.#overrides[id] ?? null;
    const s = this.#byId[id]?.shortcut;
    return typeof s === 'function' ? s() : (s ?? null);
  }

  get(id: string): Command | undefined {
    return this.#byId[id];
  }

  async run(id: string): Promise<void> {
    const c = this.#byId[id];
    if (c && (c.enabled?.() ?? true)) await c.run();
  }
}

export const commands = new CommandRegistry();
