import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { QuestionsAnswerSchema, UploadAnswerSchema } from '../../../src-shared/schemas/ai';
import { AI_PATHS, aiService, call, fileServer, indexStatus, settled, type AiService, type FileServer } from './ai-helpers';
import { FAQ, PARSED_FORMATS } from '../../support/kb-files';

/**
 * Knowledge bases: upload from a loopback URL, background indexing, retrieval closest first.
 * Every fixture is written by a writer library (test/support/kb-files.ts), so each parser meets a real file.
 */

const csv = (delimiter: string) =>
  [['id', 'pergunta', 'resposta'], ...FAQ.map((f) => [f.id, f.pergunta, f.resposta])]
    .map((r) => r.map((c) => (c.includes(delimiter) || c.includes('"') ? `"${c.replace(/"/g, '""')}"` : c)).join(delimiter))
    .join('\r\n');

async function upload(svc: AiService, body: Record<string, string>) {
  return call(svc, AI_PATHS.upload, body);
}

async function ask(svc: AiService, index: string, question: string, size = 3) {
  const r = await call(svc, AI_PATHS.questions, { index, question, size });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return QuestionsAnswerSchema.parse(r.json).answer;
}

let files: FileServer;
let svc: AiService;
test.beforeAll(async () => {
  files = await fileServer();
});
test.afterAll(async () => {
  await files.close();
});
test.beforeEach(() => {
  svc = aiService();
});
test.afterEach(async () => {
  await svc.close();
});

test('the demo base answers from the first start, closest first, size honoured', async () => {
  const answer = await ask(svc, 'demo_atendimento_data_pt', 'quanto tempo demora a entrega do meu pedido?', 2);
  expect(answer).toHaveLength(2);
  expect(answer[0]?.text).toContain('prazo de entrega');
  expect(answer[0]!.score).toBeGreaterThan(answer[1]!.score);
  const pix = await ask(svc, 'demo_atendimento_data_pt', 'Tem desconto pagando no pix?', 1);
  expect(pix).toHaveLength(1);
  expect(pix[0]?.text).toMatch(/Pix/);
  // No shared word with the answer: the words customers use for a refund still find it.
  const refund = await ask(svc, 'demo_atendimento_data_pt', 'quero meu dinheiro de volta', 1);
  expect(refund[0]?.text).toContain('reembolso');
  const senha = await ask(svc, 'demo_atendimento_data_pt', 'esqueci a senha', 5);
  expect(senha[0]?.text).toContain('Esqueci minha senha');
  expect(senha.length).toBeLessThanOrEqual(5);
  for (let i = 1; i < senha.length; i++) expect(senha[i - 1]!.score).toBeGreaterThanOrEqual(senha[i]!.score);
});

test('a size above 50 is trimmed to 50 answers, and a size below 1 is a 400', async () => {
  files.put(
    'muitos.txt',
    Array.from({ length: 60 }, (_, i) => `Aviso ${i + 1}: a garantia do produto ${i + 1} é válida.`).join('\n\n'),
    'text/plain',
  );
  await upload(svc, { url_file: files.url('muitos.txt'), index_engine: 'loja_muitos_data_pt' });
  expect(await settled(svc, 'loja_muitos_data_pt')).toMatchObject({ state: 'ready', documents: 60 });
  expect(await ask(svc, 'loja_muitos_data_pt', 'garantia do produto', 1000)).toHaveLength(50);
  expect(await ask(svc, 'loja_muitos_data_pt', 'garantia do produto', 7)).toHaveLength(7);
  const zero = await call(svc, AI_PATHS.questions, { index: 'demo_atendimento_data_pt', question: 'entrega', size: 0 });
  expect(zero.status).toBe(400);
  expect(zero.json).toMatchObject({ status: 'ERROR', errorCode: 'INVALID_BODY', message: expect.stringContaining('size') });
});

test('an unknown base is 404 Not Found', async () => {
  const r = await call(svc, AI_PATHS.questions, { index: 'nada_aqui_data_pt', question: 'oi', size: 1 });
  expect(r.status).toBe(404);
  expect(r.json).toMatchObject({ status: 'Not Found' });
});

const ROUND_TRIPS: Array<{ ext: string; type: string; make: () => Promise<Buffer> | Buffer; extra?: Record<string, string> }> = [
  { ext: 'txt', type: 'text/plain; charset=utf-8', make: () => Buffer.from(FAQ.map((f) => `${f.pergunta}\n${f.resposta}`).join('\n\n')) },
  { ext: 'csv', type: 'text/csv', make: () => Buffer.from(csv(';')) },
  { ext: 'tsv', type: 'text/tab-separated-values', make: () => Buffer.from(csv('\t')) },
  { ext: 'json', type: 'application/json', make: () => Buffer.from(JSON.stringify({ faq: FAQ })), extra: { id_doc_engine: 'id' } },
  ...PARSED_FORMATS,
];

for (const rt of ROUND_TRIPS) {
  test(`upload then ask: .${rt.ext}`, async () => {
    const name = `faq-${rt.ext}.${rt.ext}`;
    files.put(name, await rt.make(), rt.type);
    const index = `loja.exemplo.com_faq${rt.ext}_data_pt`;
    const r = await upload(svc, { url_file: files.url(name), index_engine: index, ...rt.extra });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(UploadAnswerSchema.parse(r.json).message).toContain('is being processed and indexed');

    const status = await settled(svc, index);
    expect(status, JSON.stringify(status)).toMatchObject({ state: 'ready', error: null, documents: FAQ.length });

    const troca = await ask(svc, index, 'quero trocar um produto', 2);
    expect(troca[0]?.text).toContain('30 dias');
    const pix = await ask(svc, index, 'desconto no pix', 4);
    expect(pix[0]?.text).toContain('5% de desconto');
    expect(pix.length).toBeLessThanOrEqual(4);
  });
}

test('json records sharing an id_doc_engine value form one document', async () => {
  const records = [
    { sku: 'A1', campo: 'nome', valor: 'Cafeteira elétrica' },
    { sku: 'A1', campo: 'garantia', valor: 'garantia de 12 meses' },
    { sku: 'B2', campo: 'nome', valor: 'Liquidificador' },
  ];
  files.put('produtos.json', JSON.stringify(records), 'application/json');
  const index = 'loja_produtos_data_pt';
  expect((await upload(svc, { url_file: files.url('produtos.json'), index_engine: index, id_doc_engine: 'sku' })).status).toBe(200);
  expect(await settled(svc, index)).toMatchObject({ state: 'ready', documents: 2 });
  const a = await ask(svc, index, 'qual a garantia da cafeteira?', 1);
  expect(a[0]?.text).toContain('Cafeteira elétrica');
  expect(a[0]?.text).toContain('garantia de 12 meses');
});

test('a base of the same name is overwritten, and the old version answers until the new one is ready', async () => {
  const index = 'loja_sobrescrever_data_pt';
  files.put('v1.txt', 'O horário de atendimento é das 8h às 18h.\n\nA loja fica em Curitiba.', 'text/plain');
  files.put('v2.txt', 'Agora o atendimento funciona 24 horas por dia.\n\nA loja mudou para Recife.', 'text/plain');
  await upload(svc, { url_file: files.url('v1.txt'), index_engine: index });
  await settled(svc, index);
  expect((await ask(svc, index, 'onde fica a loja?', 1))[0]?.text).toContain('Curitiba');

  await upload(svc, { url_file: files.url('v2.txt'), index_engine: index });
  // While v2 may still be indexing, v1 keeps answering (never a 404 for a base that was ready).
  const during = await call(svc, AI_PATHS.questions, { index, question: 'onde fica a loja?', size: 1 });
  expect(during.status).toBe(200);
  const after = await settled(svc, index);
  expect(after.source).toBe(files.url('v2.txt'));
  const now = await ask(svc, index, 'onde fica a loja?', 5);
  expect(now[0]?.text).toContain('Recife');
  expect(JSON.stringify(now)).not.toContain('Curitiba');
});

test('a base still being indexed answers 404 saying so; a failed one says why', async () => {
  // A file server that holds the answer back until the test lets it go.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const { createServer } = await import('node:http');
  const slow = createServer((_req, res) => {
    void held.then(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('Conteúdo liberado.'));
  });
  await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
  const port = (slow.address() as { port: number }).port;
  try {
    const index = 'loja_lenta_data_pt';
    expect((await upload(svc, { url_file: `http://127.0.0.1:${port}/lento.txt`, index_engine: index })).status).toBe(200);
    expect(await indexStatus(svc, index)).toMatchObject({ state: 'indexing', pending: true });
    const r = await call(svc, AI_PATHS.questions, { index, question: 'conteúdo', size: 1 });
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ status: 'Not Found', message: expect.stringContaining('still being indexed') });
    release();
    expect(await settled(svc, index)).toMatchObject({ state: 'ready' });
  } finally {
    release();
    await new Promise<void>((r) => {
      slow.close(() => r());
      slow.closeAllConnections();
    });
  }

  const index = 'loja_falha_data_pt';
  await upload(svc, { url_file: files.url('nao-existe.txt'), index_engine: index });
  expect(await settled(svc, index)).toMatchObject({ state: 'failed', error: expect.stringContaining('HTTP 404') });
  const r = await call(svc, AI_PATHS.questions, { index, question: 'x', size: 1 });
  expect(r.status).toBe(404);
  expect(r.json).toMatchObject({ status: 'Not Found', message: expect.stringContaining('could not be indexed') });
});

test('drive links, unsupported types and malformed names are refused with 400 and a reason', async () => {
  const ok = files.url('faq.txt');
  const cases: Array<[Record<string, string>, string, RegExp]> = [
    [{ url_file: 'https://drive.google.com/file/d/abc/view', index_engine: 'loja_faq_data_pt' }, 'DRIVE_LINK_REFUSED', /Google Drive/],
    [{ url_file: 'https://www.dropbox.com/s/abc/faq.pdf?dl=1', index_engine: 'loja_faq_data_pt' }, 'DRIVE_LINK_REFUSED', /Dropbox/],
    [{ url_file: 'https://1drv.ms/x/s!abc', index_engine: 'loja_faq_data_pt' }, 'DRIVE_LINK_REFUSED', /OneDrive/],
    [{ url_file: 'https://empresa.sharepoint.com/sites/a/faq.docx', index_engine: 'loja_faq_data_pt' }, 'DRIVE_LINK_REFUSED', /SharePoint/],
    [{ url_file: `${ok.replace('faq.txt', 'manual.pptx')}`, index_engine: 'loja_faq_data_pt' }, 'UNSUPPORTED_FILE_TYPE', /\.pptx/],
    [{ url_file: 'ftp://127.0.0.1/faq.txt', index_engine: 'loja_faq_data_pt' }, 'INVALID_URL', /http/],
    [{ url_file: ok, index_engine: 'faq' }, 'INVALID_INDEX_NAME', /\{hostname\}_\{identifier\}_data_pt/],
    [{ url_file: ok, index_engine: 'loja_faq_data_en' }, 'INVALID_INDEX_NAME', /_data_pt/],
    [{ url_file: ok, index_engine: 'Loja_FAQ_data_pt' }, 'INVALID_INDEX_NAME', /lower case/],
    [{ url_file: ok, index_engine: 'loja faq_x_data_pt' }, 'INVALID_INDEX_NAME', /_data_pt/],
  ];
  for (const [body, code, reason] of cases) {
    const r = await upload(svc, body);
    expect(r.status, JSON.stringify(body)).toBe(400);
    expect(r.json, JSON.stringify(body)).toMatchObject({ status: 'ERROR', errorCode: code, message: expect.stringMatching(reason) });
  }
  const missing = await upload(svc, { index_engine: 'loja_faq_data_pt' });
  expect(missing.json).toMatchObject({ status: 'ERROR', errorCode: 'INVALID_BODY', message: expect.stringContaining('url_file') });
  // Nothing refused was fetched, and no base was made for a refused upload.
  expect(files.hits('manual.pptx')).toBe(0);
  expect(await indexStatus(svc, 'loja_faq_data_pt')).toBeNull();
});

test('with a data folder, bases come back after a restart', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'ai-kb-'));
  try {
    files.put('persist.csv', csv(','), 'text/csv');
    const first = aiService({ dataDir });
    await upload(first, { url_file: files.url('persist.csv'), index_engine: 'loja_persiste_data_pt' });
    await settled(first, 'loja_persiste_data_pt');
    await first.close();

    const second = aiService({ dataDir });
    try {
      expect(await indexStatus(second, 'loja_persiste_data_pt')).toMatchObject({
        state: 'ready',
        documents: FAQ.length,
        source: files.url('persist.csv'),
      });
      expect((await ask(second, 'loja_persiste_data_pt', 'pagar com pix', 1))[0]?.text).toContain('Pix');
    } finally {
      await second.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
