// Node-only (node:crypto): used by the main process and the stand-in, never by the renderer.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_TOLERANCE_SECONDS } from './webhook';

/** Secrets may be given as `whsec_<base64>` (Standard Webhooks) or as plain text. */
export function secretBytes(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` over the raw body bytes. */
export function signWebhook(secret: string, id: string, timestamp: number, body: Buffer | string): string {
  const mac = createHmac('sha256', secretBytes(secret));
  mac.update(`${id}.${timestamp}.`);
  mac.update(body);
  return `v1,${mac.digest('base64')}`;
}

export type SignatureCheck =
  | { ok: true }
  | { ok: false; reason: 'missing-headers' | 'bad-timestamp' | 'stale' | 'mismatch' };

/**
 * Verifies a Standard Webhooks signature header (which may list several space-separated
 * signatures) with a constant-time compare and a ±5 minute window around `nowSeconds`.
 */
export function verifyWebhook(
  secret: string,
  headers: { id?: string; timestamp?: string; signature?: string },
  body: Buffer,
  nowSeconds: number,
  toleranceSeconds = WEBHOOK_TOLERANCE_SECONDS,
): SignatureCheck {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature) return { ok: false, reason: 'missing-headers' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'bad-timestamp' };
  const ts = Number(timestamp);
  if (Math.abs(nowSeconds - ts) > toleranceSeconds) return { ok: false, reason: 'stale' };
  const expected = Buffer.from(signWebhook(secret, id, ts, body).slice(3), 'base64');
  for (const part of signature.split(' ')) {
    const [version, value] = part.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const given = Buffer.from(value, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true };
  }
  return { ok: false, reason: 'mismatch' };
}
