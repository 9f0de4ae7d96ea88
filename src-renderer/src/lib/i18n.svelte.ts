import { IntlMessageFormat } from 'intl-messageformat';
import en from '../locales/en.json' with { type: 'json' };

/**
 * The console's messages: one ICU MessageFormat catalog per language (`src-renderer/locales/*.json`,
 * keys `namespace.key`), formatted by intl-messageformat, which also chooses plural forms
 * (`{count, plural, one {…} other {…}}`) and formats numbers and dates of the language.
 * The language: the user's choice (kept in this profile's storage), else the system's when it is
 * Portuguese (pt-BR) or Spanish (es), else English. A language is one catalog and one line here.
 * English is in the first view's script (the keys' types and every message's fallback); another
 * language's catalog loads when it is first shown. `scripts/check-messages.mjs` (npm run lint)
 * holds every catalog to the English one's keys and arguments.
 */
export type MessageKey = keyof typeof en;
/** A catalog of another language: the same keys as the English one. */
type Catalog = Record<MessageKey, string>;
/** The namespaces of the catalog: the part before the first dot of its keys. */
export type Namespace = MessageKey extends `${infer N}.${string}` ? N : never;
/** The keys of one namespace, without their namespace. */
export type KeyOf<N extends Namespace> = MessageKey extends infer K ? (K extends `${N}.${infer R}` ? R : never) : never;
export type MessageValues = Record<string, string | number | Date>;

/** The other languages' catalogs, each a chunk of its own, fetched when first shown. */
const LOADERS: Record<Exclude<Language, 'en'>, () => Promise<Catalog>> = {
  'pt-BR': () => import('../locales/pt-BR.json', { with: { type: 'json' } }).then((m) => m.default satisfies Catalog),
  es: () => import('../locales/es.json', { with: { type: 'json' } }).then((m) => m.default satisfies Catalog),
};
const loaded = new Map<Language, Catalog>([['en', en]]);
const loading = new Map<Language, Promise<Catalog>>();

function load(language: Language): Promise<Catalog> {
  const have = loaded.get(language);
  if (have) return Promise.resolve(have);
  let p = loading.get(language);
  if (!p) {
    p = LOADERS[language as Exclude<Language, 'en'>]().then((c) => (loaded.set(language, c), c));
    // A failed fetch may be asked again (the console keeps English meanwhile).
    p.catch(() => loading.delete(language));
    loading.set(language, p);
  }
  return p;
}

/** The catalogs loaded so far (English always), for a lookup across languages (a word typed in either). */
export const loadedCatalogs = (): Catalog[] => [...loaded.values()];

export const LANGUAGES = ['pt-BR', 'en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
const LANGUAGE_KEY = 'console.language';

function storedLanguage(): Language | null {
  try {
    const v = globalThis.localStorage?.getItem(LANGUAGE_KEY);
    return LANGUAGES.find((l) => l === v) ?? null;
  } catch {
    return null;
  }
}

export class I18n {
  #locale = $state<Language>('en');
  /** What the user picked in the console; null follows the system. */
  #chosen = $state<Language | null>(storedLanguage());

  get locale() {
    return this.#locale;
  }
  get chosen() {
    return this.#chosen;
  }
  #system: Language = 'en';

  constructor() {
    // The language chosen before is fetched from the start, while the console reads its state.
    const chosen = this.#chosen;
    if (chosen) void load(chosen).catch(() => undefined);
  }

  setLocale(systemLocale: string): void {
    const tag = systemLocale.toLowerCase();
    this.#system = tag.startsWith('pt') ? 'pt-BR' : tag.startsWith('es') ? 'es' : 'en';
    this.#apply();
  }

  /** The in-app switch: remembered for the next start; null goes back to the system's. */
  choose(language: Language | null): void {
    this.#chosen = language;
    try {
      if (language) globalThis.localStorage?.setItem(LANGUAGE_KEY, language);
      else globalThis.localStorage?.removeItem(LANGUAGE_KEY);
    } catch {
      // Storage refused: the choice holds for this run.
    }
    this.#apply();
  }

  /** Settles once the language asked for last is shown (its catalog loaded, or failed to). */
  ready: Promise<void> = Promise.resolve();

  #apply(): void {
    const wanted = this.#chosen ?? this.#system;
    const show = () => {
      // A later choice wins over a catalog that arrives late.
      if ((this.#chosen ?? this.#system) !== wanted) return;
      this.#locale = wanted;
      // No page (or a stand-in without a root element) in the stores' unit tests.
      const root = globalThis.document?.documentElement;
      if (root) root.lang = wanted;
    };
    if (loaded.has(wanted)) {
      show();
      this.ready = Promise.resolve();
    } else {
      // Until it comes the language shown stays; a catalog that cannot load leaves it so.
      this.ready = load(wanted).then(show, () => undefined);
    }
  }

  number(value: number, digits?: number): string {
    const o = digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits };
    return new Intl.NumberFormat(this.#locale, o).format(value);
  }

  /** Formatters made so far, per language and options: making one costs far more than using it (a long thread formats thousands of times). */
  readonly #dateFormats = new Map<string, Intl.DateTimeFormat>();

  /** A date and time in the interface language ('' for nothing or not a date). */
  dateTime(value: string | number | null | undefined, o: Intl.DateTimeFormatOptions = { dateStyle: 'short', timeStyle: 'short' }): string {
    if (value === null || value === undefined) return '';
    const d = new Date(value);
    if (Number.isNaN(d.getTime())) return '';
    const key = `${this.#locale}|${JSON.stringify(o)}`;
    let f = this.#dateFormats.get(key);
    if (!f) {
      f = new Intl.DateTimeFormat(this.#locale, o);
      this.#dateFormats.set(key, f);
    }
    return f.format(d);
  }

  /**
   * A feature's messages: the returned `t` looks keys up in its namespace only, so two features
   * may use the same key without one hiding the other, and its keys are typed from the English
   * catalog.
   */
  register<N extends Namespace>(namespace: N): (key: KeyOf<N>, values?: MessageValues) => string {
    // A key made at run time that the catalog lacks reads as itself, as callers check (a channel's code).
    return (key, values) => {
      const full = `${namespace}.${key}`;
      return this.has(full) ? this.format(full, values) : key;
    };
  }

  /** Whether the catalog has a message (for keys made from a service's codes). */
  has(key: string): key is MessageKey {
    return Object.hasOwn(en, key);
  }

  /** The console's own strings (workspace, shell). */
  t(key: KeyOf<'core'>, values?: MessageValues): string {
    return this.format(`core.${key}`, values);
  }

  /** Made messages per language and key: parsing one costs far more than formatting it. */
  readonly #messages = new Map<string, IntlMessageFormat>();

  format(key: MessageKey, values: MessageValues = {}): string {
    const source: string | undefined = loaded.get(this.#locale)?.[key] ?? en[key];
    if (source === undefined) return key;
    // Most messages are plain words: nothing to parse or fill.
    if (!/[{']/.test(source)) return source;
    const id = `${this.#locale}|${key}`;
    let m = this.#messages.get(id);
    if (!m) {
      m = new IntlMessageFormat(source, this.#locale, undefined, { ignoreTag: true });
      this.#messages.set(id, m);
    }
    // A value a caller left out reads as nothing, as the tables did, not as a thrown error.
    const given = new Proxy(values, { has: () => true, get: (o, name: string) => o[name] ?? '' });
    try {
      return String(m.format(given));
    } catch {
      // A value of the wrong kind (text for a plural): the message's words, never a crash.
      return source;
    }
  }
}

export const i18n = new I18n();
export const t = (key: KeyOf<'core'>, values?: MessageValues) => i18n.t(key, values);
