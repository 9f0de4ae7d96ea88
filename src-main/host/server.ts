import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from '../../src-shared/node-http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WEB_BRIDGE_PATH, WEB_EVENTS_PATH } from '../../src-shared/bridge';
import { isWorkspaceId, WORKSPACE_HEADER } from '../../src-shared/ipc';
import { supervisorBodyLimits } from '../../src-shared/bridge/supervisor';
import { dispatch, type EventHub, type Router, type BridgeLog } from '../bridge/table';
import { checkHostRequest, secretCookie } from './request-check';
import { loadStaticFiles } from './static-files';
import { CONTENT_SECURITY_POLICY } from './csp';
import { errorText } from '../../src-shared/error-text';

export interface WebTransportOptions {
  /** The handler table for a call's workspace (the header `x-console-workspace`; none: the one in front). */
  route: Router;
  events: EventHub;
  rendererDir: string;
  /** Bound by `listenLoopback` before the console started. */
  server: Server;
  log?: BridgeLog;
}

export class PortTaken extends Error {
  constructor(readonly port: number) {
    super(
      `Port ${port} on 127.0.0.1 is taken by another program: start with --port N for another one, or without --port for any free one.`,
    );
    this.name = 'PortTaken';
  }
}

const STARTING = 'The console is starting; reload in a moment.';

/**
 * Binds the loopback port before anything else starts, so a taken port stops the launch with
 * one clear error and nothing touched. Until the transport takes over it answers 503.
 */
export async function listenLoopback(port: number): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '1' });
    res.end(STARTING);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => reject(e.code === 'EADDRINUSE' ? new PortTaken(port) : e));
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return server;
}

/** Closes a server and its open connections. */
export async function closeServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}

export interface WebTransport {
  /** The address to open: carries the per-launch secret once. */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  close(): Promise<void>;
}

const MAX_BRIDGE_BODY = 1024 * 1024;

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      if (size > limit) return; // already refused: drain the rest so the 413 reaches the caller
      size += c.length;
      if (size > limit) {
        chunks.length = 0;
        resolve(null);
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

/**
 * Whether a request may go on: from this computer, to this host, with the launch's secret. A
 * refused one is answered here, and so is the first visit with the secret in its address.
 */
function admitted(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  k: { secret: string; port: number; log: WebTransportOptions['log'] },
): boolean {
  const { secret, port } = k;
  const verdict = checkHostRequest(
    {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      remoteAddress: req.socket.remoteAddress,
      host: req.headers.host,
      origin: req.headers.origin,
      cookie: req.headers.cookie,
    },
    { secret, port },
  );
  if (!verdict.ok) {
    k.log?.warn('host refused a request', { path: url.pathname, reason: verdict.reason });
    res.writeHead(verdict.status, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(verdict.status === 403 ? 'Forbidden: open the address the console printed at launch.' : 'Refused.');
    return false;
  }
  if ('redirectWithCookie' in verdict) {
    res.writeHead(303, {
      'Set-Cookie': `${secretCookie(port)}=${verdict.redirectWithCookie}; HttpOnly; SameSite=Strict; Path=/`,
      Location: '/',
      'Cache-Control': 'no-store',
    });
    res.end();
    return false;
  }
  return true;
}

/** A bridge call: its channel, its JSON body within the channel's limit, and the workspace it names. */
async function bridgeCall(req: IncomingMessage, res: ServerResponse, url: URL, o: WebTransportOptions): Promise<void> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
    json(res, 415, { error: { kind: 'Invalid', message: 'Bridge calls are JSON.' } });
    return;
  }
  let channel: string;
  try {
    channel = decodeURIComponent(url.pathname.slice(WEB_BRIDGE_PATH.length));
  } catch {
    json(res, 400, { error: { kind: 'Invalid', message: 'Unknown bridge channel.' } });
    return;
  }
  const limit = (supervisorBodyLimits as Record<string, number>)[channel] ?? MAX_BRIDGE_BODY;
  const declared = Number(req.headers['content-length'] ?? 0);
  const body = declared > limit ? null : await readBody(req, limit).catch(() => null);
  if (!body) {
    res.setHeader('Connection', 'close');
    json(res, 413, { error: { kind: 'Invalid', message: 'Bridge call too large.' } });
    return;
  }
  let input: unknown;
  try {
    input = body.length ? JSON.parse(body.toString('utf8')) : {};
  } catch {
    json(res, 400, { error: { kind: 'Invalid', message: 'Bridge call is not valid JSON.' } });
    return;
  }
  const named = req.headers[WORKSPACE_HEADER];
  if (named !== undefined && !isWorkspaceId(named)) {
    json(res, 400, { error: { kind: 'Invalid', message: 'Unknown workspace.' } });
    return;
  }
  json(res, 200, await dispatch(o.route(named ?? null), channel, input, o.log));
}

/** One of the renderer's files, when the path names one; false when none. */
function serveFile(res: ServerResponse, url: URL, files: ReturnType<typeof loadStaticFiles>): boolean {
  const file = files.get(url.pathname === '/' ? '/index.html' : url.pathname);
  if (file) {
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': file.type,
      'Cache-Control': url.pathname.startsWith('/assets/') ? 'private, max-age=31536000, immutable' : 'no-store',
    });
    res.end(file.body);
    return true;
  }
  return false;
}

/**
 * The bridge's web transport: serves the renderer and the same handler table as Electron IPC, on
 * 127.0.0.1 only, behind the per-launch secret. Events go out as server-sent events.
 */
export async function startWebTransport(o: WebTransportOptions): Promise<WebTransport> {
  const secret = randomBytes(24).toString('base64url');
  const files = loadStaticFiles(o.rendererDir);
  const server = o.server;
  const port = (server.address() as AddressInfo).port;
  const streams = new Set<ServerResponse>();

  const unsubscribe = o.events.subscribe((name, payload, workspaceId) => {
    const frame = `data: ${JSON.stringify(workspaceId ? { name, payload, workspaceId } : { name, payload })}\n\n`;
    for (const res of streams) res.write(frame);
  });

  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // Whatever a request does, it must not become an unhandled rejection (that ends the process).
    handle(req, res).catch((e: unknown) => {
      o.log?.error('host request failed', { error: errorText(e) });
      if (!res.headersSent) json(res, 400, { error: { kind: 'Invalid', message: 'The request could not be read.' } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!admitted(req, res, url, { secret, port, log: o.log })) return;
    if (req.method === 'POST' && url.pathname.startsWith(WEB_BRIDGE_PATH)) return bridgeCall(req, res, url, o);
    if (req.method === 'GET' && url.pathname === WEB_EVENTS_PATH) {
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
      });
      res.write(': connected\n\n');
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return;
    }
    if (req.method === 'GET' && serveFile(res, url, files)) return;
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Not found.');
  }

  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?k=${secret}`,
    origin,
    port,
    async close() {
      unsubscribe();
      for (const res of streams) res.end();
      streams.clear();
      await closeServer(server);
    },
  };
}
