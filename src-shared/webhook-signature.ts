// Node-only (node:crypto): used by the main process and the stand-in, never by the renderer.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_TOLERANCE_SECONDS } from './webhook';

/** Secrets may be given as `whsec_<base64>` (Standard Webhooks) or as plain text. */
export function secretBytes(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
}

// The last secret's key bytes: a listener checks every event against the same secret, so the
// key is decoded once rather than on every request.
let lastSecret: string | undefined;
let lastKey: Buffer = Buffer.alloc(0);
function keyOf(secret: string): Buffer {
  if (secret !== lastSecret) {
    lastKey = secretBytes(secret);
    lastSecret = secret;
  }
  return lastKey;
}

/** The raw HMAC-SHA256 of "id.timestamp.body". */
function mac(secret: string, id: string, timestamp: number | string, body: Buffer | string): Buffer {
  return createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.`).update(body).digest();
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
