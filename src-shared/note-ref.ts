/**
 * The client reference the outbox appends to each note ("Customer asked for a refund · ref
 * 7F3A9C2K"), so a note can be recognised when the session's comments are read back. Zod-free
 * and Node-free: the renderer uses it to show comments without the suffix.
 *
 * 8 Crockford base32 characters: the alphabet avoids I, L, O, U so it survives being read aloud.
 */
export const REF_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const REF_LENGTH = 8;
export const REF_PATTERN = /^[0-9A-HJKMNP-TV-Z]{8}$/;
const SEPARATOR = ' · ref ';
const FIND_REFS = /·\s*ref\s+([0-9A-HJKMNP-TV-Z]{8})(?![0-9A-Z])/gi;

/** The comment text sent to the service. */
export function withRef(text: string, ref: string): string {
  return `${text.trimEnd()}${SEPARATOR}${ref}`;
}

/**
 * The reference a stored comment carries, if any. The last one wins: a note that quotes another
 * note's reference still ends with its own. Tolerant of the service trimming or re-spacing text.
 */
export function refOf(comment: string): string | undefined {
  let last: string | undefined;
  for (const m of comment.matchAll(FIND_REFS)) last = m[1]?.toUpperCase();
  return last;
}

/** Splits a stored comment into the text the attendant typed and its reference (for display). */
export function splitRef(comment: string): { text: string; ref?: string } {
  const ref = refOf(comment);
  if (!ref) return { text: comment };
  const idx = comment.toUpperCase().lastIndexOf(ref);
  const head = comment.slice(0, idx).replace(/\s*·\s*ref\s*$/i, '');
  return { text: head, ref };
}
