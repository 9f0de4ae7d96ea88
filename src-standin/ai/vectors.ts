import { CONCEPTS, foldAccents, terms, words, STOPWORDS } from './text';

/**
 * Embeddings of the stand-in: hashed sparse vectors of word stems plus character trigrams,
 * weighted by TF-IDF over the base and compared by cosine similarity. Honest retrieval with
 * no model weights: stems carry meaning, trigrams forgive typos and inflections.
 */

const DIMENSIONS = 1 << 20;

export type SparseVector = Map<number, number>;

/** FNV-1a, enough to spread features over the hashed space. */
function hash(feature: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < feature.length; i++) {
    h ^= feature.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % DIMENSIONS;
}

/** Occurrences of a feature and the weight of its kind (words weigh more than trigrams). */
export interface Feature {
  n: number;
  w: number;
}

/** The features of a text, keyed by hashed feature. */
export function features(text: string): Map<number, Feature> {
  const counts = new Map<number, Feature>();
  const add = (f: string, w: number) => {
    const k = hash(f);
    const c = counts.get(k);
    if (c) c.n++;
    else counts.set(k, { n: 1, w });
  };
  for (const t of terms(text)) {
    add(`w:${t}`, 1);
    const concept = CONCEPTS.get(t);
    if (concept) add(`k:${concept}`, 1);
  }
  for (const w of words(foldAccents(text))) {
    if (STOPWORDS.has(w) || w.length < 3) continue;
    const padded = `^${w}$`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`c:${padded.slice(i, i + 3)}`, 0.1);
  }
  return counts;
}

/** IDF table of a base: rarer features count more. */
export class Idf {
  readonly #df = new Map<number, number>();
  #docs = 0;

  add(f: Map<number, Feature>): void {
    this.#docs++;
    for (const k of f.keys()) this.#df.set(k, (this.#df.get(k) ?? 0) + 1);
  }

  weight(k: number): number {
    return Math.log((1 + this.#docs) / (1 + (this.#df.get(k) ?? 0))) + 1;
  }
}

/** TF-IDF weights with sublinear term frequency, unit length. */
export function vectorize(f: Map<number, Feature>, idf: Idf): SparseVector {
  const v: SparseVector = new Map();
  let norm = 0;
  for (const [k, { n, w: kind }] of f) {
    const w = kind * (1 + Math.log(n)) * idf.weight(k);
    v.set(k, w);
    norm += w * w;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (const [k, w] of v) v.set(k, w / norm);
  return v;
}

/** Cosine of two unit vectors. */
export function cosine(a: SparseVector, b: SparseVector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [k, w] of small) {
    const o = large.get(k);
    if (o !== undefined) dot += w * o;
  }
  return dot;
}

/** An index over chunks of text: build once, query many times. */
export class VectorIndex {
  readonly #vectors: SparseVector[];
  readonly #idf = new Idf();

  constructor(readonly chunks: readonly string[]) {
    const fs = chunks.map((c) => features(c));
    for (const f of fs) this.#idf.add(f);
    this.#vectors = fs.map((f) => vectorize(f, this.#idf));
  }

  /** The `size` closest chunks with a positive score, closest first. */
  search(question: string, size: number): Array<{ text: string; score: number }> {
    const q = vectorize(features(question), this.#idf);
    const scored: Array<{ i: number; score: number }> = [];
    this.#vectors.forEach((v, i) => {
      const score = cosine(q, v);
      if (score > 0) scored.push({ i, score });
    });
    scored.sort((x, y) => y.score - x.score || x.i - y.i);
    return scored.slice(0, size).map(({ i, score }) => ({ text: this.chunks[i] ?? '', score: Math.round(score * 10000) / 10000 }));
  }
}
