/**
 * The request rules of the webhook listener as pure functions, apart from the server so that
 * every rule can be unit-tested without sockets. `checkHead` runs before the body is read (so a
 * wrong path or an announced oversize body is refused without reading it); `checkRequest` runs
 * the whole chain once the body is in.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_GROUPS, WEBHOOK_HEADERS, WebhookEventSchema, type WebhookEvent } from '../../src-shared/webhook';
import { verifyWebhook } from '../../src-shared/webhook-signature';
import type { SignatureState } from './types';

export interface RequestHead {
  method: string | undefined;
  /** Request target as sent (path and query). */
  url: string | undefined;
  host: string | undefined;
  contentType: string | undefined;
  contentLength: string | undefined;
}

export interface RequestFacts extends RequestHead {
  /** The raw body, or 'too-large' when reading stopped at the limit. */
  body: Buffer | 'too-large';
  webhookId: string | undefined;
  webhookTimestamp: string | undefined;
  webhookSignature: string | undefined;
}

export interface HeadRules {
  pathSecret: string;
  /** The port the listener is bound to: the Host header must name it. */
  port: number;
  maxBodyBytes: number;
}

export interface CheckContext extends HeadRules {
  signingSecret?: string | undefined;
  nowMs: number;
  /** Whether this idempotency key was already accepted (or is being accepted). */
  isSeen(id: string): boolean;
}

export type RejectReason =
  | 'not-found'
  | 'method'
  | 'host'
  | 'content-type'
  | 'bad-length'
  | 'too-large'
  | 'missing-signature'
  | 'bad-timestamp'
  | 'stale-signature'
  | 'bad-signature'
  | 'not-json';

export interface Rejection {
  outcome: 'reject';
  status: 400 | 401 | 404 | 405 | 413 | 415 | 421;
  reason: RejectReason;
  /** Short text for the sender and the log; never echoes the body. */
  message: string;
}

export interface Duplicate {
  outcome: 'duplicate';
  status: 200;
  id: string;
}

export interface Acceptance {
  outcome: 'accept';
  status: 200;
  id: string;
  signature: SignatureState;
  known: boolean;
  event?: WebhookEvent;
  /** Group and type when the body names them as strings, even if it is not the envelope. */
  group?: string;
  type?: string;
  occurredAt?: string;
  raw: string;
}

export type Verdict = Rejection | Duplicate | Acceptance;

export const MAX_ID_LENGTH = 200;

const reject = (status: Rejection['status'], reason: RejectReason, message: string): Rejection => ({
  outcome: 'reject',
  status,
  reason,
  message,
});

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** Constant time for a path of the right length, so the time taken says nothing about the secret. */
function samePath(given: string, expected: string): boolean {
  if (given.length !== expected.length) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const media = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'));
}

/** Rules decidable from the request line and headers alone. */
export function checkHead(head: RequestHead, rules: HeadRules): Rejection | { outcome: 'read-body' } {
  const path = (head.url ?? '').split('?', 1)[0]!;
  if (!samePath(path, `/hooks/${rules.pathSecret}`)) return reject(404, 'not-found', 'Not found.');
  if (head.method !== 'POST') return reject(405, 'method', 'Only POST is accepted here.');
  // A tunnel forwards with the Host rewritten to the loopback address; any other Host means the
  // request came through something else (for example a browser page after DNS rebinding).
  const host = (head.host ?? '').toLowerCase();
  if (host !== `127.0.0.1:${rules.port}` && host !== `localhost:${rules.port}`) {
    return reject(421, 'host', 'The Host header must name this listener; run the tunnel with its host-header option.');
  }
  if (!isJsonMediaType(head.contentType)) return reject(415, 'content-type', 'The body must be application/json.');
  if (head.contentLength !== undefined) {
    if (!/^\d{1,15}$/.test(head.contentLength)) return reject(400, 'bad-length', 'Content-Length is not a number.');
    if (Number(head.contentLength) > rules.maxBodyBytes) {
      return reject(413, 'too-large', `The body is larger than ${rules.maxBodyBytes} bytes.`);
    }
  }
  return { outcome: 'read-body' };
}

const stringField = (o: unknown, key: string): string | undefined => {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return undefined;
  const v = (o as Record<string, unknown>)[key];
  return typeof v === 'string' ? v : undefined;
};

/** A usable idempotency key, hashed when absurdly long so the seen window stays small. */
function keyOf(candidate: string | undefined, raw: Buffer): string {
  if (!candidate) return `sha256:${createHash('sha256').update(raw).digest('hex')}`;
  return candidate.length > MAX_ID_LENGTH ? `sha256:${digest(candidate).toString('hex')}` : candidate;
}

/**
 * The whole chain: head rules, size, signature over the raw bytes, JSON, envelope, duplicate.
 * Unknown shapes and unknown groups are accepted (known=false): the event log keeps them.
 */
export function checkRequest(req: RequestFacts, ctx: CheckContext): Verdict {
  const head = checkHead(req, ctx);
  if (head.outcome === 'reject') return head;
  if (req.body === 'too-large' || req.body.length > ctx.maxBodyBytes) {
    return reject(413, 'too-large', `The body is larger than ${ctx.maxBodyBytes} bytes.`);
  }
  const body = req.body;

  let signature: SignatureState = 'unsigned';
  if (ctx.signingSecret) {
    const check = verifyWebhook(
      ctx.signingSecret,
      { id: req.webhookId, timestamp: req.webhookTimestamp, signature: req.webhookSignature },
      body,
      Math.floor(ctx.nowMs / 1000),
    );
    if (!check.ok) {
      switch (check.reason) {
        case 'missing-headers':
          return reject(401, 'missing-signature', `Signed events are required: send ${Object.values(WEBHOOK_HEADERS).join(', ')}.`);
        case 'bad-timestamp':
          return reject(401, 'bad-timestamp', 'The webhook-timestamp header is not a Unix time in seconds.');
        case 'stale':
          return reject(401, 'stale-signature', 'The webhook-timestamp is more than 5 minutes away from now.');
        case 'mismatch':
          return reject(401, 'bad-signature', 'The signature does not match the body.');
      }
    }
    signature = 'valid';
  }

  const raw = body.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return reject(400, 'not-json', 'The body is not valid JSON.');
  }

  const parsed = WebhookEventSchema.safeParse(json);
  const event = parsed.success ? parsed.data : undefined;
  const known = event !== undefined && (WEBHOOK_GROUPS as readonly string[]).includes(event.group);
  const id = keyOf(req.webhookId || event?.id || stringField(json, 'id'), body);
  if (ctx.isSeen(id)) return { outcome: 'duplicate', status: 200, id };

  const verdict: Acceptance = { outcome: 'accept', status: 200, id, signature, known, raw };
  if (event) verdict.event = event;
  const group = event?.group ?? stringField(json, 'group');
  const type = event?.type ?? stringField(json, 'type');
  const occurredAt = event?.occurredAt ?? stringField(json, 'occurredAt');
  if (group !== undefined) verdict.group = group;
  if (type !== undefined) verdict.type = type;
  if (occurredAt !== undefined) verdict.occurredAt = occurredAt;
  return verdict;
}
