/**
 * The request rules of the webhook listener as pure functions, apart from the server so that
 * every rule can be unit-tested without sockets. `checkHead` runs before the body is read (so a
 * wrong path or an announced oversize body is refused without reading it); `checkRequest` runs
 * the whole chain once the body is in.
 */
import { createHash } from 'node:crypto';
import { WEBHOOK_GROUPS, WEBHOOK_HEADERS, WebhookEventSchema } from '../../src-shared/webhook';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src-shared/json-depth';
import { sameBytes, verifyWebhook } from '../../src-shared/webhook-signature';
import type { ReceivedEvent, SignatureState } from './types';

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

export interface CheckContext {
  pathSecret: string;
  /** The port the listener is bound to: the Host header must name it. */
  port: number;
  maxBodyBytes: number;
  /** A tunnel that cannot rewrite Host (ssh) forwards with its own host: allowed too (lower case). */
  publicHost?: string | undefined;
  signingSecret?: string | undefined;
  nowMs: number;
  /** Whether this idempotency key was already accepted. */
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
  | 'not-json'
  | 'too-deep';

export interface Rejection {
  outcome: 'reject';
  status: 400 | 401 | 404 | 405 | 413 | 415 | 421;
  reason: RejectReason;
  /** Short text for the sender and the log; never echoes the body. */
  message: string;
}

/** What a body says besides its text. */
export type BodyFacts = Pick<ReceivedEvent, 'known' | 'event' | 'group' | 'type' | 'occurredAt'>;

export type Acceptance = { outcome: 'accept'; status: 200 } & Omit<ReceivedEvent, 'receivedAt'>;

export type Verdict = Rejection | { outcome: 'duplicate'; status: 200; id: string } | Acceptance;

export const MAX_ID_LENGTH = 200;

const reject = (status: Rejection['status'], reason: RejectReason, message: string): Rejection => ({
  outcome: 'reject',
  status,
  reason,
  message,
});

function isJsonMediaType(contentType: string | undefined): boolean {
  const media = contentType?.split(';', 1)[0]!.trim().toLowerCase() ?? '';
  return media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'));
}

/**
 * A tunnel forwards with the Host rewritten to the loopback address; any other Host means the
 * request came through something else (for example a browser page after DNS rebinding).
 */
export function hostAllowed(hostHeader: string | undefined, rules: Pick<CheckContext, 'port' | 'publicHost'>): boolean {
  const host = (hostHeader ?? '').toLowerCase();
  return host === `127.0.0.1:${rules.port}` || host === `localhost:${rules.port}` || host === rules.publicHost;
}

/** Rules decidable from the request line and headers alone. */
export function checkHead(head: RequestHead, rules: Omit<CheckContext, 'nowMs' | 'isSeen'>): Rejection | { outcome: 'read-body' } {
  const path = (head.url ?? '').split('?', 1)[0]!;
  // Constant time for a path of the right length, so the time taken says nothing about the secret.
  if (!sameBytes(Buffer.from(path), Buffer.from(`/hooks/${rules.pathSecret}`))) return reject(404, 'not-found', 'Not found.');
  if (head.method !== 'POST') return reject(405, 'method', 'Only POST is accepted here.');
  if (!hostAllowed(head.host, rules))
    return reject(421, 'host', 'The Host header must name this listener; run the tunnel with its host-header option.');
  if (!isJsonMediaType(head.contentType)) return reject(415, 'content-type', 'The body must be application/json.');
  if (head.contentLength !== undefined) {
    if (!/^\d{1,15}$/.test(head.contentLength)) return reject(400, 'bad-length', 'Content-Length is not a number.');
    if (Number(head.contentLength) > rules.maxBodyBytes) return tooLarge(rules);
  }
  return { outcome: 'read-body' };
}

const tooLarge = (rules: { maxBodyBytes: number }) => reject(413, 'too-large', `The body is larger than ${rules.maxBodyBytes} bytes.`);

const SIGNATURE_REFUSALS = {
  'missing-headers': reject(401, 'missing-signature', `Signed events are required: send ${Object.values(WEBHOOK_HEADERS).join(', ')}.`),
  'bad-timestamp': reject(401, 'bad-timestamp', 'The webhook-timestamp header is not a Unix time in seconds.'),
  stale: reject(401, 'stale-signature', 'The webhook-timestamp is more than 5 minutes away from now.'),
  mismatch: reject(401, 'bad-signature', 'The signature does not match the body.'),
} as const;

const KNOWN_GROUPS: ReadonlySet<string> = new Set(WEBHOOK_GROUPS);
const sha256 = (data: Buffer | string) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

/**
 * What a parsed body says: its envelope when it is one (an unknown group or type is still an
 * envelope, kept with known=false), else any group, type and occurredAt strings it names.
 */
export function describeBody(json: unknown): BodyFacts {
  const parsed = WebhookEventSchema.safeParse(json);
  if (parsed.success) {
    const event = parsed.data;
    return { known: KNOWN_GROUPS.has(event.group), event, group: event.group, type: event.type, occurredAt: event.occurredAt };
  }
  const facts: BodyFacts = { known: false };
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
    const o = json as Record<string, unknown>;
    for (const key of ['group', 'type', 'occurredAt'] as const) if (typeof o[key] === 'string') facts[key] = o[key];
  }
  return facts;
}

/**
 * The whole chain: head rules, size, signature over the raw bytes, JSON, envelope, duplicate.
 * Unknown shapes and unknown groups are accepted (known=false): the event log keeps them.
 */
export function checkRequest(req: RequestFacts, ctx: CheckContext): Verdict {
  const head = checkHead(req, ctx);
  if (head.outcome === 'reject') return head;
  const body = req.body;
  if (body === 'too-large' || body.length > ctx.maxBodyBytes) return tooLarge(ctx);

  let signature: SignatureState = 'unsigned';
  if (ctx.signingSecret) {
    const headers = { id: req.webhookId, timestamp: req.webhookTimestamp, signature: req.webhookSignature };
    const check = verifyWebhook(ctx.signingSecret, headers, body, Math.floor(ctx.nowMs / 1000));
    if (!check.ok) return SIGNATURE_REFUSALS[check.reason];
    signature = 'valid';
  }

  // Measured before parsing: a body nested thousands of levels deep holds the thread for seconds.
  if (nestsDeeperThan(body)) return reject(400, 'too-deep', `The body is nested more than ${MAX_JSON_DEPTH} levels deep.`);
  const raw = body.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return reject(400, 'not-json', 'The body is not valid JSON.');
  }
  const facts = describeBody(json);
  // The idempotency key: the webhook-id header, else the body's id, else the body's hash.
  const bodyId = (json as { id?: unknown } | null)?.id;
  const named = req.webhookId || (typeof bodyId === 'string' ? bodyId : undefined);
  const id = !named ? sha256(body) : named.length > MAX_ID_LENGTH ? sha256(named) : named;
  if (ctx.isSeen(id)) return { outcome: 'duplicate', status: 200, id };
  return { outcome: 'accept', status: 200, id, signature, raw, ...facts };
}
