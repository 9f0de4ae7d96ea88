import { randomBytes } from 'node:crypto';
import { REF_ALPHABET, REF_LENGTH } from '../../src-shared/note-ref';

/**
 * The reference rules live in src-shared/note-ref.ts (the renderer hides the suffix with them);
 * only making a new reference needs Node's crypto, so it stays here.
 */
export { REF_PATTERN, withRef, refOf, splitRef } from '../../src-shared/note-ref';

/** 40 random bits: a collision inside one session's comments is beyond any practical concern. */
export function newRef(): string {
  const bytes = randomBytes(REF_LENGTH);
  let out = '';
  for (const b of bytes) out += REF_ALPHABET[b & 31];
  return out;
}
