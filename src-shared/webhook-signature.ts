// Node-only (node:crypto): used by the main process and the stand-in, never by the renderer.
import * as nodeCrypto from 'node:crypto';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_TOLERANCE_SECONDS } from './webhook';

/** Secrets may be given as `whsec_<base64>` (Standard Webhooks) or as plain text. */
export function secretBytes(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
}

const BLOCK = 64; // SHA-256 block size
/** Signed contents longer than this are hashed by createHmac rather than copied into the scratch buffer. */
const ONE_SHOT_MAX = 64 * 1024;

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

  /** The raw MAC of `prefix` (text) followed by `body`. */
  of(prefix: string, body: Buffer | string): Buffer {
    const bodyBytes = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    const size = BLOCK + Buffer.byteLength(prefix) + bodyBytes;
    if (!oneShot || size > BLOCK + ONE_SHOT_MAX) {
      return createHmac('sha256', this.key).update(prefix).update(body).digest();
    }
    if (size > this.inner.length) {
      const grown = Buffer.allocUnsafe(Math.max(size, this.inner.length * 2));
      this.inner.copy(grown, 0, 0, BLOCK);
      this.inner = grown;
    }
    let off = BLOCK + this.inner.write(prefix, BLOCK, 'utf8');
    off += typeof body === 'string' ? this.inner.write(body, off, 'utf8') : body.copy(this.inner, off);
    oneShot(this.inner.subarray(0, off)).copy(this.outer, BLOCK);
    return oneShot(this.outer);
  }
}

/** crypto.hash (Node 20.12+, 21.7+) when it returns raw bytes; else createHmac is used. */
const oneShot: ((data: Buffer) => Buffer) | undefined = (() => {
  const cryptoHash = (nodeCrypto as Partial<typeof nodeCrypto>).hash;
  if (typeof cryptoHash !== 'function') return undefined;
  const f = (data: Buffer) => cryptoHash('sha256', data, 'buffer');
  try {
    return Buffer.isBuffer(f(Buffer.alloc(0))) ? f : undefined;
  } catch {
    return undefined;
  }
})();

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

/** The raw HMAC-SHA256 of "id.timestamp.body". */
function mac(secret: string, id: string, timestamp: number | string, body: Buffer | string): Buffer {
  return macFor(secret).of(`${id}.${timestamp}.`, body);
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` over the raw body bytes. */
export function signWebhook(secret: string, id: string, timestamp: number, body: Buffer | string): string {
  return `v1,${mac(secret, id, timestamp, body).toString('base64')}`;
}

export type SignatureCheck =
  | { ok: true }
  | { ok: false; reason: 'missing-headers' | 'bad-timestamp' | 'stale' | 'mismatch' };

const OK: SignatureCheck = { ok: true };
const TIMESTAMP_RE = /^\d{1,12}$/;

/** Compares one `v1,<base64>` entry with the expected digest in constant time. */
function matches(part: string, expected: Buffer): boolean {
  if (!part.startsWith('v1,') || part.length === 3) return false;
  const given = Buffer.from(part.slice(3), 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
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
  for (const part of signature.split(' ')) if (matches(part, expected)) return OK;
  return { ok: false, reason: 'mismatch' };
}
