// Node-only (node:crypto): used by the main process and the stand-in, never by the renderer.
import * as nodeCrypto from 'node:crypto';
import { createHash, createHmac } from 'node:crypto';
import { WEBHOOK_TOLERANCE_SECONDS } from './webhook';

/** Secrets may be given as `whsec_<base64>` (Standard Webhooks) or as plain text. */
export function secretBytes(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
}

const BLOCK = 64; // SHA-256 block size
/** Signed contents longer than this are hashed by createHmac rather than copied into the scratch buffer. */
const ONE_SHOT_MAX = 64 * 1024;

/**
 * SHA-256 in one call, as text: crypto.hash (Node 20.12+, 21.7+) when present. Text rather than
 * a Buffer because allocating the result Buffer costs more than hashing a small event.
 */
const sha256: ((data: Buffer, encoding: 'binary' | 'base64') => string) | undefined = (() => {
  const hash = (nodeCrypto as Partial<typeof nodeCrypto>).hash;
  if (typeof hash !== 'function') return undefined;
  const f = (data: Buffer, encoding: 'binary' | 'base64') => hash('sha256', data, encoding);
  try {
    return f(Buffer.alloc(0), 'binary').length === 32 ? f : undefined;
  } catch {
    return undefined;
  }
})();

/**
 * HMAC-SHA256 (RFC 2104) for one key, built on one-shot hashing: a listener checks every event
 * against the same secret, and createHmac's per-call setup costs more than hashing a small event.
 * H((K ^ opad) || H((K ^ ipad) || message)), with both padded keys made once per secret.
 */
class Sha256Mac {
  private readonly key: Buffer;
  /** K ^ ipad, followed by room for the message. */
  private inner = Buffer.allocUnsafe(BLOCK + 4096);
  /** K ^ opad, followed by the inner digest. */
  private readonly outer = Buffer.allocUnsafe(BLOCK + 32);

  constructor(secret: string) {
    let key = secretBytes(secret);
    if (key.length > BLOCK) key = createHash('sha256').update(key).digest();
    this.key = key;
    for (let i = 0; i < BLOCK; i++) {
      const k = i < key.length ? key[i]! : 0;
      this.inner[i] = k ^ 0x36;
      this.outer[i] = k ^ 0x5c;
    }
  }

  /** The base64 MAC of `prefix` (text) followed by `body`. */
  of(prefix: string, body: Buffer | string): string {
    const bodyBytes = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    // At most three UTF-8 bytes per UTF-16 unit: a bound is enough to size the buffer.
    const size = BLOCK + prefix.length * 3 + bodyBytes;
    if (!sha256 || size > BLOCK + ONE_SHOT_MAX) {
      return createHmac('sha256', this.key).update(prefix).update(body).digest('base64');
    }
    if (size > this.inner.length) {
      const grown = Buffer.allocUnsafe(Math.max(size, this.inner.length * 2));
      this.inner.copy(grown, 0, 0, BLOCK);
      this.inner = grown;
    }
    let off = BLOCK + this.inner.write(prefix, BLOCK, 'utf8');
    off += typeof body === 'string' ? this.inner.write(body, off, 'utf8') : body.copy(this.inner, off);
    this.outer.write(sha256(this.inner.subarray(0, off), 'binary'), BLOCK, 'latin1');
    return sha256(this.outer, 'base64');
  }
}

// The last secret's MAC: a listener checks every event against the same secret.
let lastSecret: string | undefined;
let lastMac: Sha256Mac | undefined;
function macFor(secret: string): Sha256Mac {
  if (secret !== lastSecret || !lastMac) {
    lastMac = new Sha256Mac(secret);
    lastSecret = secret;
  }
  return lastMac;
}

/** The base64 HMAC-SHA256 of "id.timestamp.body". */
function mac(secret: string, id: string, timestamp: number | string, body: Buffer | string): string {
  return macFor(secret).of(`${id}.${timestamp}.`, body);
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` over the raw body bytes. */
export function signWebhook(secret: string, id: string, timestamp: number, body: Buffer | string): string {
  return `v1,${mac(secret, id, timestamp, body)}`;
}

export type SignatureCheck =
  | { ok: true }
  | { ok: false; reason: 'missing-headers' | 'bad-timestamp' | 'stale' | 'mismatch' };

const OK: SignatureCheck = { ok: true };
const MISMATCH: SignatureCheck = { ok: false, reason: 'mismatch' };
const TIMESTAMP_RE = /^\d{1,12}$/;

/**
 * Whether two strings are equal, in a time that depends only on their lengths: a char-code loop
 * with no early exit and nothing allocated.
 */
export function sameText(given: string, expected: string): boolean {
  if (given.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < given.length; i++) diff |= given.charCodeAt(i) ^ expected.charCodeAt(i);
  return diff === 0;
}

/** Compares one `v1,<base64>` entry with the expected base64 digest in constant time. */
function matches(part: string, expected: string): boolean {
  if (!part.startsWith('v1,') || part.length === 3) return false;
  const given = part.slice(3);
  if (sameText(given, expected)) return true;
  // The same bytes may be spelled otherwise (no padding, URL-safe letters): compare what they decode to.
  const canonical = Buffer.from(given, 'base64').toString('base64');
  return canonical !== given && sameText(canonical, expected);
}

/**
 * Verifies a Standard Webhooks signature header (which may list several space-separated
 * signatures) with a constant-time compare and a ±5 minute window around `nowSeconds`.
 */
export function verifyWebhook(
  secret: string,
  headers: { id?: string | undefined; timestamp?: string | undefined; signature?: string | undefined },
  body: Buffer,
  nowSeconds: number,
  toleranceSeconds = WEBHOOK_TOLERANCE_SECONDS,
): SignatureCheck {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature) return { ok: false, reason: 'missing-headers' };
  if (!TIMESTAMP_RE.test(timestamp)) return { ok: false, reason: 'bad-timestamp' };
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return { ok: false, reason: 'stale' };
  // The timestamp is signed as the header spells it, as Standard Webhooks defines the content.
  const expected = mac(secret, id, timestamp, body);
  // Usually one signature; several (secret rotation) are separated by spaces.
  if (signature.indexOf(' ') < 0) return matches(signature, expected) ? OK : MISMATCH;
  for (const part of signature.split(' ')) if (matches(part, expected)) return OK;
  return MISMATCH;
}
