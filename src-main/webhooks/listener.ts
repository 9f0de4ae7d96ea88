/**
 * The loopback webhook listener. Plain Node (no Electron): the app passes in settings, a state
 * directory and the consumer. It acknowledges an event once its record is written (state.ts)
 * and hands events to `onEvent` one at a time, in order, from a bounded queue.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from '../../src-shared/node-http';
import { FILE_PATH_PREFIX, type FileShare } from './file-share';
import type { AddressInfo } from 'node:net';
import { AppError } from '../../src-shared/errors';
import { checkHead, checkRequest, hostAllowed, type CheckContext, type Rejection, type RequestHead } from './check-request';
import { listenLoopback, readBody, requestFacts, requestHead, send, validPort } from './http';
import { WebhookState } from './state';
import { isTunnelCheck, tunnelCheckAnswer } from './tunnel-check';
import type { EventLogEntry, EventLogFilter, ReceivedEvent, WebhookLogger } from './types';
import { systemClock } from '../clock';

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
  /** Seen-id window bounds. Defaults: 200,000 ids, 24 hours (see seen-window.ts). */
  seenMaxIds?: number;
  seenMaxAgeMs?: number;
  /** Event log size. Default 500 entries. */
  eventLogCapacity?: number;
  /** Files lent to the service, served at their one-time paths (knowledge-base uploads). */
  files?: FileShare;
  /** Journal size that triggers a snapshot. Default 4 MiB. */
  compactBytes?: number;
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

/** A fresh Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

const BUSY = { status: 'busy', message: 'Too many events waiting; retry later.' };
const FAILED = { status: 'error', message: 'The event could not be stored; retry later.' };

export async function startWebhookListener(o: WebhookListenerOptions): Promise<WebhookListener> {
  if (!PATH_SECRET_RE.test(o.pathSecret)) {
    throw new AppError({ kind: 'Invalid', message: 'The webhook path secret must be 8 to 128 letters, digits, "-" or "_".' });
  }
  if (!validPort(o.port)) {
    throw new AppError({ kind: 'Invalid', message: `Port ${o.port} is not a valid port; choose one from 1024 to 65535 in Settings.` });
  }
  const log = o.log ?? silent;
  const now = o.now ?? systemClock.now;
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
  });

  const counts = { accepted: 0, duplicates: 0, rejected: 0, busy: 0 };
  const ctx: CheckContext = { pathSecret: o.pathSecret, port: 0, maxBodyBytes, signingSecret, nowMs: 0, isSeen: (id) => state.isSeen(id) };
  let stopping = false;
  /** The loop handing out events, while it runs. */
  let pumping: Promise<void> | null = null;

  /** Hands out pending events in order, one at a time. */
  const drain = async () => {
    for (let p = state.firstPending(); p && !stopping; p = state.firstPending()) {
      try {
        await o.onEvent(p);
      } catch (e) {
        // Events are hints (sync stays the source of truth): a failing consumer must not block
        // the queue forever, so the event counts as processed.
        log.error('A webhook event handler failed; the event was skipped.', { id: p.id, error: String(e) });
      }
      state.markDone(p.id);
    }
  };
  // Cleared in a microtask after the loop ends, before any further request can be handled.
  const pump = () => void (pumping ??= drain().finally(() => (pumping = null)));

  const refuse = (res: ServerResponse, r: Rejection, close: boolean) => {
    counts.rejected++;
    log.warn('Refused a webhook request.', { status: r.status, reason: r.reason });
    send(res, r.status, { status: 'rejected', reason: r.reason, message: r.message }, close ? { connection: 'close' } : undefined);
  };

  const busy = (res: ServerResponse, extra: Record<string, string> = {}) => {
    counts.rejected++;
    counts.busy++;
    send(res, 503, BUSY, { 'retry-after': String(RETRY_AFTER_SECONDS), ...extra });
  };

  // Events accepted in one turn of the event loop are written together at its end, then answered
  // together. Answered one by one, each answer woke the sender and, on a busy machine, cost the
  // listener the processor (the ingest bench fell to 0.3 of a bare server's rate).
  let turn: Array<{ res: ServerResponse; status: 'accepted' | 'duplicate' }> = [];
  const endTurn = () => {
    const answers = turn;
    turn = [];
    let failed = false;
    try {
      state.flush();
    } catch {
      failed = true;
    }
    for (const { res, status } of answers) {
      if (failed) counts.rejected++;
      else counts[status === 'accepted' ? 'accepted' : 'duplicates']++;
      send(res, failed ? 500 : 200, failed ? FAILED : { status });
    }
    pump();
  };
  const answerAtEndOfTurn = (res: ServerResponse, status: 'accepted' | 'duplicate') => {
    if (turn.push({ res, status }) === 1) setImmediate(endTurn);
  };

  /** Decides on a request whose body is in (or was cut at the limit) and answers it. */
  const decide = (head: RequestHead, headers: IncomingHttpHeaders, body: Buffer | 'too-large', receivedAt: number, res: ServerResponse) => {
    ctx.nowMs = receivedAt;
    const verdict = checkRequest(requestFacts(head, headers, body), ctx);
    if (verdict.outcome === 'reject') return refuse(res, verdict, body === 'too-large');
    // The tunnel's self-check: answered, never stored nor counted as an event.
    if (verdict.outcome !== 'duplicate' && isTunnelCheck(verdict)) return send(res, 200, tunnelCheckAnswer(verdict.id));
    if (verdict.outcome === 'duplicate') {
      // Never acknowledged before the first copy is written.
      if (state.isStaged(verdict.id)) return answerAtEndOfTurn(res, 'duplicate');
      counts.duplicates++;
      return send(res, 200, { status: 'duplicate' });
    }
    if (stopping) return busy(res, { connection: 'close' });
    if (state.queued >= queueLimit) return busy(res);
    const { outcome: _o, status: _s, ...accepted } = verdict;
    state.stage({ ...accepted, receivedAt });
    answerAtEndOfTurn(res, 'accepted');
  };

  /** A file lent to the service (knowledge-base upload): GET or HEAD of its one-time path only. */
  const serveFile = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(res, 405, { status: 'error', message: 'Only GET is accepted here.' }, { allow: 'GET, HEAD' });
    if (!hostAllowed(req.headers.host, ctx))
      return send(res, 421, { status: 'error', message: 'The Host header must name this listener.' });
    // A HEAD reads no bytes: it does not use up one of the file's reads.
    const path = (req.url ?? '').split('?', 1)[0]!;
    const file = (req.method === 'HEAD' ? o.files?.peek(path) : o.files?.take(path)) ?? null;
    if (!file) return send(res, 404, { status: 'error', message: 'Not found.' });
    log.info('A shared file was read.', { bytes: file.bytes.length });
    res.writeHead(200, {
      'content-type': file.type,
      'content-length': String(file.bytes.length),
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      'cache-control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : file.bytes);
  };

  const server = createServer((req, res) => {
    if (o.files && (req.url ?? '').startsWith(FILE_PATH_PREFIX)) return serveFile(req, res);
    const head = requestHead(req);
    const receivedAt = now();
    const answer = (body: Buffer | 'too-large') => {
      try {
        decide(head, req.headers, body, receivedAt, res);
      } catch (e) {
        log.error('The webhook listener failed on a request.', { error: String(e) });
        if (!res.headersSent) send(res, 500, FAILED, { connection: 'close' });
        else res.destroy();
      }
    };
    const early = checkHead(head, ctx);
    // Refused before reading: close the connection rather than read a body we do not want.
    if (early.outcome === 'reject') return refuse(res, early, true);
    readBody(req, maxBodyBytes, answer);
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  try {
    await listenLoopback(server, o.port, 'in Settings');
  } catch (e) {
    await state.close();
    throw e;
  }
  const address = server.address() as AddressInfo;
  ctx.port = address.port;
  const path = `/hooks/${o.pathSecret}`;
  const url = `http://127.0.0.1:${address.port}${path}`;
  if (!signingSecret) log.warn('Webhook signing is off: unsigned events are accepted.', { port: address.port });
  log.info('Webhook listener started.', { port: address.port, replaying: state.queued });
  pump();

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      stopping = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Requests in flight are still sending their bodies; give them a moment, then cut.
      const cut = setTimeout(() => server.closeAllConnections(), 2000);
      await closed;
      clearTimeout(cut);
      if (pumping) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([pumping, new Promise<void>((resolve) => (timer = setTimeout(resolve, closeTimeoutMs)))]);
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
      ctx.publicHost = host?.toLowerCase() ?? undefined;
    },
    close,
  };
}
