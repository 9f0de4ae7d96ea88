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
  const now = o.now ?? systemClock.now;
  const maxBodyBytes = Math.min(o.maxBodyBytes ?? MAX_EVENT_BYTES, MAX_EVENT_BYTES);
  const maxInFlight = o.maxInFlight ?? 2000;
  const publishTimeoutMs = o.publishTimeoutMs ?? 5_000;
  const stream = streamName(o.operation);

  const { nc, duplicateWindowMs } = await openStream(o, log);
  const js = jetstream(nc, { checkAPI: false });
  // Ids this relay stored lately: a redelivery is answered without a round trip to JetStream.
  const seen = new SeenWindow(undefined, duplicateWindowMs);
  const counts = { published: 0, duplicates: 0, refused: 0, unavailable: 0 };
  const inFlight = new Set<Promise<void>>();
  const ctx: CheckContext = {
    pathSecret: o.pathSecret,
    port: 0,
    maxBodyBytes,
    publicHost: o.publicHost?.toLowerCase(),
    signingSecret: o.signingSecret,
    nowMs: 0,
    isSeen: (id) => seen.has(id, now()),
  };
  let stopping = false;

  const refuse = (res: ServerResponse, r: Rejection) => {
    counts.refused++;
    log.warn('Refused a webhook request.', { status: r.status, reason: r.reason });
    send(res, r.status, { status: 'rejected', reason: r.reason, message: r.message }, { connection: 'close' });
  };
  const unavailable = (res: ServerResponse, message: string) => {
    counts.unavailable++;
    send(res, 503, { status: 'busy', message }, { 'retry-after': String(RETRY_AFTER_SECONDS) });
  };

  const publish = async (res: ServerResponse, id: string, group: string | undefined, body: Buffer) => {
    try {
      const ack = await js.publish(eventSubject(o.operation, group), body, { msgID: id, timeout: publishTimeoutMs });
      seen.add(id, now(), now());
      counts[ack.duplicate ? 'duplicates' : 'published']++;
      send(res, 200, { status: ack.duplicate ? 'duplicate' : 'accepted' });
    } catch (e) {
      log.warn('A delivery could not be stored in the stream; the service will deliver it again.', {
        error: errorText(e),
      });
      unavailable(res, 'The event stream cannot be reached; retry later.');
    }
  };

  const decide = (req: IncomingMessage, res: ServerResponse, body: Buffer | 'too-large') => {
    ctx.nowMs = now();
    const verdict = checkRequest(requestFacts(requestHead(req), req.headers, body), ctx);
    if (verdict.outcome === 'reject') return refuse(res, verdict);
    if (verdict.outcome === 'duplicate') {
      counts.duplicates++;
      return send(res, 200, { status: 'duplicate' });
    }
    if (stopping) return unavailable(res, 'The relay is stopping; retry later.');
    if (inFlight.size >= maxInFlight) return unavailable(res, 'Too many events waiting; retry later.');
    // The verdict's body is the same bytes: `raw` is their text, published as received.
    const p: Promise<void> = publish(res, verdict.id, verdict.group, body as Buffer).finally(() => inFlight.delete(p));
    inFlight.add(p);
  };

  const server = createServer((req, res) => {
    const early = checkHead(requestHead(req), ctx);
    if (early.outcome === 'reject') return refuse(res, early);
    readBody(req, maxBodyBytes, (body) => {
      try {
        decide(req, res, body);
      } catch (e) {
        log.error('The relay failed on a request.', { error: String(e) });
        if (!res.headersSent)
          send(res, 500, { status: 'error', message: 'The event could not be taken; retry later.' }, { connection: 'close' });
        else res.destroy();
      }
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  try {
    await listenLoopback(server, o.port, 'with --port');
  } catch (e) {
    await nc.close();
    throw e;
  }
  const port = (server.address() as AddressInfo).port;
  ctx.port = port;
  const path = `/hooks/${o.pathSecret}`;
  log.info('Relay started.', { port, stream });

  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    path,
    stream,
    stats: () => ({ ...counts, inFlight: inFlight.size }),
    close() {
      closing ??= (async () => {
        stopping = true;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([Promise.all(inFlight), new Promise<void>((resolve) => (timer = setTimeout(resolve, 5_000)))]);
        clearTimeout(timer);
        server.closeAllConnections();
        await closed;
        // Drained while NATS answers; closed outright when it does not (a drain would wait for it).
        await Promise.race([nc.drain(), new Promise<void>((resolve) => (timer = setTimeout(resolve, 2_000)))]).catch(() => undefined);
        clearTimeout(timer);
        if (!nc.isClosed()) await nc.close();
        log.info('Relay stopped.', counts);
      })();
      return closing;
    },
  };
}
