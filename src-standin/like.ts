/**
 * LIKE patterns of the query conditions (`%` any run, `_` any one character), matched without a
 * regular expression so that the time is bounded by text × pattern whatever the input.
 */

/**
 * One `%`-free piece of a LIKE pattern: its characters (code points), `null` where `_` takes any
 * one, and the whole piece as text when it has no `_` (then native search applies).
 */
interface Segment {
  chars: Array<string | null>;
  literal: string | null;
}

function segmentOf(part: string): Segment {
  const chars = Array.from(part, (ch) => (ch === '_' ? null : ch));
  return { chars, literal: chars.includes(null) ? null : part };
}

/** The text as folded characters: the string itself unless a surrogate pair makes units and characters differ. */
const SURROGATE = /[\uD800-\uDFFF]/;
const foldText = (text: string): string | string[] => {
  const lower = text.toLowerCase();
  return SURROGATE.test(lower) ? Array.from(lower) : lower;
};

function segmentAt(t: string | string[], at: number, seg: Segment): boolean {
  if (seg.literal !== null && typeof t === 'string') return t.startsWith(seg.literal, at);
  const { chars } = seg;
  if (at < 0 || at + chars.length > t.length) return false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c !== null && c !== t[at + i]) return false;
  }
  return true;
}

/** Leftmost place at or after `from` where `seg` fits before `end`, or -1. */
function findSegment(t: string | string[], from: number, end: number, seg: Segment): number {
  if (seg.literal !== null && typeof t === 'string') {
    const i = t.indexOf(seg.literal, from);
    return i >= 0 && i + seg.literal.length <= end ? i : -1;
  }
  for (let i = from; i + seg.chars.length <= end; i++) if (segmentAt(t, i, seg)) return i;
  return -1;
}

/**
 * LIKE without a regular expression, case-insensitive as `toLowerCase`: the pattern splits at
 * `%` into segments, the first anchored at the start, the last at the end, the others found
 * leftmost in order (the leftmost place is never worse for what follows). At most text ×
 * pattern steps whatever the input, where a backtracking regex over `%a%a%a%X` took seconds
 * on a few hundred characters and held the whole process meanwhile.
 */
export function likeMatcher(pattern: string): (text: string) => boolean {
  const segs = pattern.toLowerCase().split('%').map(segmentOf);
  const first = segs[0] as Segment;
  if (segs.length === 1) {
    return (text) => {
      const t = foldText(text);
      return t.length === first.chars.length && segmentAt(t, 0, first);
    };
  }
  const last = segs[segs.length - 1] as Segment;
  const middle = segs.slice(1, -1).filter((s) => s.chars.length > 0);
  const least = segs.reduce((n, s) => n + s.chars.length, 0);
  return (text) => {
    if (text.length < least) return false; // never fewer UTF-16 units than characters
    const t = foldText(text);
    const end = t.length - last.chars.length;
    if (end < first.chars.length || !segmentAt(t, 0, first) || !segmentAt(t, end, last)) return false;
    let at = first.chars.length;
    for (const seg of middle) {
      const found = findSegment(t, at, end, seg);
      if (found < 0) return false;
      at = found + seg.chars.length;
    }
    return true;
  };
}
