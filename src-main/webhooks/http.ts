/**
 * The HTTP side of taking webhook deliveries, shared by the console's listener and the team
 * relay: the loopback bind, the request head, the body read under its limit, the JSON answer.
 * The rules a request must pass are in check-request.ts.
 */
import { once } from 'node:events';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AppError } from '../../src-shared/errors';
import { WEBHOOK_HEADERS } from '../../src-shared/webhook';
import type { RequestFacts, RequestHead } from './check-request';

export function send(res: ServerResponse, status: number, answer: object, extra?: Record<string, string>): void {
  const body = JSON.stringify(answer);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...extra });
  res.end(body);
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(', ') : v;
}

export function requestHead(req: IncomingMessage): RequestHead {
  const h = req.headers;
  return { method: req.method, url: req.url, host: h.host, contentType: h['content-type'], contentLength: h['content-length'] };
}

/** The facts `checkRequest` decides on: the head, the body and the signature headers. */
export function requestFacts(head: RequestHead, headers: IncomingHttpHeaders, body: Buffer | 'too-large'): RequestFacts {
  return {
    ...head,
    body,
    webhookId: header(headers[WEBHOOK_HEADERS.id]),
    webhookTimestamp: header(headers[WEBHOOK_HEADERS.timestamp]),
    webhookSignature: header(headers[WEBHOOK_HEADERS.signature]),
  };
}

/**
 * Reads the body up to `maxBytes`, then calls `done` once: with the bytes, or with 'too-large'
 * as soon as the limit is passed (the rest is not read: the socket stops being read once the
 * small internal buffer fills).
 */
export function readBody(req: IncomingMessage, maxBytes: number, done: (body: Buffer | 'too-large') => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= maxBytes) return void chunks.push(chunk);
    req.removeAllListeners('data').removeAllListeners('end').pause();
    done('too-large');
  });
  req.on('end', () => done(Buffer.concat(chunks, size)));
}

/**
 * Binds 127.0.0.1 only: a tunnel or a reverse proxy is the one way in from outside. `choose`
 * says where the user picks another port ("in Settings", "with --port").
 */
export async function listenLoopback(server: Server, port: number, choose: string): Promise<void> {
  server.listen({ host: '127.0.0.1', port, exclusive: true });
  try {
    await once(server, 'listening');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const plain: Record<string, string> = {
      EADDRINUSE: `Port ${port} is in use by another program; choose another ${choose}.`,
      EACCES: `Port ${port} needs administrator rights; choose a port above 1024 ${choose}.`,
    };
    const message = plain[e.code ?? ''] ?? `The webhook listener could not start on port ${port} (${e.code ?? e.message}).`;
    throw new AppError({ kind: 'Unavailable', message }, { cause: e });
  }
}

/** Port 0 (any free port) or 1..65535. */
export function validPort(port: number): boolean {
  return Number.isInteger(port) && port >= 0 && port <= 65535;
}
