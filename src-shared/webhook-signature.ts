// Node-only (node:crypto): used by the main process and the stand-in, never by the renderer.
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { WEBHOOK_TOLERANCE_SECONDS } from './webhook';

/** Secrets may be given as `whsec_<base64>` (Standard Webhooks) or as plain text. */
export function secretBytes(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
}

/**
 * The last few secrets as keys: making a key of a secret costs about as much as signing a small
 * event, and a listener checks every event against the same one or two secrets.
 */
const keys = new Map<string, KeyObject>();
const KEYS_KEPT = 4;

function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(secretBytes(secret));
    if (keys.size >= KEYS_KEPT) keys.delete(keys.keys().next().value!);
    keys.set(secret, key);
  }
  return key;
}

/** HMAC-SHA256 of "id.timestamp.body" over the raw body bytes. */
function mac(secret: string, id: string, timestamp: number | string, body: Buffer | string): Buffer {
  return createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.`).update(body).digest();
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. */
export function signWebhook(secret: string, id: string, timestamp: number, body: Buffer | string): string {
  return `v1,${mac(secret, id, timestamp, body).toString('base64')}`;
}

/** Equal bytes, compared in a time that does not depend on where they differ. */
export function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export type SignatureCheck = { ok: true } | { ok: false; reason: 'missing-headers' | 'bad-timestamp' | 'stale' | 'mismatch' };

/**
 * Verifies a Standard Webhooks signature header (several space-separated signatures are allowed,
 * for secret rotation) within ±5 minutes of `nowSeconds`. The digest is compared as bytes, so
 * unpadded and URL-safe base64 spellings of the same digest match too.
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
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'bad-timestamp' };
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return { ok: false, reason: 'stale' };
  // The timestamp is signed as the header spells it, as Standard Webhooks defines the content.
  const expected = mac(secret, id, timestamp, body);
  const matches = signature.split(' ').some((part) => part.startsWith('v1,') && sameBytes(Buffer.from(part.slice(3), 'base64'), expected));
  return matches ? { ok: true } : { ok: false, reason: 'mismatch' };
}
