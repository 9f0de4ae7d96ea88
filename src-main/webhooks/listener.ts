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
  const state = await WebhookState.open({
    dir: o.stateDir,
    now,
    log,
    seenMaxIds: o.seenMaxIds,
    seenMaxAgeMs: o.seenMaxAgeMs,
    logCapacity: o.eventLogCapacity,
    compactBytes: o.compactBytes,
  });
  const listener = new Listener(o, state, log, now);
  await listener.listen(o.port);
  return listener;
}

/** A file lent to the service (knowledge-base upload): GET or HEAD of its one-time path only. */
function serveFile(req: IncomingMessage, res: ServerResponse, files: FileShare | undefined, ctx: CheckContext, log: WebhookLogger): void {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return send(res, 405, { status: 'error', message: 'Only GET is accepted here.' }, { allow: 'GET, HEAD' });
  if (!hostAllowed(req.headers.host, ctx)) return send(res, 421, { status: 'error', message: 'The Host header must name this listener.' });
  // A HEAD reads no bytes: it does not use up one of the file's reads.
  const path = (req.url ?? '').split('?', 1)[0]!;
  const file = (req.method === 'HEAD' ? files?.peek(path) : files?.take(path)) ?? null;
  if (!file) return send(res, 404, { status: 'error', message: 'Not found.' });
  log.info('A shared file was read.', { bytes: file.bytes.length });
  res.writeHead(200, {
    'content-type': file.type,
    'content-length': String(file.bytes.length),
    'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    'cache-control': 'no-store',
  });
  res.end(req.method === 'HEAD' ? undefined : file.bytes);
}

/** One run of the listener: its server, its state on disk and the loop handing out events. */
class Listener implements WebhookListener {
  readonly #o: WebhookListenerOptions;
  readonly #state: WebhookState;
  readonly #log: WebhookLogger;
  readonly #now: () => number;
  readonly #maxBodyBytes: number;
  readonly #queueLimit: number;
  readonly #signingSecret: string | undefined;
  readonly #counts = { accepted: 0, duplicates: 0, rejected: 0, busy: 0 };
  readonly #ctx: CheckContext;
  readonly #server: ReturnType<typeof createServer>;
  #stopping = false;
  /** The loop handing out events, while it runs. */
  #pumping: Promise<void> | null = null;
  // Events accepted in one turn of the event loop are written together at its end, then answered
  // together. Answered one by one, each answer woke the sender and, on a busy machine, cost the
  // listener the processor (the ingest bench fell to 0.3 of a bare server's rate).
  #turn: Array<{ res: ServerResponse; status: 'accepted' | 'duplicate' }> = [];
  #closing: Promise<void> | null = null;
  url = '';
  port = 0;
  host = '';
  readonly path: string;
  readonly signatureMode: 'required' | 'off';

  constructor(o: WebhookListenerOptions, state: WebhookState, log: WebhookLogger, now: () => number) {
    this.#o = o;
    this.#state = state;
    this.#log = log;
    this.#now = now;
    this.#maxBodyBytes = o.maxBodyBytes ?? DEFAULT_MAX_BODY;
    this.#queueLimit = o.queueLimit ?? DEFAULT_QUEUE_LIMIT;
    this.#signingSecret = o.signingSecret || undefined;
    this.signatureMode = this.#signingSecret ? 'required' : 'off';
    this.path = `/hooks/${o.pathSecret}`;
    this.#ctx = {
      pathSecret: o.pathSecret,
      port: 0,
      maxBodyBytes: this.#maxBodyBytes,
      signingSecret: this.#signingSecret,
      nowMs: 0,
      isSeen: (id) => state.isSeen(id),
    };
    this.#server = createServer((req, res) => this.#request(req, res));
    this.#server.headersTimeout = 10_000;
    this.#server.requestTimeout = 30_000;
  }

  async listen(port: number): Promise<void> {
    try {
      await listenLoopback(this.#server, port, 'in Settings');
    } catch (e) {
      await this.#state.close();
      throw e;
    }
    const address = this.#server.address() as AddressInfo;
    this.#ctx.port = address.port;
    this.port = address.port;
    this.host = address.address;
    this.url = `http://127.0.0.1:${address.port}${this.path}`;
    if (!this.#signingSecret) this.#log.warn('Webhook signing is off: unsigned events are accepted.', { port: address.port });
    this.#log.info('Webhook listener started.', { port: address.port, replaying: this.#state.queued });
    this.#pump();
  }

  /** Hands out pending events in order, one at a time. */
  async #drain(): Promise<void> {
    const state = this.#state;
    for (let p = state.firstPending(); p && !this.#stopping; p = state.firstPending()) {
      try {
        await this.#o.onEvent(p);
      } catch (e) {
        // Events are hints (sync stays the source of truth): a failing consumer must not block
        // the queue forever, so the event counts as processed.
        this.#log.error('A webhook event handler failed; the event was skipped.', { id: p.id, error: String(e) });
      }
      state.markDone(p.id);
    }
  }

  // Cleared in a microtask after the loop ends, before any further request can be handled.
  #pump(): void {
    this.#pumping ??= this.#drain().finally(() => (this.#pumping = null));
  }

  #refuse(res: ServerResponse, r: Rejection, close: boolean): void {
    this.#counts.rejected++;
    this.#log.warn('Refused a webhook request.', { status: r.status, reason: r.reason });
    send(res, r.status, { status: 'rejected', reason: r.reason, message: r.message }, close ? { connection: 'close' } : undefined);
  }

  #busy(res: ServerResponse, extra: Record<string, string> = {}): void {
    this.#counts.rejected++;
    this.#counts.busy++;
    send(res, 503, BUSY, { 'retry-after': String(RETRY_AFTER_SECONDS), ...extra });
  }

  #endTurn(): void {
    const answers = this.#turn;
    this.#turn = [];
    let failed = false;
    try {
      this.#state.flush();
    } catch {
      failed = true;
    }
    for (const { res, status } of answers) {
      if (failed) this.#counts.rejected++;
      else this.#counts[status === 'accepted' ? 'accepted' : 'duplicates']++;
      send(res, failed ? 500 : 200, failed ? FAILED : { status });
    }
    this.#pump();
  }

  #answerAtEndOfTurn(res: ServerResponse, status: 'accepted' | 'duplicate'): void {
    if (this.#turn.push({ res, status }) === 1) setImmediate(() => this.#endTurn());
  }

  /** Decides on a request whose body is in (or was cut at the limit) and answers it. */
  #decide(head: RequestHead, headers: IncomingHttpHeaders, body: Buffer | 'too-large', receivedAt: number, res: ServerResponse): void {
    this.#ctx.nowMs = receivedAt;
    const verdict = checkRequest(requestFacts(head, headers, body), this.#ctx);
    if (verdict.outcome === 'reject') return this.#refuse(res, verdict, body === 'too-large');
    // The tunnel's self-check: answered, never stored nor counted as an event.
    if (verdict.outcome !== 'duplicate' && isTunnelCheck(verdict)) return send(res, 200, tunnelCheckAnswer(verdict.id));
    if (verdict.outcome === 'duplicate') {
      // Never acknowledged before the first copy is written.
      if (this.#state.isStaged(verdict.id)) return this.#answerAtEndOfTurn(res, 'duplicate');
      this.#counts.duplicates++;
      return send(res, 200, { status: 'duplicate' });
    }
    if (this.#stopping) return this.#busy(res, { connection: 'close' });
    if (this.#state.queued >= this.#queueLimit) return this.#busy(res);
    const { outcome: _o, status: _s, ...accepted } = verdict;
    this.#state.stage({ ...accepted, receivedAt });
    this.#answerAtEndOfTurn(res, 'accepted');
  }

  #request(req: IncomingMessage, res: ServerResponse): void {
    if (this.#o.files && (req.url ?? '').startsWith(FILE_PATH_PREFIX)) return serveFile(req, res, this.#o.files, this.#ctx, this.#log);
    const head = requestHead(req);
    const receivedAt = this.#now();
    const answer = (body: Buffer | 'too-large') => {
      try {
        this.#decide(head, req.headers, body, receivedAt, res);
      } catch (e) {
        this.#log.error('The webhook listener failed on a request.', { error: String(e) });
        if (!res.headersSent) send(res, 500, FAILED, { connection: 'close' });
        else res.destroy();
      }
    };
    const early = checkHead(head, this.#ctx);
    // Refused before reading: close the connection rather than read a body we do not want.
    if (early.outcome === 'reject') return this.#refuse(res, early, true);
    readBody(req, this.#maxBodyBytes, answer);
  }

  eventLog(filter?: EventLogFilter): EventLogEntry[] {
    return this.#state.eventLog(filter);
  }

  stats(): WebhookStats {
    return { ...this.#counts, queued: this.#state.queued };
  }

  allowHost(host: string | null): void {
    this.#ctx.publicHost = host?.toLowerCase() ?? undefined;
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutDown();
    return this.#closing;
  }

  async #shutDown(): Promise<void> {
    const server = this.#server;
    this.#stopping = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // Requests in flight are still sending their bodies; give them a moment, then cut.
    const cut = setTimeout(() => server.closeAllConnections(), 2000);
    await closed;
    clearTimeout(cut);
    if (this.#pumping) {
      let timer: NodeJS.Timeout | undefined;
      const closeTimeoutMs = this.#o.closeTimeoutMs ?? 5000;
      await Promise.race([this.#pumping, new Promise<void>((resolve) => (timer = setTimeout(resolve, closeTimeoutMs)))]);
      clearTimeout(timer);
    }
    await this.#state.close();
    this.#log.info('Webhook listener stopped.', { unprocessed: this.#state.queued });
  }
}
