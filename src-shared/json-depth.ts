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

  /** Reads the next part; answers false once the text went deeper than the limit. */
  feed(part: Uint8Array | string): boolean {
    const bytes = typeof part === 'string' ? new TextEncoder().encode(part) : part;
    const n = bytes.length;
    let i = 0;
    while (i < n && !this.#over) {
      if (this.#inString) {
        if (this.#escaped) {
          this.#escaped = false;
          i++;
          continue;
        }
        // Strings are skipped whole, up to their closing quote: one that an odd run of
        // backslashes precedes is escaped, and the string goes on after it.
        const quote = bytes.indexOf(QUOTE, i);
        const end = quote === -1 ? n : quote;
        let k = end - 1;
        while (k >= i && bytes[k] === BACKSLASH) k--;
        const escapedEnd = (end - 1 - k) % 2 === 1;
        if (quote === -1) {
          this.#escaped = escapedEnd;
          break;
        }
        if (!escapedEnd) this.#inString = false;
        i = quote + 1;
        continue;
      }
      const c = bytes[i++]!;
      if (c === QUOTE) this.#inString = true;
      else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        if (++this.#depth > this.limit) this.#over = true;
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) this.#depth--;
    }
    return !this.#over;
  }
}

/** Whether JSON text nests deeper than `limit`. */
export function nestsDeeperThan(text: Uint8Array | string, limit: number = MAX_JSON_DEPTH): boolean {
  return !new JsonDepthGauge(limit).feed(text);
}
