import { isMac } from '../palette';

/**
 * The ticket lookup has one shortcut: the main process keeps it as an Electron accelerator
 * (registered globally in the desktop app), the renderer matches it as a palette combo (the
 * browser host has no global shortcuts). These convert between the two spellings.
 */

const KEY_TO_COMBO: Record<string, string> = {
  Up: 'ArrowUp',
  Down: 'ArrowDown',
  Left: 'ArrowLeft',
  Right: 'ArrowRight',
  Esc: 'Escape',
  Return: 'Enter',
  Plus: '+',
};
const KEY_TO_ACCEL = Object.fromEntries(Object.entries(KEY_TO_COMBO).map(([a, c]) => [c, a]));

export function accelToCombo(accelerator: string): string {
  const parts = accelerator.split('+');
  const key = parts.pop() ?? '';
  const mods = new Set<string>(
    parts.map((p) => {
      switch (p.toLowerCase()) {
        case 'commandorcontrol':
        case 'cmdorctrl':
          return 'Mod';
        case 'command':
        case 'cmd':
          return isMac ? 'Mod' : 'Meta';
        case 'control':
        case 'ctrl':
          return isMac ? 'Ctrl' : 'Mod';
        case 'super':
        case 'meta':
          return isMac ? 'Mod' : 'Meta';
        case 'alt':
        case 'option':
          return 'Alt';
        default:
          return 'Shift';
      }
    }),
  );
  // The palette's order (see comboOf): Mod, Ctrl, Meta, Alt, Shift, key.
  const ordered = ['Mod', 'Ctrl', 'Meta', 'Alt', 'Shift'].filter((m) => mods.has(m));
  return [...ordered, KEY_TO_COMBO[key] ?? (key.length === 1 ? key.toUpperCase() : key)].join('+');
}

export function comboToAccel(combo: string): string {
  const parts = combo.split('+');
  const key = parts.pop() ?? '';
  const mods = parts.map((p) => (p === 'Mod' ? 'CommandOrControl' : p === 'Ctrl' ? 'Control' : p === 'Meta' ? 'Super' : p));
  return [...mods, KEY_TO_ACCEL[key] ?? key].join('+');
}

/** A combo as typed text that the accelerator check also reads ("Ctrl+Shift+T", "Cmd+Shift+T"). */
export const comboText = (combo: string): string =>
  combo
    .split('+')
    .map((p) => (p === 'Mod' ? (isMac ? 'Cmd' : 'Ctrl') : p === 'Meta' ? 'Super' : p))
    .join('+');
