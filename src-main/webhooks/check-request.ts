/**
 * The request rules of the webhook listener as pure functions, apart from the server so that
 * every rule can be unit-tested without sockets. `checkHead` runs before the body is read (so a
 * wrong path or an announced oversize body is refused without reading it); `checkRequest` runs
 * the whole chain once the body is in.
 */
import { createHash } from 'node:crypto';
import { WEBHOOK_GROUPS, WEBHOOK_HEADERS, WebhookEventSchema, type WebhookEvent } from '../../src-shared/webhook';
import { sameText, verifyWebhook } from '../../src-shared/webhook-signature';
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
  /** A tunnel that cannot rewrite Host (ssh) forwards with its own host: allowed too (lower case). */
  publicHost?: string | undefined;
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

function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  // The common case first; anything else takes the general parse.
  if (contentType === 'application/json') return true;
  const media = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'));
}

/** Strings derived from the rules, built once per rules object rather than on every request. */
interface Derived {
  pathSecret: string;
  port: number;
  path: string;
  hostIp: string;
  hostName: string;
}
const derivedOf = new WeakMap<HeadRules, Derived>();
function derive(rules: HeadRules): Derived {
  let d = derivedOf.get(rules);
  // The listener learns its port after binding, so the cache follows the rules' current values.
  if (!d || d.pathSecret !== rules.pathSecret || d.port !== rules.port) {
    d = {
      pathSecret: rules.pathSecret,
      port: rules.port,
      path: `/hooks/${rules.pathSecret}`,
      hostIp: `127.0.0.1:${rules.port}`,
      hostName: `localhost:${rules.port}`,
    };
    derivedOf.set(rules, d);
  }
  return d;
}

const READ_BODY = Object.freeze({ outcome: 'read-body' as const });
const DIGITS_RE = /^\d{1,15}$/;

/** Rules decidable from the request line and headers alone. */
export function checkHead(head: RequestHead, rules: HeadRules): Rejection | { outcome: 'read-body' } {
  return headRejection(head.method, head.url, head.host, head.contentType, head.contentLength, rules) ?? READ_BODY;
}

/** `checkHead` on separate fields (no head object per request); undefined means read the body. */
export function headRejection(
  method: string | undefined,
  url: string | undefined,
  hostHeader: string | undefined,
  contentType: string | undefined,
  contentLength: string | undefined,
  rules: HeadRules,
): Rejection | undefined {
  const d = derive(rules);
  const target = url ?? '';
  const q = target.indexOf('?');
  // Constant time for a path of the right length, so the time taken says nothing about the secret.
  if (!sameText(q < 0 ? target : target.slice(0, q), d.path)) return reject(404, 'not-found', 'Not found.');
  if (method !== 'POST') return reject(405, 'method', 'Only POST is accepted here.');
  // A tunnel forwards with the Host rewritten to the loopback address; any other Host means the
  // request came through something else (for example a browser page after DNS rebinding).
  if (hostHeader !== d.hostIp) {
    const host = (hostHeader ?? '').toLowerCase();
    if (host !== d.hostIp && host !== d.hostName && host !== rules.publicHost) {
      return reject(421, 'host', 'The Host header must name this listener; run the tunnel with its host-header option.');
    }
  }
  if (!isJsonMediaType(contentType)) return reject(415, 'content-type', 'The body must be application/json.');
  if (contentLength !== undefined) {
    if (!DIGITS_RE.test(contentLength)) return reject(400, 'bad-length', 'Content-Length is not a number.');
    if (Number(contentLength) > rules.maxBodyBytes) {
      return reject(413, 'too-large', `The body is larger than ${rules.maxBodyBytes} bytes.`);
    }
  }
  return undefined;
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
  return checkBody(req.body, req.webhookId, req.webhookTimestamp, req.webhookSignature, ctx);
}

const KNOWN_GROUPS: ReadonlySet<string> = new Set(WEBHOOK_GROUPS);

/**
 * The envelope as `WebhookEventSchema` defines it (id a non-empty string; group, type and
 * occurredAt strings; data present, any value; other keys kept), checked by hand because it runs
 * for every event. Anything this does not recognise goes to the schema itself, so the schema stays
 * the one definition and this is only a shortcut for its common case.
 */
function envelopeOf(json: unknown): WebhookEvent | undefined {
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
    const o = json as Record<string, unknown>;
    const id = o.id;
    if (
      typeof id === 'string' &&
      id.length > 0 &&
      typeof o.group === 'string' &&
      typeof o.type === 'string' &&
      typeof o.occurredAt === 'string' &&
      o.data !== undefined &&
      Object.getPrototypeOf(o) === Object.prototype &&
      !Object.hasOwn(o, '__proto__')
    ) {
      return o as WebhookEvent;
    }
  }
  const parsed = WebhookEventSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/** `checkRequest` after the head rules passed: size, signature, JSON, envelope, duplicate. */
export function checkBody(
  body: Buffer | 'too-large',
  webhookId: string | undefined,
  webhookTimestamp: string | undefined,
  webhookSignature: string | undefined,
  ctx: CheckContext,
): Verdict {
  if (body === 'too-large' || body.length > ctx.maxBodyBytes) {
    return reject(413, 'too-large', `The body is larger than ${ctx.maxBodyBytes} bytes.`);
  }

  let signature: SignatureState = 'unsigned';
  if (ctx.signingSecret) {
    const check = verifyWebhook(
      ctx.signingSecret,
      { id: webhookId, timestamp: webhookTimestamp, signature: webhookSignature },
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

  const verdict: Acceptance = { outcome: 'accept', status: 200, id: '', signature, known: false, raw };
  const event = describeBody(json, verdict);
  const id = keyOf(webhookId || event?.id || stringField(json, 'id'), body);
  if (ctx.isSeen(id)) return { outcome: 'duplicate', status: 200, id };
  verdict.id = id;
  return verdict;
}

/** What the event log shows of a body besides its text. */
export interface BodyFacts {
  /** Matched the envelope and one of the groups the interface names. */
  known: boolean;
  event?: WebhookEvent;
  group?: string;
  type?: string;
  occurredAt?: string;
}

/**
 * Fills `into` with what a parsed body says: its envelope when it is one, else any group, type
 * and occurredAt strings it names. Returns the envelope. Into an object the caller already has,
 * because this runs for every event.
 */
export function describeBody(json: unknown, into: BodyFacts): WebhookEvent | undefined {
  const event = envelopeOf(json);
  into.known = event !== undefined && KNOWN_GROUPS.has(event.group);
  if (event) {
    into.event = event;
    into.group = event.group;
    into.type = event.type;
    into.occurredAt = event.occurredAt;
    return event;
  }
  const group = stringField(json, 'group');
  const type = stringField(json, 'type');
  const occurredAt = stringField(json, 'occurredAt');
  if (group !== undefined) into.group = group;
  if (type !== undefined) into.type = type;
  if (occurredAt !== undefined) into.occurredAt = occurredAt;
  return undefined;
}
