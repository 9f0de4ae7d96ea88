/**
 * The deepest nesting the console reads or writes as JSON. A service record nests a few levels
 * (a session, its group, its classification tree); 128 leaves room for deep trees and keeps every
 * recursive reader (schemas, redaction, serialisation) far from the end of its stack.
 */
export const MAX_JSON_DEPTH = 128;

/** What a byte is to the gauge: most bytes are none of these, and cost one lookup. */
const OTHER = 0;
const QUOTE = 1;
const BACKSLASH = 2;
const OPEN = 3;
const CLOSE = 4;
const KIND = new Uint8Array(256);
KIND[0x22] = QUOTE;
KIND[0x5c] = BACKSLASH;
KIND[0x5b] = OPEN; // [
KIND[0x7b] = OPEN; // {
KIND[0x5d] = CLOSE; // ]
KIND[0x7d] = CLOSE; // }

/** Where `scan` stopped: its depth, whether inside a string, and the index after the last byte read. */
const scanned = { depth: 0, inString: false, end: 0 };

/**
 * One pass over `bytes` from `start`; false as soon as the depth passes `limit`, else the state
 * at the end is in `scanned`. Inside a string only a backslash (which skips the byte after it,
 * perhaps past the end) and the closing quote matter; outside, the quote and the brackets. (A
 * plain function: V8 runs this loop about twice as fast here as in a method.)
 */
function scan(bytes: Uint8Array, start: number, depthBefore: number, inStringBefore: boolean, limit: number): boolean {
  let depth = depthBefore;
  let inString = inStringBefore;
  const n = bytes.length;
  let i = start;
  for (; i < n; i++) {
    const kind = KIND[bytes[i]!]!;
    if (kind === OTHER) continue;
    if (inString) {
      if (kind === BACKSLASH) i++;
      else if (kind === QUOTE) inString = false;
    } else if (kind === QUOTE) inString = true;
    else if (kind === OPEN) {
      if (++depth > limit) return false;
    } else if (kind === CLOSE) depth--;
  }
  scanned.depth = depth;
  scanned.inString = inString;
  scanned.end = i;
  return true;
}

/**
 * Measures the nesting of JSON text as it arrives, chunk by chunk, without parsing it: text
 * nested deeper than the limit is refused before `JSON.parse` spends seconds on it. Reads UTF-8
 * bytes (no multi-byte sequence contains an ASCII byte); a string is encoded first.
 */
export class JsonDepthGauge {
  #depth = 0;
  #inString = false;
  #escaped = false;
  #over = false;

  constructor(readonly limit: number = MAX_JSON_DEPTH) {}

  /** Whether the text so far went deeper than the limit. */
  get exceeded(): boolean {
    return this.#over;
  }

  /** Reads the next part; answers false once the text went deeper than the limit. */
  feed(part: Uint8Array | string): boolean {
    if (this.#over) return false;
    const bytes = typeof part === 'string' ? new TextEncoder().encode(part) : part;
    // A backslash that ended the last part escapes this part's first byte.
    if (!scan(bytes, this.#escaped ? 1 : 0, this.#depth, this.#inString, this.limit)) {
      this.#over = true;
      return false;
    }
    // Past the end: the last byte was a backslash, and the byte it escapes comes next.
    this.#escaped = scanned.end > bytes.length;
    this.#depth = scanned.depth;
    this.#inString = scanned.inString;
    return true;
  }
}

/** Whether JSON text nests deeper than `limit`. */
export function nestsDeeperThan(text: Uint8Array | string, limit: number = MAX_JSON_DEPTH): boolean {
  return !new JsonDepthGauge(limit).feed(text);
}
