/**
 * The deepest nesting the console reads or writes as JSON. A service record nests a few levels
 * (a session, its group, its classification tree); 128 leaves room for deep trees and keeps every
 * recursive reader (schemas, redaction, serialisation) far from the end of its stack.
 */
export const MAX_JSON_DEPTH = 128;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

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

  /**
   * Reads the next part; answers false once the text went deeper than the limit. One pass over
   * the bytes: inside a string only a backslash (which skips the byte after it, perhaps in the
   * next part) and the closing quote matter; outside, the quote and the brackets.
   */
  feed(part: Uint8Array | string): boolean {
    if (this.#over) return false;
    const bytes = typeof part === 'string' ? new TextEncoder().encode(part) : part;
    const n = bytes.length;
    const limit = this.limit;
    let depth = this.#depth;
    let inString = this.#inString;
    // A backslash that ended the last part escapes this part's first byte.
    let i = this.#escaped ? 1 : 0;
    for (; i < n; i++) {
      const c = bytes[i];
      if (inString) {
        if (c === BACKSLASH) i++;
        else if (c === QUOTE) inString = false;
      } else if (c === QUOTE) inString = true;
      else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        if (++depth > limit) {
          this.#over = true;
          return false;
        }
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
    }
    // Past the end: the last byte was a backslash, and the byte it escapes comes next.
    this.#escaped = i > n;
    this.#depth = depth;
    this.#inString = inString;
    return true;
  }
}

/** Whether JSON text nests deeper than `limit`. */
export function nestsDeeperThan(text: Uint8Array | string, limit: number = MAX_JSON_DEPTH): boolean {
  return !new JsonDepthGauge(limit).feed(text);
}
