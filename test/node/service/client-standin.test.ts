import { test, expect } from '@playwright/test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { personOf } from '../../../src-shared/concepts';
import { AppError } from '../../../src-shared/errors';
import { RESOURCE_KEYS, RESOURCES, V2, type ResourceKey } from '../../../src-shared/paths';
import { query } from '../../../src-shared/query-builder';
import type { Condition } from '../../../src-shared/query';
import { createLogger } from '../../../src-main/log';
import { createServiceClient, type ServiceClient, type ServiceClientOptions } from '../../../src-main/service/index';
import { startStandin, type Standin } from '../../../src-standin/index';
import { DEMO_TICKET_ID, NPS_SURVEY } from '../../../src-standin/seed';
import { failure } from '../../support/errors';

/** The client against the service stand-in over real HTTP: every operation, every error kind. */

const logLines: string[] = [];
const log = createLogger({ level: 'debug', stream: { write: (l: string) => logLines.push(l) } });

let sb: Standin;
const clients: ServiceClient[] = [];

function clientAs(role: keyof Standin['tokens'], extra: Partial<ServiceClientOptions> = {}): ServiceClient {
  const c = createServiceClient({
    baseUrl: sb.baseUrl,
    getToken: async () => sb.tokens[role],
    log,
    retry: { baseDelayMs: 10, maxDelayMs: 50 },
    ...extra,
  });
  clients.push(c);
  return c;
}

test.beforeAll(async () => {
  sb = await startStandin({ port: 0 });
});
test.afterAll(async () => {
  for (const c of clients) await c.close();
  await sb?.close();
});
test.afterEach(() => sb.faults.clear());

/** Ids the create bodies refer to, read from the seed through the client. */
interface Refs {
  sessionId: number;
  userId: number;
  agentId: number;
  attributeId: number;
  hsmTemplateId: number;
}

async function refs(admin: ServiceClient): Promise<Refs> {
  const first = async (key: ResourceKey): Promise<number> => {
    const page = await admin.resource(key).list({ size: 1 });
    const id = (page.results[0] as { id?: number | null } | undefined)?.id;
    if (typeof id === 'number') return id;
    // Nothing seeded there: make one so the table can run.
    const made = await admin.resource(key).save({});
    return (made as { id: number }).id;
  };
  const open = await admin.saveSession({ userConnectedResource: 'chatApp', status: 'OPEN' });
  return {
    sessionId: open.id!,
    userId: await first('user'),
    agentId: await first('agent'),
    attributeId: await first('attribute'),
    hsmTemplateId: await first('hsmTemplate'),
  };
}

/** A minimal new record per savable resource, and the condition that finds it again. */
function createCase(
  key: ResourceKey,
  r: Refs,
  n: number,
): { body: Record<string, unknown>; find(saved: Record<string, unknown>): Condition[] } {
  const byId = (saved: Record<string, unknown>) =>
    query()
      .where('id')
      .eqNum(saved.id as number)
      .build().conditions;
  const now = new Date().toISOString();
  const bodies: Partial<Record<ResourceKey, Record<string, unknown>>> = {
    agent: { department: 'Qualidade', status: 'OFFLINE', extensionAttendance: `20${n}` },
    userSession: { userConnectedResource: 'email', status: 'OPEN' },
    userAttribute: { attribute: { id: r.attributeId }, value: 'ouro' },
    userAttributeHistory: { userAttributesHistId: { sessionId: r.sessionId, userAttributesId: 9000 + n } },
    userAgent: { associationId: { userId: r.userId, agentId: r.agentId } },
    botTag: { session: { id: r.sessionId }, tag: 'qualidade', message: 'tag de teste' },
    sessionComment: { sessionId: r.sessionId, comment: `nota ${n}` },
    message: { session: { id: r.sessionId }, message: `mensagem ${n}` },
    messageBundleGroup: { code: `QA${n}`, text: 'Olá, posso ajudar?', locale: 'pt_BR', group: { id: 1 } },
    hsmTemplate: { elementName: `qa_${n}`, template: 'Olá {{1}}', parameterCount: 1, language: 'pt_BR', active: true },
    hsmTemplateGroup: { hsmTemplateGroupId: { groupConfId: 1, hsmTemplateId: r.hsmTemplateId }, hsmTemplate: { id: r.hsmTemplateId } },
    holidayOperation: { holidayOperationId: { holidayId: 700 + n, operationId: 1 }, holiday: { name: 'Natal' } },
    attribute: { description: `Faixa ${n}`, active: true },
    bot: { active: true, external: false },
    botAnswer: { answer: 'sim', session: { id: r.sessionId }, botQuestions: { id: 1, seq: 1 } },
    call: { callId: `c-${n}`, kind: 'INBOUND', status: 'RINGING', sessionId: r.sessionId, startedAt: now },
    callLogHistory: { callId: `c-${n}`, eventType: 'RING', eventDate: now },
    chatAnswer: { questionId: 1, sessionId: r.sessionId, value: '10' },
    chatWebConfiguration: { initialMessage: 'Olá!', chatGroupConf: { id: 1 } },
    classification: { value: `Dúvida ${n}`, active: true },
    classificationService: { sessionId: r.sessionId, displayName: 'Dúvida', groupConfId: 1 },
    cognition: { name: `conexão ${n}`, type: 'LLM', endPoint: 'http://127.0.0.1:9/llm' },
    workSchedule: { name: 'Comercial', dayCode: 1, openTime: '08:00', closeTime: '18:00', active: true },
    user: { userName: `qa.user.${n}`, name: 'Pessoa de Teste', cpf: '529.982.247-25' },
  };
  const finders: Partial<Record<ResourceKey, (s: Record<string, unknown>) => Condition[]>> = {
    userAttributeHistory: () =>
      query()
        .where('userAttributesHistId.userAttributesId')
        .eqNum(9000 + n)
        .build().conditions,
    userAgent: () => query().where('associationId.userId').eqNum(r.userId).and('associationId.agentId').eqNum(r.agentId).build().conditions,
    hsmTemplateGroup: () => query().where('hsmTemplateGroupId.hsmTemplateId').eqNum(r.hsmTemplateId).build().conditions,
  };
  return { body: bodies[key] ?? {}, find: finders[key] ?? byId };
}

test.describe('every resource, table-driven', () => {
  for (const [n, key] of RESOURCE_KEYS.entries()) {
    const paths = RESOURCES[key];
    test(`${key}: ${paths.list ? 'list' : ''}${paths.list && paths.save ? ' + ' : ''}${paths.save ? 'save' : ''}`, async () => {
      const admin = clientAs('admin');
      const r = await refs(admin);
      const resource = admin.resource(key);
      expect(resource.canList).toBe(paths.list !== null);
      expect(resource.canSave).toBe(paths.save !== null);

      if (paths.list) {
        const page = await resource.list(query().size(5));
        expect(page.page).toBe(0);
        expect(page.results.length).toBeLessThanOrEqual(5);
      } else {
        expect((await failure(resource.list())).kind).toBe('Invalid');
      }

      if (!paths.save) {
        expect((await failure(resource.save({}))).kind).toBe('Invalid');
        return;
      }
      const c = createCase(key, r, n);
      const saved = (await resource.save(c.body)) as Record<string, unknown>;
      for (const [field, value] of Object.entries(c.body)) {
        if (value === null || typeof value !== 'object') expect(saved[field], `${key}.${field}`).toEqual(value);
      }
      if (paths.list) {
        const found = await resource.pageAll({ conditions: c.find(saved), sort: false });
        expect(found.length).toBeGreaterThanOrEqual(1);
        if (typeof saved.id === 'number') expect(found.map((x) => (x as { id?: unknown }).id)).toContain(saved.id);
      }
    });
  }
});

test('upsert: a save with an existing id updates it; an unknown id is NotFound', async () => {
  const admin = clientAs('admin');
  const created = await admin.resource('attribute').save({ description: 'antes', active: true });
  const updated = await admin.resource('attribute').save({ id: created.id, description: 'depois' });
  expect(updated).toMatchObject({ id: created.id, description: 'depois', active: true });
  const e = await failure(admin.resource('attribute').save({ id: 987_654, description: 'x' }));
  expect(e.kind).toBe('NotFound');
  expect(e.message).toContain('no longer exists');
});

test('§4.3 operations and the added v2 paths', async () => {
  const admin = clientAs('admin');
  const sup = clientAs('supervisor');

  const suggestions = await admin.chatSuggestions(query().size(3));
  expect(suggestions.results.length).toBeGreaterThan(0);
  expect(suggestions.results.length).toBeLessThanOrEqual(3);
  expect(typeof suggestions.results[0]?.suggestion).toBe('string');

  const nps = await sup.npsSummary(NPS_SURVEY);
  expect(nps.totalCount).toBeGreaterThan(0);
  expect(nps.positive + nps.neutral + nps.negative).toBe(nps.totalCount);
  expect((await failure(sup.npsSummary('no-such-survey'))).kind).toBe('NotFound');

  const group = await admin.groupUnique(query().where('id').eqNum(1));
  expect(group.id).toBe(1);
  expect((await failure(admin.groupUnique(query().where('id').eqNum(999_999)))).kind).toBe('NotFound');

  const s = await admin.saveSession({ userConnectedResource: 'sms', status: 'OPEN', agent: { id: 1 } });
  expect(s.status).toBe('OPEN');
  const assigned = await admin.saveSession({ id: s.id, lastAgent: sb.demoAgent.userName });
  expect(assigned.lastAgent).toBe(sb.demoAgent.userName);
  const unique = await admin.sessionUnique(query().where('id').eqNum(s.id!));
  expect(personOf(unique.agent)?.userName).toBe(sb.demoAgent.userName);
  expect(unique.userConnectedResource).toBe('sms');

  const stamp = Date.now().toString(36);
  expect((await admin.saveAgentSupervisor({ userName: `sup.${stamp}`, name: 'Sup' })).typeUser).toBe('SUPERVISOR');
  expect((await admin.saveAgentUser({ userName: `ag.${stamp}`, name: 'Ag' })).typeUser).toBe('AGENT');
  expect((await admin.saveAdministrator({ userName: `adm.${stamp}`, name: 'Adm' })).typeUser).toBe('ADMINISTRATOR');

  const agent = clientAs('agent');
  const rules = await agent.userRules();
  expect(rules.userName).toBe(sb.demoAgent.userName);
  expect(rules.rules).toContain('comments:write');
  expect(rules.rules).not.toContain('admin:write');
  const channels = await agent.userChannels();
  expect(channels.channels?.length).toBeGreaterThan(0);
  expect((await failure(agent.userRules({ userName: 'admin' }))).kind).toBe('Forbidden');
  expect((await sup.userRules({ userName: 'admin' })).rules).toContain('admin:write');
});

test('ticket lookup: found by id, NotFound otherwise', async () => {
  const agent = clientAs('agent');
  const t = await agent.ticket(String(DEMO_TICKET_ID));
  expect(t.id).toBe(DEMO_TICKET_ID);
  expect(typeof t.title).toBe('string');
  const e = await failure(agent.ticket('SUP-0000000'));
  expect(e.kind).toBe('NotFound');
  expect(e.message).toContain('SUP-0000000');
});

test('AI family: ner, nlp, models, questions, upload, stt, tts', async () => {
  const admin = clientAs('admin');
  const ner = await admin.ner('Meu CPF é 529.982.247-25 e moro em São Paulo.');
  expect(ner.entities.length).toBeGreaterThan(0);
  expect(ner.entities.some((e) => e.text.includes('529.982.247-25'))).toBe(true);

  const models = await admin.modelsByProviders({ provider: '' });
  expect(models.length).toBeGreaterThan(0);
  const textModel = models.find((m) => m.typeModality.toLowerCase().includes('text')) ?? models[0]!;

  const nlp = await admin.nlp({
    provider: textModel.providerName,
    model: textModel.id,
    max_len: 64,
    temperature: 0,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Resuma: cliente quer trocar o produto.' }] }],
    token: [{ access_key: 'provider-access-key-123', secret_key: 'provider-secret-key-456' }],
  });
  // The local model is extractive: its summary quotes the conversation's sentence.
  expect(nlp.message).toContain('cliente quer trocar o produto');
  expect(nlp.used_tokens).toBeGreaterThan(0);

  // The stand-in fetches the file itself: serve one on loopback.
  const files = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Para trocar um produto, leve a nota fiscal a qualquer loja em até 30 dias.\nO frete é grátis acima de R$ 200.\n');
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  const fileUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/faq.txt`;
  const upload = await admin.uploadFiles({ url_file: fileUrl, index_engine: 'vilaserena.com.br_faq_data_pt', separator_doc_engine: '\n' });
  expect(upload.message).toContain(fileUrl);
  expect(upload.message).toContain('vilaserena.com.br_faq_data_pt');
  const bad = await failure(
    admin.uploadFiles({ url_file: 'https://drive.google.com/file/x', index_engine: 'vilaserena.com.br_faq_data_pt' }),
  );
  expect(bad.kind).toBe('Invalid');
  expect((await failure(admin.uploadFiles({ url_file: 'http://127.0.0.1:9/a.txt', index_engine: 'faq' }))).kind).toBe('Invalid');

  const ask = () =>
    admin.questions({ index: 'vilaserena.com.br_faq_data_pt', question: 'como trocar um produto?', size: 2 }).catch((e: unknown) => {
      if (e instanceof AppError && e.kind === 'NotFound') return [];
      throw e;
    });
  await expect.poll(async () => (await ask()).length, { timeout: 15_000 }).toBeGreaterThan(0);
  const answers = await ask();
  expect(answers.length).toBeLessThanOrEqual(2);
  expect(answers[0]!.text).toContain('trocar');
  files.close();
  expect((await failure(admin.questions({ index: 'nada.com_nada_data_pt', question: 'x' }))).kind).toBe('NotFound');

  // English words and the voice pocketsphinx's English model hears best (the only model here).
  const wav = await admin.tts({ text: 'I would like to cancel my order', language: 'en-US', voice: 'klatt' });
  expect(Buffer.from(wav.subarray(0, 4)).toString('latin1')).toBe('RIFF');
  const stt = await admin.stt({ file: wav, language: 'en-US', filename: 'order.wav' });
  // What was spoken comes back as words (speech packages missing would fail the call itself).
  expect(stt.text).toMatch(/\bcancel\b/);
  expect(stt.text).toMatch(/\border\b/);
  expect(stt.language).toBe('en-US');

  const agent = clientAs('agent');
  expect(
    (await failure(agent.uploadFiles({ url_file: 'http://127.0.0.1:9/faq.txt', index_engine: 'vilaserena.com.br_faq_data_pt' }))).kind,
  ).toBe('Forbidden');
});

test('roles: an agent token is Forbidden on admin saves, with a message naming what was refused', async () => {
  const agent = clientAs('agent');
  const e = await failure(agent.resource('cognition').save({ name: 'x' }));
  expect(e.kind).toBe('Forbidden');
  expect(e.message).toBe('Your role cannot save AI connections (403). Ask a supervisor or an administrator.');
  expect((await failure(agent.resource('user').save({ userName: 'nope.nope' }))).kind).toBe('Forbidden');
});

test('a refused token is Unauthorized and tells the vault once per refusal', async () => {
  let refused = 0;
  const c = createServiceClient({
    baseUrl: sb.baseUrl,
    getToken: async () => 'not-a-real-token-000',
    log,
    onUnauthorized: () => refused++,
  });
  clients.push(c);
  const e = await failure(c.resource('userSession').list());
  expect(e.kind).toBe('Unauthorized');
  expect(e.message).toBe('The service refused the token (401). Sign in again.');
  expect((await failure(c.ticket('1'))).kind).toBe('Unauthorized');
  expect(refused).toBe(2);
});

test('an unknown key is Invalid with the service message and errorCode', async () => {
  const admin = clientAs('admin');
  const e = await failure(admin.resource('userSession').list(query().where('colour').eq('blue')));
  expect(e.kind).toBe('Invalid');
  expect(e.info.status).toBe(400);
  expect(e.info.errorCode).toBeTruthy();
  expect(e.message).toContain('colour');
});

test('fault: 503 on a read is retried until it answers; on a write it is handed back at once', async () => {
  const admin = clientAs('admin');
  const listPath = V2 + RESOURCES.workSchedule.list;
  await sb.faults.set([{ match: { method: 'POST', path: listPath }, kind: 'status', status: 503, count: 2 }]);
  const page = await admin.resource('workSchedule').list();
  expect(page.page).toBe(0);

  await sb.faults.set([{ match: { method: 'POST', path: listPath }, kind: 'status', status: 503 }]);
  const e = await failure(admin.resource('workSchedule').list());
  expect(e.info).toMatchObject({ kind: 'Unavailable', status: 503 });

  await sb.faults.set([{ match: { method: 'POST', path: V2 + RESOURCES.attribute.save }, kind: 'status', status: 502, count: 1 }]);
  const w = await failure(admin.resource('attribute').save({ description: 'x' }));
  expect(w.info).toMatchObject({ kind: 'Unavailable', status: 502 });
  // The fault was used up by that one attempt: nothing was repeated behind the caller's back.
  const again = await admin.resource('attribute').save({ description: 'y' });
  expect(again.description).toBe('y');
});

test('fault: Retry-After is honoured on reads; a rate-limited write is handed back with retryAfterMs', async () => {
  const admin = clientAs('admin');
  await sb.faults.set([
    { match: { method: 'POST', path: V2 + RESOURCES.pauseReason.list }, kind: 'rateLimit', retryAfterSeconds: 1, count: 1 },
  ]);
  const started = Date.now();
  await admin.resource('pauseReason').list();
  expect(Date.now() - started).toBeGreaterThanOrEqual(1000);

  await sb.faults.set([
    { match: { method: 'POST', path: V2 + RESOURCES.chatAnswer.save }, kind: 'rateLimit', retryAfterSeconds: 2, count: 1 },
  ]);
  const e = await failure(admin.resource('chatAnswer').save({ value: '1' }));
  expect(e.info).toMatchObject({ kind: 'RateLimited', status: 429, retryAfterMs: 2000 });
  expect(e.message).toContain('Try again in 2 s');

  // Longer than the client will wait: handed back rather than blocking the caller.
  const patient = clientAs('admin', { retry: { maxRetryAfterMs: 1000 } });
  await sb.faults.set([
    { match: { method: 'POST', path: V2 + RESOURCES.pauseReason.list }, kind: 'rateLimit', retryAfterSeconds: 60, count: 1 },
  ]);
  expect((await failure(patient.resource('pauseReason').list())).info).toMatchObject({ kind: 'RateLimited', retryAfterMs: 60_000 });
});

test('fault: a save dropped after commit is OutcomeUnknown, stored once and never repeated', async () => {
  const agent = clientAs('agent');
  const admin = clientAs('admin');
  const { sessionId } = await refs(admin);
  const text = `nota perdida ${Date.now()}`;
  await sb.faults.set([{ match: { method: 'POST', path: V2 + RESOURCES.sessionComment.save }, kind: 'dropAfterCommit', count: 1 }]);
  const e = await failure(agent.resource('sessionComment').save({ sessionId, comment: text }));
  expect(e.kind).toBe('OutcomeUnknown');
  expect(e.message).toContain('may or may not have been saved');
  const stored = await agent.resource('sessionComment').pageAll(query().where('sessionId').eqNum(sessionId).and('comment').eq(text));
  expect(stored).toHaveLength(1);
});

test('fault: reset connections; a read gives up as Unavailable, a write as OutcomeUnknown', async () => {
  const admin = clientAs('admin');
  await sb.faults.set([{ match: { method: 'POST', path: V2 + RESOURCES.call.list }, kind: 'reset', count: 1 }]);
  expect((await admin.resource('call').list()).page).toBe(0);
  await sb.faults.set([{ match: { method: 'POST', path: V2 + RESOURCES.call.list }, kind: 'reset' }]);
  const e = await failure(admin.resource('call').list());
  expect(e.kind).toBe('Unavailable');
  await sb.faults.set([{ match: { method: 'POST', path: V2 + RESOURCES.call.save }, kind: 'reset', count: 1 }]);
  expect((await failure(admin.resource('call').save({ callId: 'r-1' }))).kind).toBe('OutcomeUnknown');
});

test('fault: malformed JSON is BadResponse on a read and OutcomeUnknown on a write', async () => {
  const admin = clientAs('admin');
  await sb.faults.set([{ match: { method: 'POST', path: V2 + RESOURCES.bot.list }, kind: 'malformedJson', count: 1 }]);
  const r = await failure(admin.resource('bot').list());
  expect(r.info).toMatchObject({ kind: 'BadResponse', operation: 'bot.list', reason: 'malformed' });
  await sb.faults.set([{ match: { method: 'POST', path: V2 + RESOURCES.bot.save }, kind: 'malformedJson', count: 1 }]);
  expect((await failure(admin.resource('bot').save({ active: true }))).kind).toBe('OutcomeUnknown');
});

test('fault: latency past the timeout is Timeout on a read, OutcomeUnknown on a write; cancelling is Cancelled', async () => {
  const quick = clientAs('admin', { timeoutMs: 300, retry: { attempts: 1 } });
  await sb.faults.set([{ match: { path: V2 + RESOURCES.classification.list }, kind: 'latency', latencyMs: 1500 }]);
  expect((await failure(quick.resource('classification').list())).kind).toBe('Timeout');
  expect((await failure(quick.resource('classification').save({ value: 'lento' }))).kind).toBe('OutcomeUnknown');

  const admin = clientAs('admin');
  const controller = new AbortController();
  const pending = failure(admin.resource('classification').list(undefined, { signal: controller.signal }));
  setTimeout(() => controller.abort(), 50);
  expect((await pending).kind).toBe('Cancelled');
});

test('pageAll walks the whole session list in pages and stops at a short page', async () => {
  const admin = clientAs('admin');
  const all = await admin.resource('userSession').pageAll(query().sortBy('id').size(37));
  const ids = all.map((s) => s.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).toEqual([...ids].sort((a, b) => Number(a) - Number(b)));
  const bigPage = await admin.resource('userSession').pageAll(query().sortBy('id').size(500));
  expect(bigPage.map((s) => s.id)).toEqual(ids);
  const capped = await admin.resource('userSession').collect(query().sortBy('id').size(37), { cap: 50 });
  expect(capped.records).toHaveLength(50);
  expect(capped.truncated).toBe(true);
});

test('the log of the whole run holds method, path, status and timing, and neither a token nor an unmasked CPF', async () => {
  const admin = clientAs('admin');
  // A CPF that reaches the log by way of a path, and user records full of CPFs in answers.
  await failure(admin.ticket('529.982.247-25'));
  await admin.resource('user').pageAll({ size: 500 });
  const text = logLines.join('');
  expect(text).toContain('"op":"user.list"');
  expect(text).toMatch(/"method":"POST","path":"\/chatapi\/1\.0\/api\/v2\/users","status":200,"ms":\d+/);
  expect(text).toContain('***.***.247-25');
  for (const token of Object.values(sb.tokens)) expect(text).not.toContain(token);
  expect(text).not.toContain('not-a-real-token-000');
  expect(text).not.toMatch(/\d{3}\.\d{3}\.\d{3}-\d{2}/);
  expect(text).not.toMatch(/Bearer (?!\[redacted\])/);
});
