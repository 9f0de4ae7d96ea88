import { signWebhook } from '../../src-shared/webhook-signature';

/** The Standard Webhooks headers of a delivery signed with `secret`, at `ts` (seconds; now by default). */
export function signedHeaders(secret: string, id: string, body: string, ts = Math.floor(Date.now() / 1000)): Record<string, string> {
  return { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signWebhook(secret, id, ts, body) };
}

/** A delivery as a service sends one: the event as JSON, posted to `url`, signed with `secret`. */
export function deliverSigned(url: string, secret: string, event: { id: string } & Record<string, unknown>): Promise<Response> {
  const body = JSON.stringify(event);
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...signedHeaders(secret, event.id, body) }, body });
}
