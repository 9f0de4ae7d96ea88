/**
 * The team relay: takes the service's webhook deliveries once for a whole operation and
 * publishes each to the operation's JetStream stream, where every console reads it through its
 * own durable consumer.
 *
 * A delivery passes the listener's own checks (path secret, Host, size, Standard Webhooks
 * signature; check-request.ts) and is answered 200 only once JetStream has stored it: the relay
 * keeps nothing on its disk, so a relay that stops or dies has answered nothing it could lose,
 * and the service delivers again what got no answer. The delivery's id is the message id, so
 * JetStream's duplicate window stores a redelivery, or the same delivery taken by two relays
 * side by side, once. What is published is the body as received, byte for byte, and that id:
 * nothing the webhook did not carry.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from '../../src-shared/node-http';
import type { AddressInfo } from 'node:net';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { AppError } from '../../src-shared/errors';
import { checkHead, checkRequest, type CheckContext, type Rejection } from '../webhooks/check-request';
import { listenLoopback, readBody, requestFacts, requestHead, send, validPort } from '../webhooks/http';
import { SeenWindow } from '../webhooks/seen-window';
import type { WebhookLogger } from '../webhooks/types';
import { connectOptions, type NatsCredentials } from './connection';
import { MAX_EVENT_BYTES, checkStream } from './stream';
import { checkName, eventSubject, relayInbox, streamName } from './subjects';
import { errorText } from '../../src-shared/error-text';
import { systemClock } from '../clock';

export interface RelayOptions {
  /** The operation (one service account) whose events this relay carries. */
  operation: string;
  /** 0 picks a free port. Bound to 127.0.0.1: a TLS reverse proxy or a tunnel forwards to it. */
  port: number;
  /** Deliveries are taken on /hooks/<pathSecret> only. */
  pathSecret: string;
  /** Required: the relay is the operation's door, and takes signed deliveries only. */
  signingSecret: string;
  /** The public host:port a proxy forwards with when it keeps the Host header (lower case). */
  publicHost?: string | undefined;
  nats: { address: string; credentials: NatsCredentials; caFile?: string | undefined };
  /** Default 1 MiB, as the listener. */
  maxBodyBytes?: number;
  /** Deliveries waiting for JetStream at once; past it the answer is 503 with Retry-After. Default 2000. */
  maxInFlight?: number;
  /** How long a publish waits for JetStream's acknowledgement. Default 5 s. */
  publishTimeoutMs?: number;
  log?: WebhookLogger;
  now?: () => number;
}

export interface RelayStats {
  /** Deliveries stored in the stream by this relay. */
  published: number;
  /** Deliveries already stored (by this relay or another): answered 200, stored once. */
  duplicates: number;
  /** Requests refused by the checks (4xx). */
  refused: number;
  /** Answered 503: JetStream could not be reached in time, or too many deliveries waited. */
  unavailable: number;
  inFlight: number;
}

export interface Relay {
  /** http://127.0.0.1:PORT/hooks/<pathSecret> */
  readonly url: string;
  readonly port: number;
  readonly path: string;
  readonly stream: string;
  stats(): RelayStats;
  /** Stops taking deliveries, lets those in flight finish (up to 5 s), then closes the NATS connection. */
  close(): Promise<void>;
}

const PATH_SECRET_RE = /^[A-Za-z0-9_-]{8,128}$/;
const RETRY_AFTER_SECONDS = 2;
const silent: WebhookLogger = { info() {}, warn() {}, error() {} };

/**
 * Connects to NATS (waiting while the server is down) and checks the stream the operator made;
 * answers its duplicate window.
 */
async function openStream(o: RelayOptions, log: WebhookLogger): Promise<{ nc: NatsConnection; duplicateWindowMs: number }> {
  const options = connectOptions(o.nats.address, o.nats.credentials, {
    name: `relay ${o.operation}`,
    inboxPrefix: relayInbox(o.operation),
    caFile: o.nats.caFile,
  });
  const nc = await connect({ ...options, waitOnFirstConnect: true });
  let duplicateWindowMs: number;
  try {
    const jsm = await jetstreamManager(nc, { checkAPI: false });
    duplicateWindowMs = (await checkStream(jsm, o.operation)).config.duplicate_window / 1_000_000;
  } catch (e) {
    await nc.close();
    throw e;
  }
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') log.warn('The relay lost its NATS connection; deliveries are answered 503 until it is back.');
      else if (s.type === 'reconnect') log.info('The relay is connected to NATS again.');
    }
  })();
  return { nc, duplicateWindowMs };
}

export async function startRelay(o: RelayOptions): Promise<Relay> {
  checkName('operation', o.operation);
  if (!PATH_SECRET_RE.test(o.pathSecret))
    throw new AppError({ kind: 'Invalid', message: 'The path secret must be 8 to 128 letters, digits, "-" or "_".' });
  if (!o.signingSecret)
    throw new AppError({ kind: 'Invalid', message: 'The relay takes signed deliveries only: give it the signing secret.' });
  if (!validPort(o.port)) throw new AppError({ kind: 'Invalid', message: `Port ${o.port} is not a valid port.` });
  const log = o.log ?? silent;
  const { nc, duplicateWindowMs } = await openStream(o, log);
  const relay = new RelayServer(o, log, nc, duplicateWindowMs);
  await relay.listen();
  return relay;
}

/** The relay at work: its HTTP server taking deliveries and the stream it publishes them to. */
class RelayServer implements Relay {
  readonly #o: RelayOptions;
  readonly #log: WebhookLogger;
  readonly #now: () => number;
  readonly #nc: NatsConnection;
  readonly #js: ReturnType<typeof jetstream>;
  readonly #maxBodyBytes: number;
  readonly #maxInFlight: number;
  readonly #publishTimeoutMs: number;
  /** Ids this relay stored lately: a redelivery is answered without a round trip to JetStream. */
  readonly #seen: SeenWindow;
  readonly #counts = { published: 0, duplicates: 0, refused: 0, unavailable: 0 };
  readonly #inFlight = new Set<Promise<void>>();
  readonly #ctx: CheckContext;
  readonly #server: ReturnType<typeof createServer>;
  #stopping = false;
  #closing: Promise<void> | null = null;
  readonly stream: string;
  readonly path: string;
  url = '';
  port = 0;

  constructor(o: RelayOptions, log: WebhookLogger, nc: NatsConnection, duplicateWindowMs: number) {
    this.#o = o;
    this.#log = log;
    const now = (this.#now = o.now ?? systemClock.now);
    this.#nc = nc;
    this.#js = jetstream(nc, { checkAPI: false });
    this.#maxBodyBytes = Math.min(o.maxBodyBytes ?? MAX_EVENT_BYTES, MAX_EVENT_BYTES);
    this.#maxInFlight = o.maxInFlight ?? 2000;
    this.#publishTimeoutMs = o.publishTimeoutMs ?? 5_000;
    this.stream = streamName(o.operation);
    this.path = `/hooks/${o.pathSecret}`;
    const seen = (this.#seen = new SeenWindow(undefined, duplicateWindowMs));
    this.#ctx = {
      pathSecret: o.pathSecret,
      port: 0,
      maxBodyBytes: this.#maxBodyBytes,
      publicHost: o.publicHost?.toLowerCase(),
      signingSecret: o.signingSecret,
      nowMs: 0,
      isSeen: (id) => seen.has(id, now()),
    };
    this.#server = createServer((req, res) => this.#request(req, res));
    this.#server.headersTimeout = 10_000;
    this.#server.requestTimeout = 30_000;
  }

  async listen(): Promise<void> {
    try {
      await listenLoopback(this.#server, this.#o.port, 'with --port');
    } catch (e) {
      await this.#nc.close();
      throw e;
    }
    const port = (this.#server.address() as AddressInfo).port;
    this.#ctx.port = port;
    this.port = port;
    this.url = `http://127.0.0.1:${port}${this.path}`;
    this.#log.info('Relay started.', { port, stream: this.stream });
  }

  #refuse(res: ServerResponse, r: Rejection): void {
    this.#counts.refused++;
    this.#log.warn('Refused a webhook request.', { status: r.status, reason: r.reason });
    send(res, r.status, { status: 'rejected', reason: r.reason, message: r.message }, { connection: 'close' });
  }

  #unavailable(res: ServerResponse, message: string): void {
    this.#counts.unavailable++;
    send(res, 503, { status: 'busy', message }, { 'retry-after': String(RETRY_AFTER_SECONDS) });
  }

  async #publish(res: ServerResponse, id: string, group: string | undefined, body: Buffer): Promise<void> {
    try {
      const ack = await this.#js.publish(eventSubject(this.#o.operation, group), body, { msgID: id, timeout: this.#publishTimeoutMs });
      this.#seen.add(id, this.#now(), this.#now());
      this.#counts[ack.duplicate ? 'duplicates' : 'published']++;
      send(res, 200, { status: ack.duplicate ? 'duplicate' : 'accepted' });
    } catch (e) {
      this.#log.warn('A delivery could not be stored in the stream; the service will deliver it again.', {
        error: errorText(e),
      });
      this.#unavailable(res, 'The event stream cannot be reached; retry later.');
    }
  }

  #decide(req: IncomingMessage, res: ServerResponse, body: Buffer | 'too-large'): void {
    this.#ctx.nowMs = this.#now();
    const verdict = checkRequest(requestFacts(requestHead(req), req.headers, body), this.#ctx);
    if (verdict.outcome === 'reject') return this.#refuse(res, verdict);
    if (verdict.outcome === 'duplicate') {
      this.#counts.duplicates++;
      return send(res, 200, { status: 'duplicate' });
    }
    if (this.#stopping) return this.#unavailable(res, 'The relay is stopping; retry later.');
    if (this.#inFlight.size >= this.#maxInFlight) return this.#unavailable(res, 'Too many events waiting; retry later.');
    // The verdict's body is the same bytes: `raw` is their text, published as received.
    const inFlight = this.#inFlight;
    const p: Promise<void> = this.#publish(res, verdict.id, verdict.group, body as Buffer).finally(() => inFlight.delete(p));
    inFlight.add(p);
  }

  #request(req: IncomingMessage, res: ServerResponse): void {
    const early = checkHead(requestHead(req), this.#ctx);
    if (early.outcome === 'reject') return this.#refuse(res, early);
    readBody(req, this.#maxBodyBytes, (body) => {
      try {
        this.#decide(req, res, body);
      } catch (e) {
        this.#log.error('The relay failed on a request.', { error: String(e) });
        if (!res.headersSent)
          send(res, 500, { status: 'error', message: 'The event could not be taken; retry later.' }, { connection: 'close' });
        else res.destroy();
      }
    });
  }

  stats(): RelayStats {
    return { ...this.#counts, inFlight: this.#inFlight.size };
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutDown();
    return this.#closing;
  }

  async #shutDown(): Promise<void> {
    const server = this.#server;
    const nc = this.#nc;
    this.#stopping = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.#inFlight), new Promise<void>((resolve) => (timer = setTimeout(resolve, 5_000)))]);
    clearTimeout(timer);
    server.closeAllConnections();
    await closed;
    // Drained while NATS answers; closed outright when it does not (a drain would wait for it).
    await Promise.race([nc.drain(), new Promise<void>((resolve) => (timer = setTimeout(resolve, 2_000)))]).catch(() => undefined);
    clearTimeout(timer);
    if (!nc.isClosed()) await nc.close();
    this.#log.info('Relay stopped.', this.#counts);
  }
}
