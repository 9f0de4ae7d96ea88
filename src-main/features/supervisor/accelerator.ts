/**
 * Checks an Electron accelerator for the global ticket shortcut before it is registered.
 * Pure: the Electron adapter and the settings handler both use it, and tests run it in Node.
 */

export const DEFAULT_TICKET_SHORTCUT = 'CommandOrControl+Shift+T';

/** Modifier spellings Electron accepts, mapped to one canonical name each. */
const MODIFIERS: Record<string, string> = {
  command: 'Command',
  cmd: 'Command',
  control: 'Control',
  ctrl: 'Control',
  commandorcontrol: 'CommandOrControl',
  cmdorctrl: 'CommandOrControl',
  alt: 'Alt',
  option: 'Alt',
  altgr: 'AltGr',
  shift: 'Shift',
  super: 'Super',
  meta: 'Super',
};
const MODIFIER_ORDER = ['CommandOrControl', 'Command', 'Control', 'Alt', 'AltGr', 'Shift', 'Super'];

const NAMED_KEYS = [
  'Plus',
  'Space',
  'Tab',
  'Capslock',
  'Numlock',
  'Scrolllock',
  'Backspace',
  'Delete',
  'Insert',
  'Return',
  'Enter',
  'Up',
  'Down',
  'Left',
  'Right',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'Escape',
  'Esc',
  'PrintScreen',
  'VolumeUp',
  'VolumeDown',
  'VolumeMute',
  'MediaNextTrack',
  'MediaPreviousTrack',
  'MediaStop',
  'MediaPlayPause',
  'numdec',
  'numadd',
  'numsub',
  'nummult',
  'numdiv',
  ...Array.from({ length: 10 }, (_, i) => `num${i}`),
  ...Array.from({ length: 24 }, (_, i) => `F${i + 1}`),
];
const NAMED = new Map(NAMED_KEYS.map((k) => [k.toLowerCase(), k]));
const PUNCTUATION = new Set([...')!@#$%^&*(:;+=<,_->.?/~`{][|\\}"\'']);

export type AcceleratorCheck = { ok: true; accelerator: string } | { ok: false; reason: string };

function keyOf(token: string): string | null {
  if (/^[a-z0-9]$/i.test(token)) return token.toUpperCase();
  if (token.length === 1 && PUNCTUATION.has(token)) return token;
  return NAMED.get(token.toLowerCase()) ?? null;
}

/** Keys that type a character: combined with Ctrl+Alt they clash with AltGr layouts. */
const isPrintable = (key: string): boolean => key.length === 1 || key === 'Plus' || key === 'Space';
const isFunctionKey = (key: string): boolean => /^F\d{1,2}$/.test(key);

/**
 * Valid when it has exactly one key, known modifiers used once, and at least one modifier other
 * than Shift (a bare key would be stolen from every other program). Ctrl+Alt and AltGr with a
 * character key are refused: on many layouts (German, Polish, Portuguese) that combination types
 * characters such as @ or €, so the shortcut would swallow them.
 */
export function checkAccelerator(input: string): AcceleratorCheck {
  const text = input.trim();
  if (!text) return { ok: false, reason: 'Type a shortcut, for example CommandOrControl+Shift+T.' };
  if (text.length > 100) return { ok: false, reason: 'That shortcut is too long.' };
  // "+" is both the separator and a key: a trailing "++" means the Plus key.
  const tokens = text.endsWith('++') ? [...text.slice(0, -2).split('+'), 'Plus'] : text.split('+');
  if (tokens.some((t) => t.trim() === '')) return { ok: false, reason: `"${text}" has an empty part between "+" signs.` };
  const mods = new Set<string>();
  let key: string | null = null;
  for (const raw of tokens.map((t) => t.trim())) {
    const mod = MODIFIERS[raw.toLowerCase()];
    if (mod) {
      if (mods.has(mod)) return { ok: false, reason: `${mod} appears twice.` };
      mods.add(mod);
      continue;
    }
    const k = keyOf(raw);
    if (!k) return { ok: false, reason: `"${raw}" is not a key Electron knows.` };
    if (key) return { ok: false, reason: `A shortcut has one key; "${key}" and "${k}" are two.` };
    key = k;
  }
  if (!key) return { ok: false, reason: 'The shortcut needs a key after its modifiers, for example T.' };
  const strong = [...mods].filter((m) => m !== 'Shift');
  if (strong.length === 0 && !isFunctionKey(key)) {
    return { ok: false, reason: 'Add Ctrl, Cmd or Alt: a global shortcut without them would be taken from every other program.' };
  }
  const ctrlAlt = (mods.has('Control') || mods.has('CommandOrControl')) && mods.has('Alt');
  if (isPrintable(key) && (mods.has('AltGr') || ctrlAlt)) {
    return {
      ok: false,
      reason: 'Ctrl+Alt and AltGr with a character key type letters such as @ or € on many keyboard layouts. Pick another combination.',
    };
  }
  const ordered = MODIFIER_ORDER.filter((m) => mods.has(m));
  return { ok: true, accelerator: [...ordered, key].join('+') };
}
