import { commands } from '../../lib/commands.svelte';
import { invoke } from '../../lib/bridge';

/**
 * Shortcuts: parsing key events into "Mod+Shift+X" strings, matching them against the command
 * registry (with the user's rebinding, kept in the main process's settings), and refusing
 * bindings that would steal a character: AltGr (Ctrl+Alt) combinations, Option/Alt with a
 * printable key (macOS types characters with them), or a bare printable key.
 */

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

const NAMED: Record<string, string> = { ' ': 'Space', Esc: 'Escape' };
const isPrintable = (key: string) => key.length === 1 || key === 'Space';

/** The canonical string of a key event, or null for a lone modifier or an AltGr event. */
export function comboOf(e: KeyboardEvent): string | null {
  if (['Control', 'Shift', 'Alt', 'Meta', 'AltGraph', 'CapsLock'].includes(e.key)) return null;
  if (e.getModifierState?.('AltGraph')) return null;
  // Letters and digits by their physical key, so a layout's AltGr mapping never matters.
  let key = NAMED[e.key] ?? e.key;
  if (/^Key[A-Z]$/.test(e.code)) key = e.code.slice(3);
  else if (/^Digit\d$/.test(e.code)) key = e.code.slice(5);
  else if (key.length === 1) key = key.toUpperCase();
  const mod = isMac ? e.metaKey : e.ctrlKey;
  const parts: string[] = [];
  if (mod) parts.push('Mod');
  if (isMac && e.ctrlKey) parts.push('Ctrl');
  if (!isMac && e.metaKey) parts.push('Meta');
  if (e.altKey) parts.push('Alt');
  if (e.shiftKey) parts.push('Shift');
  parts.push(key);
  return parts.join('+');
}

/** Why a binding cannot be used, or null when it is fine. */
export function refusal(combo: string): string | null {
  const parts = combo.split('+');
  const key = parts[parts.length - 1] ?? '';
  const has = (m: string) => parts.includes(m);
  const printable = isPrintable(key);
  if (!printable) return null;
  if ((has('Mod') || has('Ctrl')) && has('Alt') && !isMac) return 'Ctrl+Alt is AltGr on many keyboards: it types characters.';
  if (has('Alt') && !has('Mod')) return 'Alt (Option) with a letter or digit types characters on some keyboards.';
  if (!has('Mod') && !has('Ctrl') && !has('Meta')) return 'A shortcut needs Ctrl (Cmd) with a letter or digit, or a function key.';
  return null;
}

/** How a combo reads on this platform. */
export function label(combo: string | null): string {
  if (!combo) return '';
  return combo
    .split('+')
    .map((p) =>
      p === 'Mod'
        ? isMac
          ? '⌘'
          : 'Ctrl'
        : p === 'Alt' && isMac
          ? '⌥'
          : p === 'Shift' && isMac
            ? '⇧'
            : p === 'ArrowDown'
              ? '↓'
              : p === 'ArrowUp'
                ? '↑'
                : p,
    )
    .join(isMac ? '' : '+');
}

/**
 * A button's tooltip: its words and the shortcut of the command it runs, as bound now (a rebind
 * shows at once); just the words when the command has none.
 */
export function withShortcut(text: string, commandId: string): string {
  const combo = label(commands.shortcutOf(commandId));
  return combo ? `${text} (${combo})` : text;
}

/** The same shortcut for assistive technology (`aria-keyshortcuts`), or nothing. */
export function ariaShortcut(commandId: string): string | undefined {
  const combo = commands.shortcutOf(commandId);
  return combo ? combo.replace(/\bMod\b/, isMac ? 'Meta' : 'Control') : undefined;
}

export class KeyBindings {
  /** The command waiting for its new shortcut (the palette's "change shortcut"). */
  capturing = $state<string | null>(null);
  problem = $state<string | null>(null);

  #loaded = false;

  /** Stops any capture; the rebinds themselves stay (they belong to this computer's profile). */
  reset(): void {
    this.capturing = null;
    this.problem = null;
  }

  async load(): Promise<void> {
    if (this.#loaded) return;
    this.#loaded = true;
    try {
      const { bindings } = await invoke('palette:keys', {});
      commands.setOverrides(bindings);
    } catch {
      this.#loaded = false;
    }
  }

  /** Checks and applies a binding at once; storing it in the main process follows. */
  bind(id: string, combo: string | null): boolean {
    if (combo) {
      const why = refusal(combo);
      if (why) {
        this.problem = why;
        return false;
      }
      const clash = commands.all.find((c) => c.id !== id && commands.shortcutOf(c.id) === combo);
      if (clash) {
        this.problem = `${label(combo)} is already used by “${clash.title()}”.`;
        return false;
      }
    }
    this.problem = null;
    const own = commands.get(id)?.rebind;
    if (own) return own(combo);
    commands.setOverrides({ ...commands.overrides, [id]: combo });
    // Kept for this session even if the main process could not store it.
    void invoke('palette:setKeys', { bindings: { [id]: combo } }).catch(() => undefined);
    return true;
  }

  /** The command a key event runs, if any. */
  match(e: KeyboardEvent): string | null {
    const combo = comboOf(e);
    if (!combo) return null;
    for (const c of commands.all) if (commands.shortcutOf(c.id) === combo) return c.id;
    return null;
  }
}

export const keys = new KeyBindings();
