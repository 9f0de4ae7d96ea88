import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A service that follows the interface until told to misbehave, on loopback: what the console
 * must survive from any server (an endless or huge answer, JSON nested 300,000 levels deep, pages
 * of records nobody can read, an HTML error page, a redirect, an answer that never comes).
 * The misbehaviour applies to every request from the moment it is set; `good` answers each list
 * with an empty page and each other call with an empty record, as a quiet service would.
 */
export const NAMED_BEHAVIOURS = [
  'good',
  /** 200, JSON that never ends, written as fast as the client reads it. */
  'endless',
  /** 200, a 100 MB JSON page sent without a length (`announced`: with its Content-Length). */
  'huge',
  'huge-announced',
  /** 200, a page whose one record is nested 300,000 levels deep. */
  'deep',
  /** 200, every page `{"page":n,"size":1,"results":[[1]]}`: one record, never readable. */
  'unreadable',
  /** 500 with an HTML page, as a proxy or a crashed server answers. */
  'error-page',
  /** 301 to another address (with a query the console must not repeat). */
  'redirect',
  /** Headers never sent: the answer does not come. */
  'silent',
  /** The connection dropped on every request, before any answer (a network failure). */
  'reset',
] as const;

export type Behaviour =
  | (typeof NAMED_BEHAVIOURS)[number]
  /** 200, each list page's records as this function gives them (paging that misleads). */
  | { pages(page: number): unknown[] }
  /**
   * This status, its body echoing the request's Authorization header (as a careless server's
   * error page does): in an ERROR envelope's message and code, and in a header. Status 200: an
   * answer no reader accepts (`results` a string), the header in it.
   */
  | { echo: number };

export const HUGE_BYTES = 100 * 1024 * 1024;
const DEEP_LEVELS = 300_000;
export const REDIRECT_TO = 'https://moved.example/api?token=do-not-show';
/** The one user of the service, whose token it hands out. */
export const USER = { userName: 'ana.lima', name: 'Ana Lima' };

export interface HostileService {
  baseUrl: string;
  token: string;
  behave(b: Behaviour): void;
  /** Requests received, each with its path. */
  readonly requests: string[];
  /** Bytes of answer bodies written so far. */
  readonly sentBytes: number;
  close(): Promise<void>;
}

/** Whole records, so that the JSON stays well formed however far it is read. */
const CHUNK = Buffer.from(('{"id":1,"comment":"' + 'x'.repeat(200) + '"},').repeat(300));

/** Writes `chunk` until `total` bytes (or forever), as fast as the socket drains, until the client leaves. */
function pour(res: ServerResponse, total: number, count: (n: number) => void, end: string): void {
  let left = total;
  const more = () => {
    while (!res.destroyed && left > 0) {
      const piece = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
      left -= piece.length;
      count(piece.length);
      if (!res.write(piece)) return void res.once('drain', more);
    }
    if (!res.destroyed) res.end(end);
  };
  more();
}

export async function startHostileService(): Promise<HostileService> {
  let behaviour: Behaviour = 'good';
  let sentBytes = 0;
  const requests: string[] = [];
  const token = 'hostile-token-4f1c2a';
  const count = (n: number) => (sentBytes += n);

  const answer = (req: IncomingMessage, body: string, res: ServerResponse) => {
    const path = req.url ?? '';
    requests.push(path);
    const isList = /\/v2\//.test(path) && !/\/save$|\/unique|\/rules|\/channels|nps-summary/.test(path);
    let page = 0;
    try {
      page = Number((JSON.parse(body) as { page?: unknown }).page) || 0;
    } catch {
      // not a query
    }
    if (typeof behaviour === 'object' && 'echo' in behaviour) {
      const auth = req.headers.authorization ?? '';
      const text =
        behaviour.echo === 200
          ? JSON.stringify({ page, size: 20, results: `not a list, ${auth}` })
          : JSON.stringify({ status: 'ERROR', message: `Refused the credentials sent (Authorization: ${auth})`, errorCode: auth });
      count(text.length);
      res.writeHead(behaviour.echo, { 'content-type': 'application/json', 'x-seen-authorization': auth });
      return void res.end(text);
    }
    if (typeof behaviour === 'object') {
      const text = JSON.stringify({ page, size: 500, results: behaviour.pages(page) });
      count(text.length);
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(text);
    }
    switch (behaviour) {
      case 'good': {
        // One user, whose token this is; every list empty but the users'.
        const ana = { id: 1, userName: USER.userName, name: USER.name };
        const value = /\/users\/rules$/.test(path)
          ? { userName: USER.userName, role: 'agent', rules: [] }
          : /\/v2\/users$/.test(path)
            ? { page, size: 20, results: page === 0 ? [ana] : [] }
            : isList
              ? { page, size: 20, results: [] }
              : { id: 1 };
        const text = JSON.stringify(value);
        count(text.length);
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(text);
      }
      case 'endless':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"page":0,"size":500,"results":[');
        return pour(res, Infinity, count, '');
      case 'huge':
      case 'huge-announced': {
        const head = '{"page":0,"size":500,"results":[';
        const tail = '{"id":0}]}';
        res.writeHead(200, {
          'content-type': 'application/json',
          ...(behaviour === 'huge-announced' ? { 'content-length': String(head.length + HUGE_BYTES + tail.length) } : {}),
        });
        res.write(head);
        return pour(res, HUGE_BYTES, count, tail);
      }
      case 'deep': {
        const text = `{"page":0,"size":1,"results":[${'['.repeat(DEEP_LEVELS)}${']'.repeat(DEEP_LEVELS)}]}`;
        count(text.length);
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(text);
      }
      case 'unreadable': {
        const text = JSON.stringify({ page, size: 1, results: [[1]] });
        count(text.length);
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(text);
      }
      case 'error-page': {
        const text =
          '<!doctype html><html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1></body></html>';
        count(text.length);
        res.writeHead(500, { 'content-type': 'text/html' });
        return void res.end(text);
      }
      case 'redirect':
        res.writeHead(301, { location: REDIRECT_TO, 'content-type': 'text/html' });
        return void res.end('<a href="https://moved.example/api">Moved</a>');
      case 'silent':
        return;
      case 'reset':
        return void req.socket.destroy();
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => answer(req, Buffer.concat(chunks).toString('utf8'), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    token,
    behave: (b) => (behaviour = b),
    requests,
    get sentBytes() {
      return sentBytes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
