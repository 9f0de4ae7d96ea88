import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Captured {
  method: string;
  path: string;
  body: string;
}

/**
 * A loopback proxy in front of the stand-in that keeps every request body it forwards: the
 * console is pointed at it as a remote workspace, and a test reads what really left the
 * console (what the service, or a provider behind it, would receive). `rewrite` changes what
 * the service answers (a service that sends more than the stand-in does).
 */
export async function startCaptureProxy(
  target: string,
  o: { rewrite?: (body: Buffer, contentType: string) => Buffer } = {},
): Promise<{ url: string; requests: Captured[]; bodiesTo(path: string): string[]; close(): Promise<void> }> {
  const to = new URL(target);
  const requests: Captured[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', body: body.toString('utf8') });
      const headers: IncomingHttpHeaders = { ...req.headers, host: to.host };
      const out = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers }, (answer) => {
        const rewrite = o.rewrite;
        if (!rewrite) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const rewritten = rewrite(Buffer.concat(chunks), String(answer.headers['content-type'] ?? ''));
          const { 'content-length': _length, 'transfer-encoding': _encoding, ...rest } = answer.headers;
          res.writeHead(answer.statusCode ?? 502, { ...rest, 'content-length': String(rewritten.length) });
          res.end(rewritten);
        });
      });
      out.on('error', () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    bodiesTo: (path) => requests.filter((r) => r.path === path).map((r) => r.body),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
