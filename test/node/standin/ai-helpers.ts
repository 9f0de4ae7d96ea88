import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from '@playwright/test';
import { createAiService, type AiContext, type AiRequest, type KbStatus } from '../../../src-standin/ai/index';

/** Helpers shared by the standin-ai tests: direct calls to the service and a loopback file server. */

export type AiService = ReturnType<typeof createAiService>;

export const CANNED = [
  'Posso ajudar em algo mais?',
  'Seu protocolo de atendimento foi enviado por e-mail.',
  'Para segunda via de boleto, acesse Minha Conta e clique em Gerar boleto.',
];

export function aiService(extra: Partial<AiContext> = {}): AiService {
  return createAiService({ cannedTexts: () => CANNED, ...extra });
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  json: unknown;
  raw: Buffer;
}

export async function call(svc: AiService, path: string, body: unknown, opts: Partial<AiRequest> = {}): Promise<Answer> {
  const raw = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const r = await svc.handle({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body: raw, ...opts });
  const buf = Buffer.isBuffer(r.body)
    ? r.body
    : Buffer.from(typeof r.body === 'string' ? r.body : r.body === undefined ? '' : JSON.stringify(r.body));
  let json: unknown = null;
  if (!Buffer.isBuffer(r.body)) json = typeof r.body === 'object' ? r.body : null;
  return { status: r.status, headers: r.headers ?? {}, json, raw: buf };
}

export async function indexStatus(svc: AiService, name: string): Promise<KbStatus | null> {
  const r = await svc.handle({ method: 'GET', path: `/transformersapi/1.0/indexes/${name}`, headers: {}, body: Buffer.alloc(0) });
  return r.status === 200 ? (r.body as KbStatus) : null;
}

/** Waits until the base has no upload in progress, then returns its status. */
export async function settled(svc: AiService, name: string): Promise<KbStatus> {
  await expect
    .poll(
      async () => {
        const s = await indexStatus(svc, name);
        return s !== null && !s.pending && s.state !== 'indexing';
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  const s = await indexStatus(svc, name);
  if (!s) throw new Error('status vanished');
  return s;
}

export interface FileServer {
  url(name: string): string;
  put(name: string, body: Buffer | string, type?: string): void;
  hits(name: string): number;
  close(): Promise<void>;
}

/** Serves files on 127.0.0.1 for upload_files to fetch. */
export async function fileServer(): Promise<FileServer> {
  const files = new Map<string, { body: Buffer; type: string }>();
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').slice(1).split('?')[0] ?? '');
    hits.set(name, (hits.get(name) ?? 0) + 1);
    const f = files.get(name);
    if (!f) {
      res.writeHead(404).end('missing');
      return;
    }
    res.writeHead(200, { 'content-type': f.type, 'content-length': f.body.length }).end(f.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name) => `http://127.0.0.1:${port}/${encodeURIComponent(name)}`,
    put: (name, body, type = 'application/octet-stream') =>
      files.set(name, { body: Buffer.isBuffer(body) ? body : Buffer.from(body), type }),
    hits: (name) => hits.get(name) ?? 0,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

export const AI_PATHS = {
  ner: '/transformersapi/1.0/ner',
  nlp: '/transformersapi/1.0/nlp',
  models: '/transformersapi/1.0/models_by_providers',
  questions: '/transformersapi/1.0/questions',
  upload: '/transformersapi/1.0/upload_files',
  stt: '/voicemodelapi/1.0/stt',
  tts: '/voicemodelapi/1.0/tts',
} as const;
