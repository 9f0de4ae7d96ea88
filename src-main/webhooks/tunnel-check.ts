/**
 * The tunnel's self-check: a signed no-op event sent to the tunnel's public URL. The listener
 * recognises it, answers with its id and neither stores, logs nor hands it on, so a check that
 * comes back proves the whole path (program, far end, listener, signature) without a customer
 * event. Plain Node.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { WEBHOOK_HEADERS } from '../../src-shared/webhook';
import { signWebhook } from '../../src-shared/webhook-signature';
import { errorText } from '../../src-shared/error-text';
import { systemClock } from '../clock';

/** Not one of the interface's event groups (§6), so nothing else could mean it. */
export const TUNNEL_CHECK_GROUP = 'console';
export const TUNNEL_CHECK_TYPE = 'console.tunnel-check';

export function isTunnelCheck(body: { group?: string | undefined; type?: string | undefined }): boolean {
  return body.group === TUNNEL_CHECK_GROUP && body.type === TUNNEL_CHECK_TYPE;
}

/** The listener's answer to a check: its id back, so a stray server at the far end cannot pass. */
export function tunnelCheckAnswer(id: string): { status: 'tunnel-check'; id: string } {
  return { status: 'tunnel-check', id };
}

const AnswerSchema = z.object({ status: z.literal('tunnel-check'), id: z.string() }).loose();

/** The listener's answer is a few dozen bytes: anything longer is something else answering. */
const MAX_ANSWER_BYTES = 4096;

/** The body, or null once it passes `max` bytes (the rest is not read). */
async function readSmall(res: Response, max: number): Promise<string | null> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel();
        return null;
      }
      parts.push(value);
    }
  } catch {
    return '';
  }
  return Buffer.concat(parts).toString('utf8');
}

/**
 * Sends one check to `url` (the tunnel's origin plus the listener's path). Resolves null when
 * the listener answered it, else why not, in words for the user.
 */
export async function checkThroughTunnel(url: string, signingSecret: string | undefined, timeoutMs = 5000): Promise<string | null> {
  const id = `tunnel-check_${randomBytes(12).toString('base64url')}`;
  const body = JSON.stringify({
    id,
    group: TUNNEL_CHECK_GROUP,
    type: TUNNEL_CHECK_TYPE,
    occurredAt: new Date(systemClock.now()).toISOString(),
    data: {},
  });
  const ts = Math.floor(systemClock.now() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    [WEBHOOK_HEADERS.id]: id,
    [WEBHOOK_HEADERS.timestamp]: String(ts),
  };
  if (signingSecret) headers[WEBHOOK_HEADERS.signature] = signWebhook(signingSecret, id, ts, body);
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    const cause = e instanceof Error && e.cause instanceof Error ? e.cause.message : errorText(e);
    return `The self-check through the tunnel got no answer (${cause}).`;
  }
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => undefined);
    return `The self-check through the tunnel was answered ${res.status} instead of reaching the listener.`;
  }
  const text = await readSmall(res, MAX_ANSWER_BYTES);
  let answer: unknown = null;
  try {
    answer = text === null ? null : JSON.parse(text);
  } catch {
    // not the listener
  }
  const parsed = AnswerSchema.safeParse(answer);
  if (!parsed.success || parsed.data.id !== id)
    return "Something other than this listener answered the self-check at the tunnel's address.";
  return null;
}
