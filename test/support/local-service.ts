import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny loopback service started per test, for answers the stand-in cannot give on purpose:
 * every request is recorded (method, URL, Authorization, body) and answered by `handler`.
 */
export type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

export interface Local {
  baseUrl: string;
  seen: Array<{ method: string; url: string; auth: string | undefined; body: string }>;
  close(): Promise<void>;
}

export async function local(handler: Handler): Promise<Local> {
  const seen: Local['seen'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', auth: req.headers.authorization, body });
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
