import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { RESOURCES, V2 } from '../../src-shared/paths';

/**
 * A minimal session-comment service with the stand-in's fault kinds, shaped like
 * `startSandbox()` (baseUrl, tokens, faults.set, close). The outbox tests can run on it when
 * the full stand-in is not available in the tree yet, and the bench uses it as a fixed target.
 */
export type FaultRule = {
  match: { path: string };
  kind: 'latency' | 'status' | 'rateLimit' | 'reset' | 'dropAfterCommit' | 'malformedJson';
  latencyMs?: number;
  status?: number;
  retryAfterSeconds?: number;
  probability?: number;
  count?: number;
};

export interface MiniStandin {
  baseUrl: string;
  tokens: { agent: string; supervisor: string; admin: string };
  faults: { set(rules: FaultRule[]): void; clear(): void };
  comments: Array<{ id: number; sessionId: number; comment: string }>;
  /** Makes every token invalid (401) until called with false. */
  revokeTokens(revoked: boolean): void;
  close(): Promise<void>;
}

const SaveSchema = z.object({ sessionId: z.number().int().positive(), comment: z.string().min(1) }).loose();
const ListSchema = z
  .object({
    conditions: z.array(z.object({ key: z.string(), operator: z.string(), value: z.string().optional() }).loose()),
    sort: z.boolean(),
    page: z.number().int().min(0).optional(),
    size: z.number().int().min(1).optional(),
  })
  .loose();

export async function startMiniStandin(opts: { seed?: number } = {}): Promise<MiniStandin> {
  const tokens = { agent: 'agent-token', supervisor: 'supervisor-token', admin: 'admin-token' };
  const comments: MiniStandin['comments'] = [];
  let rules: Array<FaultRule & { used: number }> = [];
  let revoked = false;
  let nextId = 1;
  // Deterministic randomness so a failing run can be replayed.
  let state = (opts.seed ?? 1) >>> 0;
  const rand = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = (req.url ?? '').split('?')[0];
    const fired = rules.filter((r) => r.match.path === path && (r.count === undefined || r.used < r.count) && rand() < (r.probability ?? 1));
    for (const r of fired) r.used++;
    const has = (k: FaultRule['kind']) => fired.find((r) => r.kind === k);
    const latency = has('latency');
    if (latency) await new Promise((r) => setTimeout(r, latency.latencyMs ?? 100));
    if (has('reset')) return void req.socket.destroy();
    const status = has('status');
    if (status) return json(res, status.status ?? 503, { status: 'ERROR', message: 'injected' });
    const rl = has('rateLimit');
    if (rl) {
      res.writeHead(429, { 'retry-after': String(rl.retryAfterSeconds ?? 1) });
      return void res.end();
    }
    if (revoked || req.headers.authorization !== `Bearer ${tokens.agent}`) {
      res.writeHead(401);
      return void res.end();
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return json(res, 400, { status: 'ERROR', message: 'malformed body', errorCode: 'BAD_JSON' });
    }
    if (path === `${V2}${RESOURCES.sessionComment.save}`) {
      const p = SaveSchema.safeParse(body);
      if (!p.success) return json(res, 400, { status: 'ERROR', message: 'sessionId and comment are required', errorCode: 'INVALID' });
      if (/\bREJECT\b/.test(p.data.comment)) return json(res, 400, { status: 'ERROR', message: 'comment contains a blocked word', errorCode: 'BLOCKED' });
      const rec = { id: nextId++, sessionId: p.data.sessionId, comment: p.data.comment, createdAt: new Date().toISOString(), createdBy: 'agent' };
      comments.push(rec);
      if (has('dropAfterCommit')) return void req.socket.destroy();
      if (has('malformedJson')) {
        res.writeHead(201, { 'content-type': 'application/json' });
        return void res.end('{"id":');
      }
      return json(res, 201, rec);
    }
    if (path === `${V2}${RESOURCES.sessionComment.list}`) {
      const p = ListSchema.safeParse(body);
      if (!p.success) return json(res, 400, { status: 'ERROR', message: 'conditions and sort are required', errorCode: 'INVALID' });
      let rows = comments;
      for (const c of p.data.conditions) {
        if (c.key !== 'sessionId' || c.operator !== 'EQNUM') return json(res, 400, { status: 'ERROR', message: 'unsupported condition', errorCode: 'QUERY' });
        rows = rows.filter((r) => r.sessionId === Number(c.value));
      }
      const page = p.data.page ?? 0;
      const size = Math.min(p.data.size ?? 20, 500);
      const results = rows.slice(page * size, page * size + size);
      if (has('malformedJson')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('{"page":');
      }
      return json(res, 200, { page, size, results });
    }
    res.writeHead(404);
    res.end();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    tokens,
    comments,
    faults: {
      set: (r) => {
        rules = r.map((x) => ({ ...x, used: 0 }));
      },
      clear: () => {
        rules = [];
      },
    },
    revokeTokens: (r) => {
      revoked = r;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
