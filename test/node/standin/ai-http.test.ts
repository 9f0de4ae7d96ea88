import { test, expect } from '@playwright/test';
import { NerAnswerSchema, NlpAnswerSchema, QuestionsAnswerSchema, SttAnswerSchema } from '../../../src-shared/schemas/ai';
import { AI_OPS } from '../../../src-shared/paths';
import { startStandin, type Standin } from '../../../src-standin/index';
import { fileServer, type FileServer } from './ai-helpers';

/** The AI family as the console meets it: over HTTP on the stand-in, behind auth and roles. */

let sb: Standin;
let files: FileServer;
test.beforeAll(async () => {
  sb = await startStandin({ sessions: 5 });
  files = await fileServer();
});
test.afterAll(async () => {
  await files.close();
  await sb.close();
});

async function post(path: string, token: string | null, body: unknown, headers: Record<string, string> = {}) {
  const h: Record<string, string> = { ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  const payload = JSON.stringify(body);
  h['content-type'] ??= 'application/json';
  const res = await fetch(`${sb.baseUrl}${path}`, { method: 'POST', headers: h, body: payload });
  const buf = Buffer.from(await res.arrayBuffer());
  const isJson = (res.headers.get('content-type') ?? '').includes('json');
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    json: isJson && buf.length ? (JSON.parse(buf.toString('utf8')) as unknown) : null,
    raw: buf,
  };
}

test('NER over HTTP for an agent token; no token is 401 with {status}', async () => {
  const sentence = 'Meu CPF é 529.982.247-25 e moro em Recife.';
  const r = await post(AI_OPS.ner, sb.tokens.agent, { sentence });
  expect(r.status).toBe(200);
  expect(NerAnswerSchema.parse(r.json).entities.map((e) => [e.label, e.text])).toEqual([
    ['CPF', '529.982.247-25'],
    ['LOC', 'Recife'],
  ]);
  const anon = await post(AI_OPS.ner, null, { sentence });
  expect(anon.status).toBe(401);
  expect(anon.json).toMatchObject({ status: 'Unauthorized' });
});

test('unknown AI paths are 404 {status:"Not Found"}', async () => {
  const r = await post('/transformersapi/1.0/does-not-exist', sb.tokens.agent, {});
  expect(r.status).toBe(404);
  expect(r.json).toMatchObject({ status: 'Not Found' });
});

test('the demo base answers questions, and nlp drafts a reply from it', async () => {
  const q = await post(AI_OPS.questions, sb.tokens.agent, {
    index: 'demo_atendimento_data_pt',
    question: 'como cancelo meu pedido?',
    size: 2,
  });
  expect(q.status).toBe(200);
  const answer = QuestionsAnswerSchema.parse(q.json).answer;
  expect(answer).toHaveLength(2);
  expect(answer[0]?.text).toContain('Cancelar pedido');

  const n = await post(AI_OPS.nlp, sb.tokens.agent, {
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Como cancelo meu pedido?' }] }],
    max_len: 60,
    temperature: 0,
    provider: 'local',
    token: [],
    model: 'local-extractive',
  });
  expect(n.status).toBe(200);
  expect(NlpAnswerSchema.parse(n.json).message).toContain('Cancelar pedido');
});

test('upload is for admins: 403 for an agent, then the admin upload is indexed and searchable', async () => {
  files.put(
    'horario.txt',
    'O atendimento por telefone funciona das 7h às 22h, todos os dias.\n\nA loja física fica em Manaus.',
    'text/plain',
  );
  const body = { url_file: files.url('horario.txt'), index_engine: 'loja_http_data_pt' };
  const denied = await post(AI_OPS.uploadFiles, sb.tokens.agent, body);
  expect(denied.status).toBe(403);
  expect(denied.json).toMatchObject({ status: 'Forbidden' });

  const accepted = await post(AI_OPS.uploadFiles, sb.tokens.admin, body);
  expect(accepted.status).toBe(200);
  expect(accepted.json).toMatchObject({ message: expect.stringContaining('is being processed and indexed') });
  await expect
    .poll(
      async () => {
        const r = await post(AI_OPS.questions, sb.tokens.agent, { index: 'loja_http_data_pt', question: 'onde fica a loja?', size: 1 });
        return r.status === 200 ? (QuestionsAnswerSchema.parse(r.json).answer[0]?.text ?? '') : `HTTP ${r.status}`;
      },
      { timeout: 15_000 },
    )
    .toContain('Manaus');

  const drive = await post(AI_OPS.uploadFiles, sb.tokens.admin, {
    url_file: 'https://drive.google.com/file/d/1/view',
    index_engine: 'loja_http_data_pt',
  });
  expect(drive.status).toBe(400);
  expect(drive.json).toMatchObject({ status: 'ERROR', errorCode: 'DRIVE_LINK_REFUSED' });
});

test('speech over HTTP: TTS answers audio/wav, and STT reads it back from multipart', async () => {
  const spoken = await post(AI_OPS.tts, sb.tokens.agent, { text: 'I would like to cancel my order', language: 'en-US', voice: 'klatt' });
  expect(spoken.status).toBe(200);
  expect(spoken.type).toBe('audio/wav');
  expect(spoken.raw.length).toBeGreaterThan(20_000);

  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(spoken.raw)], { type: 'audio/wav' }), 'fala.wav');
  form.append('language', 'en-US');
  const res = await fetch(`${sb.baseUrl}${AI_OPS.stt}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.tokens.agent}` },
    body: form,
  });
  expect(res.status).toBe(200);
  const body = SttAnswerSchema.parse(await res.json());
  expect(body.text).toMatch(/\bcancel\b.*\border\b/);
});
