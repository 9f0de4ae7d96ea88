import { foldAccents, terms, words, STOPWORDS } from './text';

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

/** Raw feature counts of a text. Word features weigh more than trigrams. */
export function features(text: string): Map<number, number> {
  const counts = new Map<number, number>();
  const add = (f: string, w: number) => {
    const k = hash(f);
    counts.set(k, (counts.get(k) ?? 0) + w);
  };
  for (const t of terms(text)) add(`w:${t}`, 1);
  for (const w of words(foldAccents(text))) {
    if (STOPWORDS.has(w) || w.length < 3) continue;
    const padded = `^${w}$`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`c:${padded.slice(i, i + 3)}`, 0.25);
  }
  return counts;
}

/** IDF table of a base: rarer features count more. */
export class Idf {
  private readonly df = new Map<number, number>();
  private docs = 0;

  add(f: Map<number, number>): void {
    this.docs++;
    for (const k of f.keys()) this.df.set(k, (this.df.get(k) ?? 0) + 1);
  }

  weight(k: number): number {
    return Math.log((1 + this.docs) / (1 + (this.df.get(k) ?? 0))) + 1;
  }
}

/** TF-IDF weights with sublinear term frequency, unit length. */
export function vectorize(f: Map<number, number>, idf: Idf): SparseVector {
  const v: SparseVector = new Map();
  let norm = 0;
  for (const [k, c] of f) {
    const w = (1 + Math.log(c + 1)) * idf.weight(k);
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
  private readonly vectors: SparseVector[];
  private readonly idf = new Idf();

  constructor(readonly chunks: readonly string[]) {
    const fs = chunks.map((c) => features(c));
    for (const f of fs) this.idf.add(f);
    this.vectors = fs.map((f) => vectorize(f, this.idf));
  }

  /** The `size` closest chunks with a positive score, closest first. */
  search(question: string, size: number): Array<{ text: string; score: number }> {
    const q = vectorize(features(question), this.idf);
    const scored: Array<{ i: number; score: number }> = [];
    this.vectors.forEach((v, i) => {
      const score = cosine(q, v);
      if (score > 0) scored.push({ i, score });
    });
    scored.sort((x, y) => y.score - x.score || x.i - y.i);
    return scored.slice(0, size).map(({ i, score }) => ({ text: this.chunks[i] ?? '', score: Math.round(score * 10000) / 10000 }));
  }
}
