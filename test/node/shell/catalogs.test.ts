import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../support/root';
import { textsOf } from '../../support/walk';

/**
 * The Spanish catalog is Spanish: read from the catalog files themselves (not through the
 * console's formatter), no message is left in English or in Portuguese.
 */

const read = (lang: string) =>
  JSON.parse(readFileSync(join(ROOT, 'src-renderer/src/locales', `${lang}.json`), 'utf8')) as Record<string, string>;
const en = read('en');
const pt = read('pt-BR');
const es = read('es');

/** Words the three languages genuinely share: names, codes, units and the few loanwords Spanish uses as they are. */
const SHARED = new Set(
  'SLA min SMS Messenger Bot Bots Token Ticket Tickets tickets NPS ID Id CPF TMIA TMIC TM2 KB MB General Visible Formal No Audio Script JavaScript'.split(
    ' ',
  ),
);
/** What marks a text as Portuguese and never as Spanish: its letters and its short words. */
const PORTUGUESE = /[ãõçê]|(?<!\p{L})(?:não|você|em|do|um|uma|os|com|ao|às|pelo|pela|isso|são|também)(?!\p{L})/iu;

const wordsOf = (message: string) =>
  textsOf(message)
    .join(' ')
    .match(/\p{L}[\p{L}\d]*/gu) ?? [];

test('every Spanish message differs from the English one, unless all its words are shared names and codes', () => {
  const english = Object.keys(es).filter((k) => es[k] === en[k] && !wordsOf(es[k]!).every((w) => SHARED.has(w)));
  expect(english).toEqual([]);
  // The allow-list stays short and is used: each word of it is in some message kept as it is.
  const used = new Set(
    Object.keys(es)
      .filter((k) => es[k] === en[k])
      .flatMap((k) => wordsOf(es[k]!)),
  );
  expect([...SHARED].filter((w) => !used.has(w))).toEqual([]);
});

test('no Spanish message reads as Portuguese, and where one is the Portuguese text the words are Spanish too', () => {
  // The sweep can tell: the Portuguese catalog is caught by it.
  expect(Object.values(pt).filter((v) => PORTUGUESE.test(textsOf(v).join(' '))).length).toBeGreaterThan(Object.keys(pt).length / 3);
  expect(Object.entries(es).filter(([, v]) => PORTUGUESE.test(textsOf(v).join(' ')))).toEqual([]);
});

test('the catalogs have the same keys, and each Spanish plural has its own forms', () => {
  expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
  const plurals = Object.keys(en).filter((k) => /\{count, plural,/.test(en[k]!));
  expect(plurals.length).toBeGreaterThan(5);
  for (const k of plurals) expect(es[k], k).toMatch(/^\{count, plural, one \{.*\} other \{.*\}\}$/);
});
