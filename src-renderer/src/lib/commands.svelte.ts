/**
 * Every action the console offers, in one registry: the command palette lists them with their
 * shortcuts, and the keyboard handler runs them. Features register their commands at import.
 */
export interface Command {
  id: string;
  /** Shown in the palette; a function so it follows the language. */
  title: () => string;
  group: string;
  /** Default shortcut, e.g. "Mod+K", "Alt+ArrowDown" (Mod = Ctrl, or Cmd on macOS). */
  shortcut?: string;
  /** Whether it can run now (greyed out in the palette otherwise). */
  enabled?: () => boolean;
  run: () => void | Promise<void>;
}

class CommandRegistry {
  private byId = $state<Record<string, Command>>({});
  /** User rebinding: command id -> shortcut (persisted by the keyboard feature). */
  overrides = $state<Record<string, string | null>>({});

  register(...commands: Command[]): () => void {
    for (const c of commands) this.byId[c.id] = c;
    return () => {
      for (const c of commands) delete this.byId[c.id];
    };
  }

  get all(): Command[] {
    return Object.values(this.byId);
  }

  shortcutOf(id: string): string | null {
    if (id in this.overrides) return this.overrides[id] ?? null;
    return this.byId[id]?.shortcut ?? null;
  }

  get(id: string): Command | undefined {
    return this.byId[id];
  }

  async run(id: string): Promise<void> {
    const c = this.byId[id];
    if (c && (c.enabled?.() ?? true)) await c.run();
  }
}

export const commands = new CommandRegistry();
