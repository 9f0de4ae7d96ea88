import { test, expect } from '@playwright/test';
import { ModelsAnswerSchema, NlpAnswerSchema } from '../../../src-shared/schemas/ai';
import { AI_PATHS, CANNED, aiService, call, type AiService } from './ai-helpers';

/** The local language provider (summary, reply draft) and the model catalogue. */

let svc: AiService;
test.beforeEach(() => {
  svc = aiService();
});
test.afterEach(async () => {
  await svc.close();
});

const words = (s: string) => s.trim().split(/\s+/).filter(Boolean).length;

async function nlp(body: Record<string, unknown>) {
  const r = await call(svc, AI_PATHS.nlp, body);
  if (r.status !== 200) return { status: r.status, json: r.json, answer: null };
  const parsed = NlpAnswerSchema.parse(r.json);
  // The schema is lenient for the client; here the stand-in must answer a real string.
  expect(typeof parsed.message).toBe('string');
  return { status: r.status, json: r.json, answer: { ...parsed, message: String(parsed.message) } };
}

const TRANSCRIPT = [
  'Cliente: Boa tarde!',
  'Atendente: Boa tarde, em que posso ajudar?',
  'Cliente: Comprei uma cafeteira no dia 12/03/2024 e ela chegou quebrada, com a tampa rachada.',
  'Cliente: O número do pedido é 48213.',
  'Atendente: Sinto muito pelo problema. Vou abrir a troca do produto agora.',
  'Atendente: A troca foi registrada com o protocolo 2024-7781 e a coleta será feita em até 5 dias úteis.',
  'Cliente: Obrigado!',
  'Atendente: Posso ajudar em algo mais?',
  'Cliente: Não, era só isso.',
].join('\n');

test('summarises an attendance extractively: the problem and the outcome, in order, no small talk', async () => {
  const { answer } = await nlp({
    messages: [
      { role: 'system', content: [{ type: 'text', text: 'Resuma o atendimento a seguir para o histórico do cliente.' }] },
      { role: 'user', content: [{ type: 'text', text: TRANSCRIPT }] },
    ],
    max_len: 80,
    temperature: 0.2,
    provider: 'local',
    token: [],
    model: 'local-extractive',
  });
  expect(answer).not.toBeNull();
  const msg = answer!.message;
  expect(msg).toMatch(/^Resumo:/);
  // Extractive: every line after the heading is a sentence of the conversation.
  const lines = msg.split('\n').slice(1);
  expect(lines.length).toBeGreaterThanOrEqual(2);
  for (const l of lines) {
    const [, speaker, text] = /^- (Cliente|Atendente): (.+)$/.exec(l) ?? [];
    expect(speaker, l).toBeTruthy();
    expect(TRANSCRIPT).toContain(text!);
  }
  expect(msg).toContain('chegou quebrada');
  expect(msg).toContain('protocolo 2024-7781');
  expect(msg.indexOf('chegou quebrada')).toBeLessThan(msg.indexOf('protocolo 2024-7781'));
  expect(msg).not.toMatch(/Boa tarde!|Obrigado!|era só isso/);
  expect(words(msg)).toBeLessThanOrEqual(80);
  expect(answer!.tool_calls).toBeNull();
  expect(answer!.used_tokens).toBe(words('Resuma o atendimento a seguir para o histórico do cliente.') + words(TRANSCRIPT) + words(msg));
});

test('summary of chat turns given as separate messages, and max_len honoured', async () => {
  const { answer } = await nlp({
    messages: [
      { role: 'user', content: 'Minha internet está caindo toda noite desde segunda-feira.' },
      { role: 'assistant', content: 'Vou verificar a sua linha. O sinal está instável na sua região.' },
      { role: 'user', content: 'E quando vai ser resolvido?' },
      { role: 'assistant', content: 'Um técnico vai visitar sua casa amanhã entre 8h e 12h, protocolo 99812.' },
      { role: 'user', content: [{ type: 'text', text: 'Resuma a conversa acima.' }] },
    ],
    max_len: 20,
    provider: 'local',
  });
  const msg = answer!.message;
  expect(msg).toMatch(/^Resumo:/);
  expect(words(msg)).toBeLessThanOrEqual(20);
  expect(msg).toMatch(/técnico vai visitar|internet está caindo/);
  expect(msg).not.toContain('Resuma a conversa');
});

test('drafts a reply to the last customer message from the demo knowledge base', async () => {
  const { answer } = await nlp({
    messages: [
      { role: 'system', content: 'Sugira uma resposta para o atendente enviar ao cliente.' },
      { role: 'user', content: 'Oi, comprei ontem e queria saber qual o prazo de entrega para o interior?' },
    ],
    max_len: 200,
    provider: 'local',
  });
  const msg = answer!.message;
  expect(msg).toMatch(/^Olá!/);
  expect(msg).toContain('5 a 12 dias úteis para o interior'); // from the demo FAQ
  expect(msg).not.toContain('P:');
});

test('a draft uses the canned texts when they fit, and a plain acknowledgement when nothing does', async () => {
  const boleto = await nlp({ messages: [{ role: 'user', content: 'Preciso da segunda via do boleto' }], provider: 'local' });
  expect(boleto.answer!.message).toContain(CANNED[2]!);
  const nothing = await nlp({ messages: [{ role: 'user', content: 'xyzzy plugh' }], provider: 'local' });
  expect(nothing.answer!.message).toBe('Olá! Obrigado pela mensagem. Vou verificar sua solicitação e já retorno.');
  const english = await nlp({
    messages: [{ role: 'user', content: 'Hi, what is the status of my xyzzy?' }],
    provider: 'local',
    max_len: 50,
  });
  expect(english.answer!.message).toMatch(/^Hello!/);
});

test('max_len caps the words of a draft', async () => {
  const { answer } = await nlp({
    messages: [{ role: 'user', content: 'Como faço para trocar ou devolver um produto?' }],
    provider: 'local',
    max_len: 12,
  });
  expect(words(answer!.message)).toBeLessThanOrEqual(12);
  expect(answer!.message).toMatch(/^Olá! /);
});

test('the local provider says plainly that it cannot see images', async () => {
  const { answer } = await nlp({
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Descreva esta imagem' },
          { type: 'image_url', image_url: { url: 'http://127.0.0.1:9/foto.png' } },
        ],
      },
    ],
    provider: 'local',
  });
  expect(answer!.message).toContain('O provedor local não enxerga imagens');
  expect(answer!.message).toContain('http://127.0.0.1:9/foto.png');
});

test('third-party providers are listed but unreachable: 502 with a clear message', async () => {
  const r = await nlp({
    messages: [{ role: 'user', content: 'Olá' }],
    provider: 'openai',
    model: 'gpt-4o',
    token: [{ access_key: 'k', secret_key: 's', token: 't' }],
  });
  expect(r.status).toBe(502);
  expect(r.json).toEqual({
    status: 'ERROR',
    message: 'provider openai is unreachable from this machine',
    errorCode: 'PROVIDER_UNREACHABLE',
  });
  // The model alone names its provider.
  const byModel = await nlp({ messages: [{ role: 'user', content: 'Olá' }], model: 'claude-sonnet-4' });
  expect(byModel.status).toBe(502);
  expect(byModel.json).toMatchObject({ message: 'provider anthropic is unreachable from this machine' });
});

test('unknown providers and models, and bad bodies, are 400 ERROR envelopes', async () => {
  const p = await nlp({ messages: [{ role: 'user', content: 'Olá' }], provider: 'nowhere' });
  expect(p.status).toBe(400);
  expect(p.json).toMatchObject({ status: 'ERROR', errorCode: 'UNKNOWN_PROVIDER', message: expect.stringContaining('local') });
  const m = await nlp({ messages: [{ role: 'user', content: 'Olá' }], provider: 'local', model: 'gpt-4o' });
  expect(m.status).toBe(400);
  expect(m.json).toMatchObject({ errorCode: 'UNKNOWN_MODEL', message: expect.stringContaining('local-extractive') });
  const empty = await nlp({ messages: [], provider: 'local' });
  expect(empty.status).toBe(400);
  expect(empty.json).toMatchObject({ errorCode: 'INVALID_BODY', message: expect.stringContaining('messages') });
  const badLen = await nlp({ messages: [{ role: 'user', content: 'Olá' }], max_len: -3 });
  expect(badLen.json).toMatchObject({ errorCode: 'INVALID_BODY', message: expect.stringContaining('max_len') });
});

test('models_by_providers lists every field of a model entry, filtered by provider and modality', async () => {
  const get = async (body: Record<string, unknown>) => {
    const r = await call(svc, AI_PATHS.models, body);
    expect(r.status).toBe(200);
    return ModelsAnswerSchema.parse(r.json).Results;
  };
  const all = await get({ provider: '', typeModality: '' });
  const fields = ['id', 'name', 'typeModality', 'flgFunction', 'providerName', 'metadata', 'depreciatedDate', 'active'];
  for (const m of all) for (const f of fields) expect(Object.keys(m), m.id).toContain(f);
  expect(new Set(all.map((m) => m.providerName))).toEqual(new Set(['local', 'openai', 'anthropic']));

  const local = await get({ provider: 'local', typeModality: '' });
  expect(local.map((m) => [m.id, m.typeModality])).toEqual([
    ['local-extractive', 'text'],
    ['pocketsphinx', 'speech-to-text'],
    ['espeak-ng', 'text-to-speech'],
  ]);
  expect(local.every((m) => m.active)).toBe(true); // the speech tools are installed here

  const localText = await get({ provider: 'local', typeModality: 'text' });
  expect(localText.map((m) => m.id)).toEqual(['local-extractive']);
  const stt = await get({ provider: '', typeModality: 'speech-to-text' });
  expect(stt.map((m) => `${m.providerName}/${m.id}`)).toEqual(['local/pocketsphinx', 'openai/whisper-1']);
  const openaiText = await get({ provider: 'OpenAI', typeModality: 'text' });
  expect(openaiText.map((m) => m.id)).toEqual(['gpt-4o', 'gpt-4o-mini']);
  expect(openaiText.every((m) => (m.metadata as { thirdParty?: boolean }).thirdParty === true)).toBe(true);
  expect(await get({ provider: 'nowhere', typeModality: '' })).toEqual([]);
});

test('a model whose speech tool is missing is listed as inactive', async () => {
  const bare = aiService({ voiceBinaries: { pocketsphinx: '/nonexistent/pocketsphinx_continuous' } });
  try {
    const r = await call(bare, AI_PATHS.models, { provider: 'local', typeModality: 'speech-to-text' });
    expect(ModelsAnswerSchema.parse(r.json).Results).toEqual([expect.objectContaining({ id: 'pocketsphinx', active: false })]);
  } finally {
    await bare.close();
  }
});

test('the extractive summary keeps Brazilian amounts and masked documents whole when it splits sentences', async () => {
  const { sentences } = await import('../../../src-standin/ai/text');
  expect(sentences('O valor é R$ 2.082,30. Meu CPF é ***.***.199-02, confirma? Obrigado!')).toEqual([
    'O valor é R$ 2.082,30.',
    'Meu CPF é ***.***.199-02, confirma?',
    'Obrigado!',
  ]);
  expect(sentences('Pedido 1.234.567 entregue…\nNota: 4.5 estrelas')).toEqual(['Pedido 1.234.567 entregue…', 'Nota: 4.5 estrelas']);
});

test('a reply draft answers the conversation’s topic: a password problem gets a password answer, even after a vague last line', async () => {
  const kb = aiService({
    cannedTexts: () => [
      'O prazo de entrega é de até 5 dias úteis após a confirmação do pagamento.',
      'Enviei um link de redefinição de senha para o seu e-mail. Ele vale por 30 minutos.',
    ],
  });
  try {
    const draft = async (...lines: string[]) => {
      const r = await call(kb, AI_PATHS.nlp, {
        messages: [
          {
            role: 'system',
            content: [{ type: 'text', text: 'Sugira uma resposta curta e cordial do atendente para a última mensagem do cliente.' }],
          },
          ...lines.map((l) => ({
            role: l.startsWith('Atendente:') ? 'assistant' : 'user',
            content: [{ type: 'text', text: l }],
          })),
        ],
        provider: 'local',
      });
      return String((r.json as { message: string }).message);
    };
    const password = await draft(
      'Cliente: Não consigo entrar no aplicativo, diz que minha senha está errada.',
      'Atendente: Vou verificar, um momento.',
      'Cliente: Quanto tempo mais vai demorar?',
    );
    expect(password).toContain('senha');
    expect(password).not.toMatch(/entrega/i);
    // The same vague line alone, and a delivery question, keep to their own topic; the same input, the same draft.
    const delivery = await draft('Cliente: Meu pedido não chegou, qual o prazo de entrega?');
    expect(delivery).toMatch(/entrega/i);
    expect(delivery).not.toContain('senha');
    expect(await draft('Cliente: Meu pedido não chegou, qual o prazo de entrega?')).toBe(delivery);
  } finally {
    await kb.close();
  }
});

test('the local provider describes an image it holds, deterministically; an image it does not hold it says it cannot see', async () => {
  const seen = aiService({
    describeMedia: (url) =>
      url.endsWith('/media/foto.png') ? { pt: 'Uma caixa de papelão sobre uma prateleira.', en: 'A cardboard box on a shelf.' } : null,
  });
  try {
    const describe = async (url: string, text = 'Descreva a imagem para o atendente.') => {
      const r = await call(seen, AI_PATHS.nlp, {
        messages: [
          { role: 'system', content: [{ type: 'text', text }] },
          {
            role: 'user',
            content: [
              { type: 'image_url', image_url: { url } },
              { type: 'text', text: 'Legenda do cliente: chegou assim' },
            ],
          },
        ],
        provider: 'local',
      });
      return String((r.json as { message: string }).message);
    };
    expect(await describe('http://127.0.0.1:9/chatapi/1.0/api/v2/media/foto.png')).toBe(
      'Imagem: Uma caixa de papelão sobre uma prateleira.',
    );
    expect(await describe('http://127.0.0.1:9/chatapi/1.0/api/v2/media/foto.png', 'Describe the image for the agent.')).toBe(
      'Image: A cardboard box on a shelf.',
    );
    const unknown = await describe('http://127.0.0.1:9/outra.png');
    expect(unknown).toContain('O provedor local não enxerga imagens');
    expect(unknown).toContain('http://127.0.0.1:9/outra.png');
  } finally {
    await seen.close();
  }
});
