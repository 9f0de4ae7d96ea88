/**
 * The loopback webhook listener. Plain Node (no Electron): the app passes in settings, a state
 * directory and the consumer. It acknowledges an event as soon as the event is durable and
 * hands events to `onEvent` one at a time, in order, from a bounded queue.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '../../src-shared/errors';
import { WEBHOOK_HEADERS, WebhookEventSchema } from '../../src-shared/webhook';
import { checkBody, headRejection, type CheckContext, type HeadRules, type Rejection } from './check-request';
import { WebhookState, type CommitWaiter, type PendingEvent } from './state';
import { isTunnelCheck, tunnelCheckAnswer } from './tunnel-check';
import type { EventLogEntry, EventLogFilter, ReceivedEvent, WebhookLogger } from './types';

export interface WebhookListenerOptions {
  /** From settings; 0 picks a free port (tests). */
  port: number;
  /** The listener answers only on /hooks/<pathSecret>; anything else is 404. */
  pathSecret: string;
  /** When absent, unsigned events are accepted and marked so (`signatureMode` says 'off'). */
  signingSecret?: string;
  /** Default 1 MiB, enforced while the body streams in (413). */
  maxBodyBytes?: number;
  /** Accepted events waiting for `onEvent`; beyond it the answer is 503 with Retry-After. Default 1000. */
  queueLimit?: number;
  /** Seen-id window, event log and accepted-but-unprocessed events live here. */
  stateDir: string;
  /** Called in order, one at a time. A throw is logged and the event counts as processed. */
  onEvent(e: ReceivedEvent): void | Promise<void>;
  log?: WebhookLogger;
  /** Milliseconds since the epoch, for tests. */
  now?: () => number;
  /** How long `close` waits for the event being processed. Default 5 s. */
  closeTimeoutMs?: number;
  /** Seen-id window bounds. Defaults: 10,000 ids, 24 hours. */
  seenMaxIds?: number;
  seenMaxAgeMs?: number;
  /** Event log size. Default 500 entries. */
  eventLogCapacity?: number;
  /** Journal size that triggers a snapshot. Default 8 MiB. */
  compactBytes?: number;
  /**
   * 'write' (default): acknowledge once the event is written to the OS (survives any crash of
   * the console; fdatasync within 100 ms). 'fsync': acknowledge only after fdatasync (survives
   * power loss too; each acknowledgement waits for the disk). See state.ts.
   */
  durability?: 'write' | 'fsync';
}

export interface WebhookStats {
  /** New events acknowledged (durable) since start. */
  accepted: number;
  /** Repeats of an accepted id, acknowledged without a second `onEvent`. */
  duplicates: number;
  /** Requests refused (4xx, 5xx), including `busy`. */
  rejected: number;
  /** Refused with 503 because the queue was full. */
  busy: number;
  /** Accepted events not yet processed. */
  queued: number;
}

export interface WebhookListener {
  /** http://127.0.0.1:PORT/hooks/<pathSecret> */
  readonly url: string;
  readonly port: number;
  /** The address the socket is bound to: always 127.0.0.1. */
  readonly host: string;
  /** /hooks/<pathSecret>: append to a tunnel's public URL to get the address for the service. */
  readonly path: string;
  /** 'off' means unsigned events are accepted: show a warning. */
  readonly signatureMode: 'required' | 'off';
  eventLog(filter?: EventLogFilter): EventLogEntry[];
  stats(): WebhookStats;
  /** Also accept this Host (a tunnel's public host:port that cannot rewrite Host); null forgets it. */
  allowHost(host: string | null): void;
  /**
   * Stops taking requests, lets the event being processed finish (up to closeTimeoutMs) and
   * writes the state. Accepted events not yet processed stay on disk and replay on next start.
   */
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 1024 * 1024;
const DEFAULT_QUEUE_LIMIT = 1000;
const RETRY_AFTER_SECONDS = 2;
const PATH_SECRET_RE = /^[A-Za-z0-9_-]{8,128}$/;

const silent: WebhookLogger = { info() {}, warn() {}, error() {} };

/** A fresh path secret for settings: 32 URL-safe characters. */
export function newPathSecret(): string {
  return randomBytes(24).toString('base64url');
}

const jsonBody = (o: object) => Buffer.from(JSON.stringify(o));
const ACCEPTED = jsonBody({ status: 'accepted' });
const DUPLICATE = jsonBody({ status: 'duplicate' });
const BUSY = jsonBody({ status: 'busy', message: 'Too many events waiting; retry later.' });
const FAILED = jsonBody({ status: 'error', message: 'The event could not be stored; retry later.' });

function send(res: ServerResponse, status: number, body: Buffer, extra?: Record<string, string>): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(body.length), ...extra });
  res.end(body);
}

const ACCEPTED_HEADERS = { 'content-type': 'application/json', 'content-length': String(ACCEPTED.length) };

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(', ') : v;
}

/** The per-request record of a body being read; kept on the request so the handlers are shared. */
const kIngest = Symbol('webhook-ingest');
interface IngestRequest extends IncomingMessage {
  [kIngest]?: Ingest;
}
interface Ingest extends CommitWaiter {
  received(chunk: Buffer): void;
  ended(): void;
}

// Shared by every request: no closures made per request.
function onData(this: IngestRequest, chunk: Buffer): void {
  this[kIngest]!.received(chunk);
}
function onEnd(this: IngestRequest): void {
  this[kIngest]!.ended();
}

function toReceived(p: PendingEvent): ReceivedEvent {
  const r: ReceivedEvent = { id: p.id, receivedAt: p.receivedAt, signature: p.signature, known: p.known, raw: p.raw };
  let event = p.event;
  if (!event) {
    // Replayed from disk: parse again (the raw body is what was received).
    try {
      const parsed = WebhookEventSchema.safeParse(JSON.parse(p.raw));
      if (parsed.success) event = parsed.data;
    } catch {
      event = undefined;
    }
  }
  if (event) r.event = event;
  return r;
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (e.code === 'EADDRINUSE') {
        reject(new AppError({ kind: 'Unavailable', message: `Port ${port} is in use by another program; choose another in Settings.` }, { cause: e }));
      } else if (e.code === 'EACCES') {
        reject(new AppError({ kind: 'Unavailable', message: `Port ${port} needs administrator rights; choose a port above 1024 in Settings.` }, { cause: e }));
      } else {
        reject(new AppError({ kind: 'Unavailable', message: `The webhook listener could not start on port ${port} (${e.code ?? e.message}).` }, { cause: e }));
      }
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    // Loopback only: the tunnel is the one way in from outside.
    server.listen({ host: '127.0.0.1', port, exclusive: true });
  });
}

export async function startWebhookListener(o: WebhookListenerOptions): Promise<WebhookListener> {
  if (!PATH_SECRET_RE.test(o.pathSecret)) {
    throw new AppError({ kind: 'Invalid', message: 'The webhook path secret must be 8 to 128 letters, digits, "-" or "_".' });
  }
  if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535) {
    throw new AppError({ kind: 'Invalid', message: `Port ${o.port} is not a valid port; choose one from 1024 to 65535 in Settings.` });
  }
  const log = o.log ?? silent;
  const now = o.now ?? Date.now;
  const maxBodyBytes = o.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const queueLimit = o.queueLimit ?? DEFAULT_QUEUE_LIMIT;
  const closeTimeoutMs = o.closeTimeoutMs ?? 5000;
  const signingSecret = o.signingSecret || undefined;

  const state = await WebhookState.open({
    dir: o.stateDir,
    now,
    log,
    seenMaxIds: o.seenMaxIds,
    seenMaxAgeMs: o.seenMaxAgeMs,
    logCapacity: o.eventLogCapacity,
    compactBytes: o.compactBytes,
    durability: o.durability,
  });

  const counts = { accepted: 0, duplicates: 0, rejected: 0, busy: 0 };
  const rules: HeadRules = { pathSecret: o.pathSecret, port: 0, maxBodyBytes };
  // One context for every request (checkRequest is synchronous): only the time changes.
  const checkContext: CheckContext = { ...rules, signingSecret, nowMs: 0, isSeen: (id) => state.isSeen(id) };
  let stopping = false;
  let pumping = false;
  let current: Promise<void> | null = null;

  // Events are hints (sync stays the source of truth): a failing consumer must not block the
  // queue forever, so a throw is logged and the event counts as processed.
  const handlerFailed = (id: string, e: unknown) =>
    log.error('A webhook event handler failed; the event was skipped.', { id, error: String(e) });

  // Synchronous while the handler is: only an asynchronous handler costs a turn of the event loop.
  const pump = (): void => {
    if (pumping) return;
    pumping = true;
    for (let p = state.firstPending(); p && !stopping; p = state.firstPending()) {
      const id = p.id;
      let result: void | Promise<void> = undefined;
      try {
        result = o.onEvent(toReceived(p));
      } catch (e) {
        handlerFailed(id, e);
      }
      if (result && typeof result.then === 'function') {
        current = Promise.resolve(result)
          .catch((e: unknown) => handlerFailed(id, e))
          .then(() => {
            current = null;
            state.markDone(id);
            pumping = false;
            pump();
          });
        return;
      }
      state.markDone(id);
    }
    pumping = false;
  };

  const refuse = (res: ServerResponse, r: Rejection, close: boolean) => {
    counts.rejected++;
    log.warn('Refused a webhook request.', { status: r.status, reason: r.reason });
    send(res, r.status, jsonBody({ status: 'rejected', reason: r.reason, message: r.message }), close ? { connection: 'close' } : undefined);
  };

  const failed = (res: ServerResponse, e: unknown) => {
    log.error('The webhook listener failed on a request.', { error: String(e) });
    if (!res.headersSent) send(res, 500, FAILED, { connection: 'close' });
    else res.destroy();
  };

  const duplicate = async (res: ServerResponse, id: string): Promise<void> => {
    try {
      // Never acknowledge a repeat before the first copy is on disk.
      await state.whenDurable(id);
    } catch {
      counts.rejected++;
      return send(res, 500, FAILED);
    }
    counts.duplicates++;
    send(res, 200, DUPLICATE);
  };

  /** One request from the end of its head to its answer, without promises on the way. */
  class Request implements Ingest {
    private first: Buffer | undefined;
    private more: Buffer[] | undefined;
    private size = 0;

    constructor(
      private readonly req: IngestRequest,
      private readonly res: ServerResponse,
      private readonly receivedAt: number,
    ) {}

    received(chunk: Buffer): void {
      this.size += chunk.length;
      if (this.size > maxBodyBytes) {
        const req = this.req;
        req.off('data', onData);
        req.off('end', onEnd);
        // Stop consuming: the socket stops being read once the small internal buffer fills.
        req.pause();
        try {
          this.decide('too-large');
        } catch (e) {
          failed(this.res, e);
        }
        return;
      }
      if (this.first === undefined) this.first = chunk;
      else (this.more ??= [this.first]).push(chunk);
    }

    ended(): void {
      try {
        const body = this.more ? Buffer.concat(this.more, this.size) : (this.first ?? Buffer.alloc(0));
        this.decide(body);
      } catch (e) {
        failed(this.res, e);
      }
    }

    private decide(body: Buffer | 'too-large'): void {
      const res = this.res;
      const h = this.req.headers;
      checkContext.nowMs = this.receivedAt;
      const verdict = checkBody(
        body,
        header(h[WEBHOOK_HEADERS.id]),
        header(h[WEBHOOK_HEADERS.timestamp]),
        header(h[WEBHOOK_HEADERS.signature]),
        checkContext,
      );
      if (verdict.outcome === 'reject') return refuse(res, verdict, body === 'too-large');
      if (verdict.outcome === 'duplicate') {
        duplicate(res, verdict.id).catch((e: unknown) => failed(res, e));
        return;
      }
      // The tunnel's self-check: answered, never stored nor counted as an event.
      if (isTunnelCheck(verdict)) return send(res, 200, tunnelCheckAnswer(verdict.id));
      if (stopping) {
        counts.rejected++;
        counts.busy++;
        return send(res, 503, BUSY, { 'retry-after': String(RETRY_AFTER_SECONDS), connection: 'close' });
      }
      if (state.queued >= queueLimit) {
        counts.rejected++;
        counts.busy++;
        return send(res, 503, BUSY, { 'retry-after': String(RETRY_AFTER_SECONDS) });
      }
      const pendingEvent: PendingEvent = {
        id: verdict.id,
        receivedAt: this.receivedAt,
        signature: verdict.signature,
        known: verdict.known,
        raw: verdict.raw,
        // Journaled as received, never re-encoded.
        body: body === 'too-large' ? undefined : body,
      };
      if (verdict.event) pendingEvent.event = verdict.event;
      if (verdict.group !== undefined) pendingEvent.group = verdict.group;
      if (verdict.type !== undefined) pendingEvent.type = verdict.type;
      if (verdict.occurredAt !== undefined) pendingEvent.occurredAt = verdict.occurredAt;
      state.commit(pendingEvent, this);
    }

    /** Called by the state once the event is durable (or could not be stored). */
    committed(error?: unknown): void {
      const res = this.res;
      if (error !== undefined) {
        counts.rejected++;
        return send(res, 500, FAILED);
      }
      counts.accepted++;
      res.writeHead(200, ACCEPTED_HEADERS);
      res.end(ACCEPTED);
      if (!pumping) pump();
    }
  }

  const server = createServer((req: IngestRequest, res) => {
    try {
      const h = req.headers;
      const early = headRejection(req.method, req.url, h.host, h['content-type'], h['content-length'], rules);
      // Refused before reading: close the connection rather than read a body we do not want.
      if (early) return refuse(res, early, true);
      req[kIngest] = new Request(req, res, now());
      req.on('data', onData);
      req.on('end', onEnd);
    } catch (e) {
      failed(res, e);
    }
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  try {
    await listen(server, o.port);
  } catch (e) {
    await state.close();
    throw e;
  }
  const address = server.address() as AddressInfo;
  rules.port = address.port;
  checkContext.port = address.port;
  const path = `/hooks/${o.pathSecret}`;
  const url = `http://127.0.0.1:${address.port}${path}`;
  if (!signingSecret) log.warn('Webhook signing is off: unsigned events are accepted.', { port: address.port });
  log.info('Webhook listener started.', { port: address.port, replaying: state.queued });
  void pump();

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      stopping = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Requests in flight are waiting for a disk write; give them a moment, then cut.
      const cut = setTimeout(() => server.closeAllConnections(), 2000);
      await closed;
      clearTimeout(cut);
      if (current) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([current, new Promise<void>((resolve) => (timer = setTimeout(resolve, closeTimeoutMs)))]);
        clearTimeout(timer);
      }
      await state.close();
      log.info('Webhook listener stopped.', { unprocessed: state.queued });
    })();
    return closing;
  };

  return {
    url,
    port: address.port,
    host: address.address,
    path,
    signatureMode: signingSecret ? 'required' : 'off',
    eventLog: (filter) => state.eventLog(filter),
    stats: () => ({ ...counts, queued: state.queued }),
    allowHost(host) {
      rules.publicHost = host?.toLowerCase() ?? undefined;
      checkContext.publicHost = rules.publicHost;
    },
    close,
  };
}
