/**
 * Small text helpers shared by retrieval, summarisation and drafting. Portuguese first:
 * matching ignores case and accents ("devolução" finds "devolucao").
 */

export function foldAccents(s: string): string {
  return s.normalize('NFD').replace(/\p{M}+/gu, '');
}

/** Lower-cased, accent-free words (letters and digits). */
export function words(s: string): string[] {
  return foldAccents(s.toLowerCase()).match(/[\p{L}\p{N}]+/gu) ?? [];
}

const STOP_PT = `a ao aos as ate com como da das de dela dele deles do dos e ela elas ele eles em entre era
essa esse esta estao este eu foi for ha isso isto ja la lhe mais mas me mesmo meu minha muito na nao
nas nem no nos nossa nosso num numa o os ou para pela pelas pelo pelos por qual quando que quem se
sem ser seu seus sua suas so tambem te tem ter teu tua um uma voce voces vou vai sao sim estou esta
pra pro oi ola bom boa dia tarde noite obrigado obrigada favor gostaria queria preciso poderia pode
posso ai aqui ali the an and are as at be but by for from has have how i in is it its my no not of
on or our so than that this to was we what when where which who why will with you your can do does
hello hi please thanks thank would like quero quer queria quanto quanta veio vem tem tenho fazer faco fiz qual quais onde`;

export const STOPWORDS = new Set(STOP_PT.split(/\s+/).filter(Boolean));

/**
 * A light stemmer: strips the commonest Portuguese and English inflections so that
 * "devoluções"/"devolução" and "orders"/"order" meet. Crude by design; character
 * n-grams in the vectors cover what it misses.
 */
export function stem(w: string): string {
  if (w.length <= 4) return w;
  const rules: Array<[RegExp, string]> = [
    [/coes$/, 'cao'],
    [/oes$/, 'ao'],
    [/aes$/, 'ao'],
    [/ais$/, 'al'],
    [/eis$/, 'el'],
    [/ies$/, 'y'],
    [/(ando|endo|indo|ados|adas|idos|idas|ado|ada|ido|ida|ing|ed)$/, ''],
    [/s$/, ''],
  ];
  for (const [re, rep] of rules) {
    if (re.test(w)) {
      const out = w.replace(re, rep);
      if (out.length >= 3) return out;
    }
  }
  return w;
}

/** Content terms: words without stopwords, stemmed. */
export function terms(s: string): string[] {
  return words(s)
    .filter((w) => !STOPWORDS.has(w))
    .map(stem);
}

/** Splits prose into sentences, keeping each sentence's text as written. */
export function sentences(s: string): string[] {
  const out: string[] = [];
  for (const line of s.split(/\n+/)) {
    // A sentence ends at . ! ? … followed by a space or the end: "R$ 2.082,30" and a masked
    // "***.***.199-02" stay whole.
    const parts = line.split(/(?<=[.!?…])\s+/u);
    for (const p of parts) {
      const t = p.trim();
      if (t) out.push(t);
    }
  }
  return out;
}

/** The local provider counts tokens as whitespace-separated words (documented in index.ts). */
export function countTokens(s: string): number {
  const t = s.trim();
  return t ? t.split(/\s+/u).length : 0;
}

/** Cuts `s` to at most `max` words, preferring to stop at the end of a sentence. */
export function truncateWords(s: string, max: number): string {
  const parts = s.trim().split(/(\s+)/u);
  const wordsOnly = parts.filter((p, i) => i % 2 === 0 && p.length > 0);
  if (wordsOnly.length <= max) return s.trim();
  if (max <= 0) return '';
  let out = '';
  let count = 0;
  for (let i = 0; i < parts.length && count < max; i++) {
    out += parts[i];
    if (i % 2 === 0 && parts[i]) count++;
  }
  const lastStop = Math.max(out.lastIndexOf('. '), out.lastIndexOf('.\n'), out.lastIndexOf('! '), out.lastIndexOf('? '));
  if (lastStop > out.length / 2) return out.slice(0, lastStop + 1).trim();
  return `${out.trim()}…`;
}

/** Rough language guess for the fixed framing text of a draft: Portuguese unless clearly English. */
export function looksEnglish(s: string): boolean {
  const ws = words(s);
  const en = new Set([
    'the',
    'is',
    'are',
    'my',
    'your',
    'you',
    'i',
    'have',
    'has',
    'what',
    'how',
    'can',
    'please',
    'order',
    'with',
    'not',
    'did',
    'does',
    'was',
    'when',
    'where',
    'why',
    'hello',
    'hi',
    'thanks',
  ]);
  const pt = new Set([
    'o',
    'a',
    'os',
    'as',
    'meu',
    'minha',
    'voce',
    'nao',
    'que',
    'com',
    'para',
    'como',
    'quando',
    'onde',
    'por',
    'pedido',
    'ola',
    'oi',
    'obrigado',
    'obrigada',
    'e',
    'um',
    'uma',
    'de',
    'do',
    'da',
  ]);
  let e = 0;
  let p = 0;
  for (const w of ws) {
    if (en.has(w)) e++;
    if (pt.has(w)) p++;
  }
  return e > p;
}

/**
 * Words customers use for the same thing in attendance ("quanto tempo demora" is asking for
 * the "prazo"). Each group adds a shared concept feature next to the words themselves.
 */
const CONCEPT_GROUPS: string[][] = [
  ['prazo', 'demora', 'demorar', 'demorando', 'tempo', 'leva', 'chega', 'chegar', 'chegou', 'quando', 'previsao', 'deadline', 'long'],
  ['troca', 'trocar', 'devolver', 'devolucao', 'devolucoes', 'desistir', 'arrependimento', 'exchange', 'return'],
  ['reembolso', 'estorno', 'estornar', 'ressarcimento', 'dinheiro', 'refund'],
  ['cancelar', 'cancelamento', 'cancela', 'desistencia', 'cancel'],
  ['senha', 'login', 'acesso', 'acessar', 'entrar', 'password'],
  ['pagamento', 'pagar', 'pago', 'paguei', 'cartao', 'credito', 'debito', 'parcelar', 'parcelamento', 'payment', 'pay'],
  ['defeito', 'quebrado', 'quebrou', 'estragado', 'funciona', 'garantia', 'broken', 'warranty'],
  ['rastrear', 'rastreio', 'rastreamento', 'onde', 'status', 'acompanhar', 'track', 'tracking'],
  ['atendente', 'humano', 'pessoa', 'falar', 'atendimento', 'agent', 'human'],
  ['frete', 'envio', 'entrega', 'shipping', 'delivery'],
  ['nota', 'fiscal', 'nfe', 'invoice'],
  ['cupom', 'cupons', 'promocao', 'coupon', 'voucher'],
];

export const CONCEPTS = new Map<string, string>();
CONCEPT_GROUPS.forEach((group, i) => {
  for (const w of group) CONCEPTS.set(stem(w), `k${i}`);
});
