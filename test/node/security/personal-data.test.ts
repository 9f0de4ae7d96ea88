import { test, expect } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServiceClient, type ServiceClient } from '../../../src-main/service';
import { createLogger } from '../../../src-main/log';
import { AI_OPS } from '../../../src-shared/paths';
import { isAppError } from '../../../src-shared/errors';

/**
 * CPF and CNPJ leave the console masked: in the log, and in text sent to a language model or a
 * knowledge base, unless the attendant reveals and sends a document on purpose.
 */

const CPF = '529.982.247-25';
const CPF_BARE = '52998224725';
const CNPJ = '11.222.333/0001-81';
const CNPJ_BARE = '11222333000181';
const DOCUMENTS = [CPF, CPF_BARE, CNPJ, CNPJ_BARE];
const PROVIDER_SECRET = 'sk_provider_secret_5f4e3d2c1b';
const TOKEN = 'tok_personal_data_test_8a7b6c';

interface Seen {
  path: string;
  body: string;
  auth: string | undefined;
}

async function captureServer(): Promise<{ server: Server; baseUrl: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      seen.push({ path, body: Buffer.concat(chunks).toString('utf8'), auth: req.headers.authorization });
      const answer =
        path === AI_OPS.nlp
          ? { message: 'ok', used_tokens: 3 }
          : path === AI_OPS.questions
            ? { answer: [{ text: 'a', score: 0.9 }] }
            : path === AI_OPS.uploadFiles
              ? { message: 'indexing' }
              : null;
      res.writeHead(answer ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer ?? { status: 'NOT_FOUND' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

let ctx: { server: Server; baseUrl: string; seen: Seen[]; client: ServiceClient; logged: string[] };

test.beforeEach(async () => {
  const c = await captureServer();
  const logged: string[] = [];
  const log = createLogger({ level: 'debug', stream: { write: (l: string) => logged.push(l) } });
  log.registerSecret(TOKEN);
  const client = createServiceClient({ baseUrl: c.baseUrl, getToken: async () => TOKEN, log, retry: { attempts: 1 } });
  ctx = { ...c, client, logged };
});

test.afterEach(async () => {
  await ctx.client.close();
  await new Promise<void>((r) => ctx.server.close(() => r()));
});

const thread = `Meu CPF é ${CPF} (ou ${CPF_BARE}) e o CNPJ da loja ${CNPJ}, sem pontos ${CNPJ_BARE}. Pedido 123456.`;

test('text for a language model leaves with CPF and CNPJ masked; the rest of the message is intact', async () => {
  await ctx.client.nlp({
    provider: 'acme',
    model: 'm1',
    messages: [
      { role: 'system', content: [{ type: 'text', text: 'Resuma.' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: thread },
          { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
        ],
      },
    ],
    token: [{ secret_key: PROVIDER_SECRET }],
  });
  const sent = ctx.seen.find((s) => s.path === AI_OPS.nlp)!;
  for (const d of DOCUMENTS) expect(sent.body).not.toContain(d);
  expect(sent.body).toContain('***.***.247-25');
  expect(sent.body).toContain('**.***.***/****-81');
  expect(sent.body).toContain('Pedido 123456');
  expect(sent.body).toContain('https://example.com/a.png');
  // The provider credential goes to the service (it needs it), and never to the log.
  expect(sent.body).toContain(PROVIDER_SECRET);
  expect(ctx.logged.join('')).not.toContain(PROVIDER_SECRET);
});

test('a knowledge-base question leaves masked', async () => {
  await ctx.client.questions({ index: 'demo_atendimento_data_pt', question: `Qual o status do cliente ${CPF_BARE}?` });
  const sent = ctx.seen.find((s) => s.path === AI_OPS.questions)!;
  expect(sent.body).not.toContain(CPF_BARE);
  expect(JSON.parse(sent.body)).toMatchObject({
    index: 'demo_atendimento_data_pt',
    question: 'Qual o status do cliente ***.***.247-25?',
    size: 5,
  });
});

test('revealing on purpose sends the documents as typed', async () => {
  await ctx.client.nlp(
    { provider: 'acme', model: 'm1', messages: [{ role: 'user', content: [{ type: 'text', text: thread }] }] },
    { revealDocuments: true },
  );
  await ctx.client.questions({ index: 'demo_atendimento_data_pt', question: `cliente ${CPF}` }, { revealDocuments: true });
  const bodies = ctx.seen.map((s) => s.body).join('\n');
  for (const d of DOCUMENTS) expect(bodies).toContain(d);
});

test('an upload link that carries a document is refused unless the attendant confirms it', async () => {
  const url = `https://files.example.com/export?cpf=${CPF_BARE}`;
  let refused: unknown;
  try {
    await ctx.client.uploadFiles({ url_file: url, index_engine: 'example.com_faq_data_pt' });
  } catch (e) {
    refused = e;
  }
  expect(isAppError(refused) && refused.kind === 'Invalid' && refused.info.field === 'url_file').toBe(true);
  expect((refused as Error).message).toContain('CPF or CNPJ');
  expect(ctx.seen).toEqual([]);
  // A link with ordinary numbers (dates, ids) goes through; a confirmed one too.
  await ctx.client.uploadFiles({
    url_file: 'https://files.example.com/2026-11-21/faq-123456.csv',
    index_engine: 'example.com_faq_data_pt',
  });
  await ctx.client.uploadFiles({ url_file: url, index_engine: 'example.com_faq_data_pt' }, { revealDocuments: true });
  expect(ctx.seen.map((s) => (JSON.parse(s.body) as { url_file?: unknown }).url_file)).toEqual([
    'https://files.example.com/2026-11-21/faq-123456.csv',
    url,
  ]);
});

test('the log masks documents and secrets wherever they appear', () => {
  const lines: string[] = [];
  const log = createLogger({ stream: { write: (l: string) => lines.push(l) } });
  log.registerSecret(TOKEN);
  log.info(`customer said ${thread}`, {
    text: thread,
    nested: { deeper: [CNPJ_BARE] },
    authorization: `Bearer ${TOKEN}`,
    note: `token=${TOKEN}`,
  });
  log.warn('failure', { error: new Error(`saving ${CPF} failed with ${TOKEN}`) });
  const out = lines.join('');
  for (const d of [...DOCUMENTS, TOKEN]) expect(out).not.toContain(d);
  expect(out).toContain('***.***.247-25');
  expect(out).toContain('Pedido 123456');
});
