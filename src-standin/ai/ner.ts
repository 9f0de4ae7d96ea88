import { foldAccents } from './text';
import { findDocuments, isValidCnpj, isValidCpf } from '../../src-shared/documents';
import {
  AMBIGUOUS_ORGS,
  AMBIGUOUS_PLACES,
  CURRENCY_WORDS,
  DURATION_DATE_UNITS,
  DURATION_TIME_UNITS,
  FIRST_NAMES,
  MONTHS_EN,
  MONTHS_PT,
  NUMBER_WORDS_EN,
  NUMBER_WORDS_PT,
  ORGS,
  ORG_PREFIXES,
  ORG_SUFFIXES,
  PERSON_CUES,
  PERSON_TITLES,
  PLACES,
  QUANTITY_UNITS,
  RELATIVE_DATES,
  STREET_PREFIXES,
  UF_CODES,
} from './ner-lists';

/**
 * Named-entity recognition of the stand-in: local, rule- and list-based, no model weights.
 * Offsets are JavaScript string indices (UTF-16 code units), so `text === sentence.slice(start, end)`.
 * Where two rules claim overlapping text, the more specific rule wins (a checked CPF beats a
 * phone number, a known city beats a given name), then the longer span.
 */
export interface Entity {
  text: string;
  label: string;
  start: number;
  end: number;
  score: number;
}

export const NER_LABELS = [
  'PERSON',
  'ORG',
  'LOC',
  'DATE',
  'TIME',
  'MONEY',
  'PERCENT',
  'QUANTITY',
  'EMAIL',
  'PHONE',
  'CPF',
  'CNPJ',
  'CEP',
] as const;
export type NerLabel = (typeof NER_LABELS)[number];

// ---- Brazilian document numbers -------------------------------------------------------

// CPF and CNPJ: found and checked by src-shared/documents.ts, the console's one finder.

/** CEP: 8 digits; the lowest assigned range starts at 01000-000. */
export function isPlausibleCep(s: string): boolean {
  const d = s.replace(/\D/g, '');
  return d.length === 8 && Number(d) >= 1_000_000;
}

// ---- pattern building -----------------------------------------------------------------

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** Alternation of phrases, longest first, each also accepted without accents. */
function alt(items: readonly string[]): string {
  const all = new Set<string>();
  for (const i of items) {
    all.add(i);
    all.add(foldAccents(i));
  }
  return [...all]
    .sort((a, b) => b.length - a.length)
    .map(esc)
    .join('|');
}

const L = '(?<![\\p{L}\\p{N}_])';
const R = '(?![\\p{L}\\p{N}_])';
// Repetitions are bounded so that no pattern backtracks quadratically on long inputs
// ("1.1.1.1..." or "um dois um dois..." thousands of times).
const NUM = '\\d{1,15}(?:[.,]\\d{1,15}){0,5}';
const NW = `(?:${alt([...NUMBER_WORDS_PT, ...NUMBER_WORDS_EN])})`;
const NWSEQ = `${NW}(?:(?:\\s{1,3}e\\s{1,3}|\\s{1,3}and\\s{1,3}|[\\s-]{1,3})${NW}){0,6}`;
const CAPWORD = "\\p{Lu}[\\p{L}'’&-]{0,40}";
const CONNECT = '(?:de|do|da|dos|das|e|&|of|the)';
const CAPSEQ = `${CAPWORD}(?:\\s{1,3}(?:${CONNECT}\\s{1,3})?${CAPWORD}){0,6}`;
const SCALE = '(?:mil|milhões|milhoes|milhão|milhao|bilhões|bilhão|million|billion|thousand|k)';

interface Rule {
  label: NerLabel;
  re: RegExp;
  score: number;
  /** Higher wins an overlap; then the longer span. */
  priority: number;
  /** Which capture group is the entity (0 = whole match). */
  group?: number;
  accept?: (text: string, sentence: string, start: number) => boolean;
}

const rx = (src: string, flags = 'gu'): RegExp => new RegExp(src, `${flags}d`);

const validDate = (text: string): boolean => {
  const m = /^(\d{1,4})[/.-](\d{1,2})(?:[/.-](\d{2,4}))?$/.exec(text);
  if (!m) return false;
  let [day, month] = [Number(m[1]), Number(m[2])];
  if ((m[1] ?? '').length === 4) [day, month] = [Number(m[3]), Number(m[2])];
  return day >= 1 && day <= 31 && month >= 1 && month <= 12;
};

/** True when the text before `start` ends a sentence (or there is none). */
const sentenceInitial = (sentence: string, start: number): boolean =>
  /(^|[.!?:;]\s*|\n\s*)$/u.test(sentence.slice(0, start).replace(/["'“”‘’(]+$/u, ''));

const RULES: Rule[] = [
  {
    label: 'EMAIL',
    score: 0.99,
    priority: 10,
    re: rx('(?<![\\w.+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}(?![\\w-])'),
  },

  {
    label: 'CEP',
    score: 0.97,
    priority: 8,
    re: rx('(?<=\\bCEP:?\\s{0,3})(\\d{5}-?\\d{3}|\\d{2}\\.\\d{3}-\\d{3})(?![\\d-])', 'giu'),
    accept: isPlausibleCep,
  },
  {
    label: 'CEP',
    score: 0.9,
    priority: 8,
    re: rx('(?<![\\d.,/-])(?:\\d{5}-\\d{3}|\\d{2}\\.\\d{3}-\\d{3})(?![\\d-])'),
    accept: isPlausibleCep,
  },

  // Brazilian numbers with area code: (11) 98765-4321, +55 11 3333-4444, 11987654321.
  {
    label: 'PHONE',
    score: 0.92,
    priority: 7,
    re: rx('(?<![\\w+])(?:\\+\\s?55\\s?)?(?:\\([1-9]\\d\\)|[1-9]\\d)\\s?(?:9\\d{4}|[2-5]\\d{3})[-\\s]?\\d{4}(?![\\d-])'),
  },
  { label: 'PHONE', score: 0.85, priority: 7, re: rx('(?<![\\d.,/-])(?:9\\d{4}|[2-5]\\d{3})-\\d{4}(?![\\d-])') },
  { label: 'PHONE', score: 0.92, priority: 7, re: rx('(?<!\\d)0[358]00[\\s-]?\\d{3}[\\s-]?\\d{4}(?![\\d-])') },
  {
    label: 'PHONE',
    score: 0.88,
    priority: 7,
    re: rx('(?<![\\w+])\\+(?!55)\\d{1,3}(?:[\\s.-]?\\(?\\d{1,4}\\)?){2,5}(?![\\d-])'),
    accept: (t) => {
      const n = t.replace(/\D/g, '').length;
      return n >= 8 && n <= 15;
    },
  },
  { label: 'PHONE', score: 0.85, priority: 7, re: rx('(?<![\\w(])(?:\\(\\d{3}\\)\\s?|\\d{3}[-.\\s])\\d{3}[-.\\s]\\d{4}(?![\\d-])') },

  {
    label: 'MONEY',
    score: 0.95,
    priority: 6,
    re: rx(`(?<![\\p{L}\\p{N}])(?:R\\$|US\\$|U\\$|€|£|\\$|USD|BRL|EUR)\\s?${NUM}(?:\\s${SCALE}${R})?`),
  },
  { label: 'MONEY', score: 0.93, priority: 6, re: rx(`${L}${NUM}(?:\\s${SCALE})?\\s(?:de\\s)?(?:${alt(CURRENCY_WORDS)})${R}`, 'giu') },
  { label: 'MONEY', score: 0.85, priority: 6, re: rx(`${L}${NWSEQ}(?:\\s(?:de\\s)?)(?:${alt(CURRENCY_WORDS)})${R}`, 'giu') },

  { label: 'PERCENT', score: 0.95, priority: 6, re: rx(`(?<![\\p{L}\\p{N}.,])${NUM}\\s?%`) },
  { label: 'PERCENT', score: 0.93, priority: 6, re: rx(`${L}(?:${NUM}|${NWSEQ})\\s(?:por\\s?cento|percent|per\\scent)${R}`, 'giu') },

  {
    label: 'DATE',
    score: 0.92,
    priority: 5,
    re: rx('(?<![\\d/.-])\\d{1,2}[/.-]\\d{1,2}[/.-](?:\\d{4}|\\d{2})(?![\\d/]|[.-]\\d)'),
    accept: validDate,
  },
  { label: 'DATE', score: 0.92, priority: 5, re: rx('(?<![\\d/.-])\\d{4}-\\d{2}-\\d{2}(?![\\d/-])'), accept: validDate },
  { label: 'DATE', score: 0.8, priority: 5, re: rx('(?<![\\d/.,-])\\d{1,2}/\\d{1,2}(?![\\d/]|[.,]\\d)'), accept: validDate },
  {
    label: 'DATE',
    score: 0.92,
    priority: 5,
    re: rx(`${L}\\d{1,2}(?:º|°|o)?\\s+de\\s+(?:${alt(MONTHS_PT)})(?:\\s+de\\s+\\d{4})?${R}`, 'giu'),
  },
  { label: 'DATE', score: 0.85, priority: 5, re: rx(`${L}(?:${alt(MONTHS_PT)})(?:\\s+(?:de\\s+)?\\d{4})?${R}`, 'giu') },
  {
    label: 'DATE',
    score: 0.92,
    priority: 5,
    re: rx(`${L}(?:${alt(MONTHS_EN)})\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?(?![\\p{L}\\p{N}])`),
  },
  {
    label: 'DATE',
    score: 0.92,
    priority: 5,
    re: rx(`${L}\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:${alt(MONTHS_EN)})(?:,?\\s+\\d{4})?(?![\\p{L}\\p{N}])`),
  },
  { label: 'DATE', score: 0.85, priority: 5, re: rx(`${L}(?:${alt(RELATIVE_DATES)})${R}`, 'giu') },
  {
    label: 'DATE',
    score: 0.8,
    priority: 5,
    re: rx(`(?<=${L}(?:na|nesta|próxima|proxima|até|ate|toda|on)\\s)(?:segunda|terça|terca|quarta|quinta|sexta)(?![\\p{L}\\p{N}-])`, 'giu'),
  },
  { label: 'DATE', score: 0.8, priority: 5, re: rx(`${L}(?:${NUM}|${NWSEQ})\\s+(?:${alt(DURATION_DATE_UNITS)})${R}`, 'giu') },

  {
    label: 'TIME',
    score: 0.92,
    priority: 5,
    re: rx('(?<![\\d:])(?:[01]?\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d)?(?:\\s?(?:h|hs|am|pm)(?![\\p{L}]))?(?![\\d:])', 'giu'),
  },
  { label: 'TIME', score: 0.9, priority: 5, re: rx(`${L}(?:[01]?\\d|2[0-3])h(?:[0-5]\\d(?:min)?)?${R}`, 'giu') },
  {
    label: 'TIME',
    score: 0.9,
    priority: 5,
    re: rx(`${L}(?:1[0-2]|0?[1-9])(?::[0-5]\\d)?\\s?(?:am|pm|a\\.m\\.|p\\.m\\.)(?![\\p{L}])`, 'giu'),
  },
  { label: 'TIME', score: 0.85, priority: 5, re: rx(`${L}(?:meio-dia|meia-noite|noon|midnight)${R}`, 'giu') },
  {
    label: 'TIME',
    score: 0.85,
    priority: 5,
    re: rx(
      `(?<=${L}(?:às|at)\\s)\\d{1,2}(?:\\s(?:horas|hora|hrs|o'clock))?(?:\\s(?:da|de)\\s(?:manhã|manha|tarde|noite|madrugada))?(?![\\p{L}\\p{N}:])`,
      'giu',
    ),
  },
  { label: 'TIME', score: 0.8, priority: 5, re: rx(`${L}(?:${NUM}|${NWSEQ})\\s+(?:${alt(DURATION_TIME_UNITS)})${R}`, 'giu') },

  { label: 'QUANTITY', score: 0.85, priority: 4, re: rx(`${L}${NUM}\\s?(?:${alt(QUANTITY_UNITS)})(?![\\p{L}\\p{N}²³])`) },
  {
    label: 'QUANTITY',
    score: 0.8,
    priority: 4,
    re: rx(`${L}${NWSEQ}\\s(?:${alt(QUANTITY_UNITS.filter((u) => u.length > 3))})${R}`, 'giu'),
  },

  { label: 'ORG', score: 0.9, priority: 3.2, re: rx(`${L}(?:${alt(ORGS)})${R}`) },
  {
    label: 'ORG',
    score: 0.8,
    priority: 3.2,
    re: rx(`${L}(?:${alt(AMBIGUOUS_ORGS)})${R}`),
    accept: (t, s, start) => !sentenceInitial(s, start) && !/^\s*,/.test(s.slice(start + t.length)),
  },
  { label: 'ORG', score: 0.8, priority: 3.1, re: rx(`${L}${CAPSEQ}\\s+(?:${alt(ORG_SUFFIXES)})(?![\\p{L}\\p{N}])`) },
  { label: 'ORG', score: 0.78, priority: 3.1, re: rx(`${L}(?:${alt(ORG_PREFIXES)})\\s+(?:${CONNECT}\\s+)?${CAPSEQ}${R}`) },

  { label: 'LOC', score: 0.9, priority: 3.2, re: rx(`${L}(?:${alt(PLACES)})(?:\\s?[/-]\\s?(?:${UF_CODES.join('|')}))?${R}`) },
  { label: 'LOC', score: 0.85, priority: 3.2, re: rx(`${L}(?:${alt(AMBIGUOUS_PLACES)})\\s?[/-]\\s?(?:${UF_CODES.join('|')})${R}`) },
  {
    label: 'LOC',
    score: 0.85,
    priority: 3.1,
    re: rx(
      `${L}(?:${alt(STREET_PREFIXES)})\\s+(?:(?:de|do|da|dos|das)\\s+)?(?:${CAPSEQ}|\\d{1,2}\\s+de\\s+${CAPWORD})(?:,?\\s*(?:nº|n°|n\\.º|n\\.|número|numero)?\\s*\\d{1,5}[A-Za-z]?(?![\\d-]))?`,
    ),
  },
  {
    label: 'LOC',
    score: 0.75,
    priority: 3.1,
    re: rx(`(?<=${L}(?:cidade de|bairro|estado de|estado do|estado da|city of)\\s)${CAPSEQ}${R}`, 'gu'),
  },
];

// ---- persons --------------------------------------------------------------------------

const TITLE_RE = rx(`${L}(?:${alt(PERSON_TITLES)})\\s+(?=\\p{Lu})`);
const CUE_RE = rx(`${L}(?:${alt(PERSON_CUES)})\\s+(?=\\p{Lu})`, 'giu');
const NAME_WORD = /\p{Lu}[\p{Ll}'’]+(?:-\p{Lu}?\p{Ll}+)?/uy;
const NAME_CONNECT = /\s+(?:da|de|do|dos|das|di|van|von)(?=\s+\p{Lu})/uy;
const SPACE = /\s+(?=\p{Lu})/uy;
const FIRST_NAME_RE = rx(
  `${L}(?:${[...FIRST_NAMES]
    .sort((a, b) => b.length - a.length)
    .map(esc)
    .join('|')})${R}`,
);

interface Candidate {
  start: number;
  end: number;
  label: NerLabel;
  score: number;
  priority: number;
}

/**
 * A name runs from its first capitalised word through further capitalised words (joined by
 * da/de/dos...), and stops before a known organisation or place: "Maria da Vivo" is Maria.
 */
function extendName(sentence: string, start: number, blockers: Set<number>): number {
  NAME_WORD.lastIndex = start;
  const first = NAME_WORD.exec(sentence);
  if (!first) return start;
  let end = start + first[0].length;
  for (let guard = 0; guard < 8; guard++) {
    let at = end;
    NAME_CONNECT.lastIndex = at;
    const conn = NAME_CONNECT.exec(sentence);
    if (conn) at += conn[0].length;
    SPACE.lastIndex = at;
    const sp = SPACE.exec(sentence);
    if (!sp) break;
    const wordStart = at + sp[0].length;
    if (blockers.has(wordStart)) break;
    NAME_WORD.lastIndex = wordStart;
    const next = NAME_WORD.exec(sentence);
    if (!next) break;
    end = wordStart + next[0].length;
  }
  return end;
}

function personCandidates(sentence: string, blockers: Set<number>): Candidate[] {
  const out: Candidate[] = [];
  const push = (start: number, score: number) => {
    if (blockers.has(start)) return;
    const end = extendName(sentence, start, blockers);
    if (end > start) out.push({ start, end, label: 'PERSON', score, priority: 3 });
  };
  for (const m of sentence.matchAll(TITLE_RE)) push((m.index ?? 0) + m[0].length, 0.85);
  for (const m of sentence.matchAll(CUE_RE)) push((m.index ?? 0) + m[0].length, 0.85);
  for (const m of sentence.matchAll(FIRST_NAME_RE)) push(m.index ?? 0, 0.8);
  return out;
}

// ---- the recogniser ---------------------------------------------------------------------

export function recognizeEntities(sentence: string): Entity[] {
  const candidates: Candidate[] = [];
  for (const rule of RULES) {
    rule.re.lastIndex = 0;
    for (const m of sentence.matchAll(rule.re)) {
      const span = m.indices?.[rule.group ?? 0];
      if (!span) continue;
      const [start, end] = span;
      const text = sentence.slice(start, end);
      if (end <= start) continue;
      if (rule.accept && !rule.accept(text, sentence, start)) continue;
      candidates.push({ start, end, label: rule.label, score: rule.score, priority: rule.priority });
    }
  }
  // CPF and CNPJ from the shared finder; the AI names only those whose check digits hold, a
  // formatted one with more confidence.
  for (const d of findDocuments(sentence)) {
    if (!(d.kind === 'CPF' ? isValidCpf(d.digits) : isValidCnpj(d.digits))) continue;
    const formatted = d.end - d.start > d.digits.length;
    candidates.push({ start: d.start, end: d.end, label: d.kind, score: formatted ? 0.99 : 0.9, priority: 9 });
  }
  // Where an organisation or place begins, a person's name must stop.
  const blockers = new Set(candidates.filter((c) => c.label === 'ORG' || c.label === 'LOC').map((c) => c.start));
  candidates.push(...personCandidates(sentence, blockers));

  candidates.sort((a, b) => b.priority - a.priority || b.end - b.start - (a.end - a.start) || a.start - b.start);
  const taken: Candidate[] = [];
  for (const c of candidates) {
    if (taken.some((t) => c.start < t.end && t.start < c.end)) continue;
    taken.push(c);
  }
  taken.sort((a, b) => a.start - b.start);
  return taken.map((c) => ({ text: sentence.slice(c.start, c.end), label: c.label, start: c.start, end: c.end, score: c.score }));
}
