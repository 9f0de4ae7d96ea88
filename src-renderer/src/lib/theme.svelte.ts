/**
 * Light or dark: follows the system unless the user picked one (kept in this profile's storage).
 * The choice lands on <html data-theme>, which theme.css reads.
 */
export const THEMES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEMES)[number];
const KEY = 'console.theme';

function stored(): ThemeChoice {
  try {
    const v = globalThis.localStorage?.getItem(KEY);
    return THEMES.find((t) => t === v) ?? 'system';
  } catch {
    return 'system';
  }
}

export class Theme {
  #choice = $state<ThemeChoice>(stored());

  get choice() {
    return this.#choice;
  }
  #systemDark = $state(false);

  constructor() {
    const mq = globalThis.matchMedia?.('(prefers-color-scheme: dark)');
    if (mq) {
      this.#systemDark = mq.matches;
      mq.addEventListener('change', (e) => {
        this.#systemDark = e.matches;
        this.#apply();
      });
    }
    this.#apply();
  }

  get resolved(): 'light' | 'dark' {
    return this.#choice === 'system' ? (this.#systemDark ? 'dark' : 'light') : this.#choice;
  }

  choose(choice: ThemeChoice): void {
    this.#choice = choice;
    try {
      globalThis.localStorage?.setItem(KEY, choice);
    } catch {
      // Storage refused: the choice holds for this run.
    }
    this.#apply();
  }

  #apply(): void {
    if (typeof document === 'undefined') return;
    document.documentElement.dataset.theme = this.resolved;
    document.documentElement.style.colorScheme = this.resolved;
  }
}

export const theme = new Theme();
