import { test, expect } from '@playwright/test';
import { startStandin, type Standin } from '../../../src-standin/index';
import { standinClient, type RawAnswer } from '../../../src-standin/test-client';
import { RESOURCES, RESOURCE_KEYS, type ResourceKey } from '../../../src-shared/paths';

let sb: Standin;
let agent: ReturnType<typeof standinClient>;
let supervisor: ReturnType<typeof standinClient>;
let admin: ReturnType<typeof standinClient>;
let anon: ReturnType<typeof standinClient>;

type Page<T = Record<string, unknown>> = { page: number; size: number; results: T[] };
type Row = Record<string, unknown> & { id: number };

test.beforeAll(async () => {
  sb = await startStandin({ port: 0, seed: 7 });
  agent = standinClient(sb.baseUrl, sb.tokens.agent);
  supervisor = standinClient(sb.baseUrl, sb.tokens.supervisor);
  admin = standinClient(sb.baseUrl, sb.tokens.admin);
  anon = standinClient(sb.baseUrl, null);
});
test.afterAll(async () => {
  await sb.close();
});

const all = { conditions: [], sort: true };
const eqnum = (key: string, value: number) => ({ key, operator: 'EQNUM', value: String(value) });

async function list<T = Row>(path: string, body: object = all): Promise<T[]> {
  const r = await agent.v2(path, body);
  expect(r.status, r.text).toBe(200);
  return r.json<Page<T>>().results;
}

async function firstWaiting(): Promise<Row> {
  const rows = await list('/user-session', {
    conditions: [
      { key: 'status', operator: 'EQ', value: 'OPEN' },
      { key: 'agent', operator: 'IS_NULL' },
    ],
    sort: true,
    size: 1,
  });
  expect(rows.length).toBe(1);
  return rows[0]!;
}

const expectEmpty = (r: RawAnswer, status: number) => {
  expect(r.status).toBe(status);
  expect(r.text).toBe('');
  expect(r.headers.get('content-type')).toBeNull();
};

/** A minimal valid create body per savable resource (ids refer to seeded records). */
async function createBody(key: ResourceKey): Promise<Record<string, unknown>> {
  const open = await firstWaiting();
  const bodies: Partial<Record<ResourceKey, Record<string, unknown>>> = {
    agent: { status: 'OFFLINE', department: 'Atendimento' },
    userSession: { groupConf: { id: 2 }, userConnectedResource: 'email' },
    userAttribute: { attribute: { id: 1 }, value: 'Premium' },
    userAttributeHistory: { userAttributesHistId: { sessionId: 5, userAttributesId: 99 } },
    userAgent: { associationId: { userId: 20, agentId: 2 }, user: { id: 20 }, agent: { id: 2 } },
    botTag: { bot: { id: 1 }, session: { id: open.id }, tag: 'intencao:teste' },
    sessionComment: { sessionId: open.id, comment: 'Cliente pediu retorno amanhã.' },
    message: { session: { id: open.id }, message: 'Olá! Já vou verificar.' },
    messageBundleGroup: { code: '/teste', text: 'Texto de teste', group: { id: 1 }, locale: 'pt_BR' },
    hsmTemplate: { elementName: 'teste', template: 'Olá {{1}}', language: 'pt_BR', parameterCount: 1 },
    hsmTemplateGroup: { hsmTemplateGroupId: { groupConfId: 1, hsmTemplateId: 2 }, hsmTemplate: { id: 2 } },
    holidayOperation: { holidayOperationId: { holidayId: 3, operationId: 1 }, holiday: { name: 'Carnaval' } },
    attribute: { description: 'Time do coração', active: true },
    bot: { active: true, botTree: { id: 3, version: 1 } },
    botAnswer: { answer: '2', session: { id: open.id }, botQuestions: { id: 1, seq: 2 } },
    call: { callId: 'CALL-T1', sessionId: open.id, kind: 'OUTBOUND' },
    callLogHistory: { callId: 'CALL-T1', eventType: 'RINGING', eventDate: '2024-06-01T12:00:00Z' },
    chatAnswer: { questionId: 1, sessionId: open.id, value: '10' },
    chatWebConfiguration: { chatGroupConf: { id: 1 }, initialMessage: 'Oi!' },
    classification: { value: 'Nova árvore', children: [{ value: 'Filho', children: [{ value: 'Neto', children: [] }] }] },
    classificationService: { sessionId: open.id, displayName: 'Segunda via', rootId: 2 },
    cognition: { name: 'Outro assistente', type: 'LLM' },
    workSchedule: { dayCode: 7, openTime: '10:00', closeTime: '14:00', scheduleName: 'Domingo' },
    user: { userName: 'novo.cliente@example.com', name: 'Novo Cliente', typeUser: 'CUSTOMER' },
  };
  const body = bodies[key];
  if (!body) throw new Error(`no body for ${key}`);
  return body;
}

test('every v2 list path answers the page envelope', async () => {
  for (const key of RESOURCE_KEYS) {
    const path = RESOURCES[key].list;
    if (!path) continue;
    const r = await agent.v2(path, { conditions: [], sort: true, page: 0, size: 5 });
    expect(r.status, `${path}: ${r.text}`).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/json');
    const page = r.json<Page>();
    expect(page.page, path).toBe(0);
    expect(page.size, path).toBe(5);
    expect(page.results.length, `${path} should be seeded`).toBeGreaterThan(0);
    expect(page.results.length).toBeLessThanOrEqual(5);
  }
});

test('every v2 save path creates (201), updates (200) and refuses an unknown id (404, no body)', async () => {
  for (const key of RESOURCE_KEYS) {
    const { save, list: listPath } = RESOURCES[key];
    if (!save) continue;
    const body = await createBody(key);
    const created = await admin.v2(save, body);
    expect(created.status, `${save}: ${created.text}`).toBe(201);
    const rec = created.json<Record<string, unknown>>();
    const composite = !('id' in rec);
    const again = await admin.v2(save, composite ? body : { id: rec.id });
    expect(again.status, `${save} update: ${again.text}`).toBe(200);
    if (!composite) {
      expect(typeof rec.id).toBe('number');
      expect(Number.isInteger(rec.id)).toBe(true);
      expectEmpty(await admin.v2(save, { ...body, id: 987_654 }), 404);
      if (listPath) {
        const found = await list(listPath, { conditions: [eqnum('id', rec.id as number)], sort: false });
        expect(
          found.map((x) => x.id),
          save,
        ).toEqual([rec.id]);
      }
    }
  }
});

test('§4.3 operations: chat suggestion, NPS summary, groups/unique, user-session/unique, ticket lookup', async () => {
  const suggestions = await list<{ id: number; suggestion: string; session: unknown }>('/chat/suggestion');
  expect(suggestions.length).toBeGreaterThan(0);
  expect(typeof suggestions[0]!.suggestion).toBe('string');

  const nps = await agent.v2('/user-session/survey/nps-summary/nps-atendimento', { conditions: [], sort: false });
  expect(nps.status).toBe(200);
  const s = nps.json<{ averageNps: number; positive: number; neutral: number; negative: number; totalCount: number }>();
  expect(s.totalCount).toBeGreaterThan(0);
  expect(s.positive + s.neutral + s.negative).toBe(s.totalCount);
  expect(s.averageNps).toBeGreaterThanOrEqual(0);
  expect(s.averageNps).toBeLessThanOrEqual(10);
  // Counts partition over the groups, and a date filter can exclude everything.
  let sum = 0;
  for (const id of [1, 2, 3]) {
    const g = await agent.v2('/user-session/survey/nps-summary/nps-atendimento', { conditions: [eqnum('groupConf.id', id)], sort: false });
    sum += g.json<{ totalCount: number }>().totalCount;
  }
  expect(sum).toBe(s.totalCount);
  const future = await agent.v2('/user-session/survey/nps-summary/nps-atendimento', {
    conditions: [{ key: 'createdAt', operator: 'AFTER', value: '2999-01-01T00:00:00Z' }],
    sort: false,
  });
  expect(future.json()).toEqual({ averageNps: 0, positive: 0, neutral: 0, negative: 0, totalCount: 0 });
  expectEmpty(await agent.v2('/user-session/survey/nps-summary/nao-existe', { conditions: [], sort: false }), 404);

  const group = await agent.v2('/groups/unique', { conditions: [{ key: 'name', operator: 'EQ', value: 'Financeiro' }], sort: false });
  expect(group.status).toBe(200);
  const g = group.json<Record<string, unknown>>();
  expect(g.name).toBe('Financeiro');
  expect(g.mandatoryClassificationTree).toBe(true);
  expect(typeof g.sla).toBe('number');
  expectEmpty(await agent.v2('/groups/unique', { conditions: [{ key: 'name', operator: 'EQ', value: 'Ninguém' }], sort: false }), 404);

  const one = await agent.v2('/user-session/unique', { conditions: [eqnum('id', 3)], sort: false });
  expect(one.status).toBe(200);
  expect(one.json<Row>().id).toBe(3);

  for (const id of ['4711', 'SUP-4711', 'sup-4711']) {
    const t = await agent.get(`/ticketapi/1.0/api/v1/tickets/${id}`);
    expect(t.status).toBe(200);
    const body = t.json<{
      status: string;
      message: string;
      data: { id: number; title: string; status: string; priority: string; projectId: number; description: string };
    }>();
    expect(body.status).toBe('SUCCESS');
    expect(body.data.id).toBe(4711);
    expect(body.data.title).toContain('duplicidade');
  }
  const missing = await agent.get('/ticketapi/1.0/api/v1/tickets/SUP-1');
  expect(missing.status).toBe(404);
  expect(missing.json()).toEqual({ status: 'Not Found' });
});

test('added v2 paths: users/save/*, users/rules, users/channels', async () => {
  const sup = await admin.v2('/users/save/agent-supervisor', { userName: 'nova.supervisora', name: 'Nova Supervisora' });
  expect(sup.status).toBe(201);
  const supUser = sup.json<{ id: number; typeUser: string; agent: { id: number; superAgent: boolean } }>();
  expect(supUser.typeUser).toBe('SUPERVISOR');
  expect(supUser.agent.superAgent).toBe(true);
  const ag = await admin.v2('/users/save/agent', { userName: 'novo.atendente', name: 'Novo Atendente' });
  expect(ag.status).toBe(201);
  expect(ag.json<{ typeUser: string; agent: { id: number } }>().agent.id).toBeGreaterThan(0);
  const adm = await admin.v2('/users/save/administrator', { userName: 'nova.admin', name: 'Nova Admin' });
  expect(adm.status).toBe(201);
  expect(adm.json<{ typeUser: string; agent: unknown }>().typeUser).toBe('ADMINISTRATOR');
  // The new attendant can sign in with its access key (shown to admins) and is an agent.
  const users = await admin.v2('/users', { conditions: [{ key: 'userName', operator: 'EQ', value: 'novo.atendente' }], sort: false });
  const key = users.json<Page<{ accessKey: string }>>().results[0]!.accessKey;
  const rules = await standinClient(sb.baseUrl, key).v2('/users/rules', {});
  expect(rules.json<{ role: string }>().role).toBe('agent');
  // Non-admins see the key masked.
  const masked = await agent.v2('/users', { conditions: [{ key: 'userName', operator: 'EQ', value: 'novo.atendente' }], sort: false });
  expect(masked.json<Page<{ accessKey: string; password?: string }>>().results[0]!.accessKey).toBe('********');

  const mine = await agent.v2('/users/rules', {});
  expect(mine.json()).toMatchObject({ userName: sb.demoAgent.userName, role: 'agent' });
  expect(mine.json<{ rules: string[] }>().rules).not.toContain('admin:write');
  expect((await supervisor.v2('/users/rules', { userName: sb.demoAgent.userName })).json()).toMatchObject({ role: 'agent' });
  expectEmpty(await agent.v2('/users/rules', { userName: 'juliana.martins' }), 403);
  const channels = await agent.v2('/users/channels', {});
  expect(channels.status).toBe(200);
  const names = channels.json<{ channels: Array<{ id: number; name: string }> }>().channels.map((c) => c.name);
  expect(names).toEqual(['chatApp', 'email', 'sms', 'messenger', 'social', 'voice']);
});

test('auth and errors per family: v2 bodiless 401/403/404, ticket and AI {status}, 400 envelope', async () => {
  expectEmpty(await anon.v2('/user-session', all), 401);
  expectEmpty(await standinClient(sb.baseUrl, 'wrong').v2('/user-session', all), 401);
  expectEmpty(await agent.v2('/users/save', { userName: 'x' }), 403);
  expectEmpty(await agent.v2('/no-such-thing', all), 404);
  expectEmpty(await agent.get('/chatapi/1.0/api/v2/user-session'), 405);
  expectEmpty(await agent.get('/elsewhere'), 404);

  const t401 = await anon.get('/ticketapi/1.0/api/v1/tickets/4711');
  expect(t401.status).toBe(401);
  expect(t401.json()).toEqual({ status: 'Unauthorized' });
  const a401 = await anon.call('POST', '/transformersapi/1.0/ner', { sentence: 'Oi' });
  expect(a401.status).toBe(401);
  expect(a401.json()).toEqual({ status: 'Unauthorized' });
  const a403 = await agent.call('POST', '/transformersapi/1.0/upload_files', {
    url_file: 'http://127.0.0.1:1/x.csv',
    index_engine: 'h_x_data_pt',
  });
  expect(a403.status).toBe(403);
  expect(a403.json()).toEqual({ status: 'Forbidden' });

  const bad = async (r: RawAnswer, errorCode: string) => {
    expect(r.status, r.text).toBe(400);
    expect(r.headers.get('content-type')).toContain('application/json');
    const body = r.json<{ status: string; message: string; errorCode: string }>();
    expect(body.status).toBe('ERROR');
    expect(body.message.length).toBeGreaterThan(0);
    expect(body.errorCode).toBe(errorCode);
  };
  await bad(await agent.v2('/user-session', '{"conditions": ['), 'MALFORMED_JSON');
  await bad(await agent.v2('/user-session', { conditions: [] }), 'INVALID_BODY');
  await bad(await agent.v2('/user-session', { conditions: 'status=OPEN', sort: false }), 'INVALID_BODY');
  await bad(await agent.v2('/user-session', [1, 2]), 'INVALID_BODY');
  await bad(await agent.v2('/user-session', { conditions: [{ key: 'colour', operator: 'EQ', value: 'x' }], sort: false }), 'UNKNOWN_KEY');
  await bad(
    await agent.v2('/user-session', { conditions: [{ key: 'status', operator: 'GREATER', value: 'x' }], sort: false }),
    'UNKNOWN_OPERATOR',
  );
  await bad(await agent.v2('/user-session', { conditions: [], sort: true, sortColumn: 'colour' }), 'UNKNOWN_KEY');
  await bad(await agent.v2('/session-comment/save', { sessionId: 'one', comment: 'x' }), 'INVALID_FIELD');
  await bad(await agent.v2('/session-comment/save', { sessionId: 1, comment: 'x', colour: 'red' }), 'UNKNOWN_FIELD');
  await bad(await agent.v2('/user-session/save', { id: 1, agent: { id: 3 } }), 'UNKNOWN_FIELD');
  await bad(await agent.v2('/messages/save', { session: { id: 99_999_999 }, message: 'x' }), 'UNKNOWN_REFERENCE');
  await bad(await agent.v2('/user-session/save', { id: 1, userConnectedResource: 'pigeon' }), 'INVALID_FIELD');
  const wrongType = await agent.v2('/user-session', 'conditions=[]', { 'content-type': 'text/plain' });
  expect(wrongType.status).toBe(415);
  expect(wrongType.json<{ errorCode: string }>().errorCode).toBe('UNSUPPORTED_CONTENT_TYPE');
});

test('roles: agents are refused admin operations, supervisors configuration, agents may set their own status only', async () => {
  for (const [path, body] of [
    ['/agent/save', { status: 'ONLINE', department: 'X' }],
    ['/users/save', { userName: 'x' }],
    ['/users/save/agent', { userName: 'x' }],
    ['/users/save/agent-supervisor', { userName: 'x' }],
    ['/users/save/administrator', { userName: 'x' }],
    ['/user-agent/save', { associationId: { userId: 20, agentId: 3 } }],
    ['/cognition/save', { name: 'x' }],
    ['/message-bundle-group/save', { code: '/x', text: 'x' }],
  ] as const) {
    expectEmpty(await agent.v2(path, body), 403);
  }
  expectEmpty(await supervisor.v2('/users/save', { userName: 'y' }), 403);
  expect((await supervisor.v2('/message-bundle-group/save', { code: '/sup', text: 'Texto' })).status).toBe(201);

  const me = (await agent.v2('/users/rules', {})).json<{ userName: string }>();
  const own = await list<{ id: number; agent: { id: number } }>('/users', {
    conditions: [{ key: 'userName', operator: 'EQ', value: me.userName }],
    sort: false,
  });
  const agentId = own[0]!.agent.id;
  const paused = await agent.v2('/agent/save', { id: agentId, status: 'PAUSED' });
  expect(paused.status).toBe(200);
  expect(paused.json<{ status: string }>().status).toBe('PAUSED');
  expectEmpty(await agent.v2('/agent/save', { id: agentId === 2 ? 3 : 2, status: 'PAUSED' }), 403);
  expect((await supervisor.v2('/agent/save', { id: agentId, status: 'ONLINE' })).status).toBe(200);
  // cognition secrets are masked for non-admins.
  const cog = await list<{ password: string }>('/cognition');
  expect(cog[0]!.password).toBe('********');
});

test('accept, transfer to a group, transfer to an agent, reply, note and close a session', async () => {
  const waiting = await firstWaiting();
  const accepted = await agent.v2('/user-session/save', { id: waiting.id, lastAgent: sb.demoAgent.userName });
  expect(accepted.status).toBe(200);
  const payload = accepted.json<Record<string, unknown> & { groupConf: Record<string, unknown> }>();
  // §4.3: no user, no agent; the group without its three agent properties but with channels and sla.
  expect(payload).not.toHaveProperty('user');
  expect(payload).not.toHaveProperty('agent');
  expect(payload.lastAgent).toBe(sb.demoAgent.userName);
  expect(typeof payload.attendedAt).toBe('string');
  for (const k of ['defaultAgent', 'finalAgent', 'inactivityAgent']) expect(payload.groupConf).not.toHaveProperty(k);
  expect(Array.isArray(payload.groupConf.channels)).toBe(true);
  expect(typeof payload.groupConf.sla).toBe('number');

  const mine = await list<{ id: number; agent: { userName: string } }>('/user-session', {
    conditions: [{ key: 'agent.userName', operator: 'EQ', value: sb.demoAgent.userName }, eqnum('id', waiting.id)],
    sort: false,
  });
  expect(mine.map((s) => s.agent.userName)).toEqual([sb.demoAgent.userName]);

  const reply = await agent.v2('/messages/save', { session: { id: waiting.id }, message: 'Olá! Sou a Ana, vou te ajudar.' });
  expect(reply.status).toBe(201);
  const msg = reply.json<{ id: number; fromUser: boolean; sendBy: string; session: { id: number }; createdAt: string }>();
  expect(msg).toMatchObject({ fromUser: false, sendBy: sb.demoAgent.userName, session: { id: waiting.id } });
  const thread = await list<{ id: number }>('/messages', {
    conditions: [eqnum('session.id', waiting.id)],
    sort: true,
    sortColumn: 'createdAt',
    direction: 'ASC',
    size: 500,
  });
  expect(thread.at(-1)!.id).toBe(msg.id);
  const pending = await list<{ pending: boolean }>('/user-session', { conditions: [eqnum('id', waiting.id)], sort: false });
  expect(pending[0]!.pending).toBe(true);

  const note = await agent.v2('/session-comment/save', { sessionId: waiting.id, comment: 'Cliente VIP, tratar com prioridade.' });
  expect(note.status).toBe(201);
  const n = note.json<Record<string, unknown>>();
  expect(Object.keys(n).sort()).toEqual(['comment', 'createdAt', 'createdBy', 'id', 'sessionId']);
  expect(n.createdBy).toBe(sb.demoAgent.userName);
  const notes = await list('/session-comment', { conditions: [eqnum('sessionId', waiting.id)], sort: true, sortColumn: 'createdAt' });
  expect(notes.at(-1)!.id).toBe(n.id);
  expect(notes.every((x) => x.sessionId === waiting.id)).toBe(true);

  const toGroup = await agent.v2('/user-session/save', { id: waiting.id, groupConf: { id: 3 } });
  expect(toGroup.status).toBe(200);
  const queued = await list<{ agent: unknown; groupConf: { id: number }; lastAgent: string }>('/user-session', {
    conditions: [eqnum('id', waiting.id)],
    sort: false,
  });
  expect(queued[0]!.agent ?? null).toBeNull();
  expect(queued[0]!.groupConf.id).toBe(3);
  expect(queued[0]!.lastAgent).toBe(sb.demoAgent.userName);

  await agent.v2('/user-session/save', { id: waiting.id, lastAgent: 'bruno.lima' });
  const bruno = await list<{ agent: { userName: string } }>('/user-session', { conditions: [eqnum('id', waiting.id)], sort: false });
  expect(bruno[0]!.agent.userName).toBe('bruno.lima');
  const unknownAgent = await agent.v2('/user-session/save', { id: waiting.id, lastAgent: 'ninguem' });
  expect(unknownAgent.status).toBe(400);

  const closed = await agent.v2('/user-session/save', { id: waiting.id, status: 'CLOSED' });
  expect(closed.status).toBe(200);
  expect(closed.json()).toMatchObject({ status: 'CLOSED', closedBy: sb.demoAgent.userName });
  expect(typeof closed.json<{ closedAt: string }>().closedAt).toBe('string');
  const late = await agent.v2('/messages/save', { session: { id: waiting.id }, message: 'Ainda está aí?' });
  expect(late.status).toBe(409);
  expect(late.json<{ errorCode: string }>().errorCode).toBe('SESSION_CLOSED');

  const fresh = await agent.v2('/user-session/save', { groupConf: { id: 1 }, userConnectedResource: 'sms' });
  expect(fresh.status).toBe(201);
  expect(fresh.json()).toMatchObject({ status: 'OPEN', userConnectedResource: 'sms' });
});

test('paging over HTTP: size cap, short last page, page past the end', async () => {
  const capped = await agent.v2('/user-session', { conditions: [], sort: true, sortColumn: 'id', size: 5000 });
  const page0 = capped.json<Page<Row>>();
  expect(page0.size).toBe(500);
  const total = page0.results.length; // fewer than 500 sessions exist
  expect(total).toBeGreaterThanOrEqual(200);
  const last = await agent.v2('/user-session', { conditions: [], sort: true, sortColumn: 'id', size: 30, page: Math.floor(total / 30) });
  expect(last.json<Page>().results.length).toBe(total % 30);
  const past = await agent.v2('/user-session', { conditions: [], sort: true, sortColumn: 'id', size: 30, page: 1000 });
  expect(past.json<Page>()).toEqual({ page: 1000, size: 30, results: [] });
  const dflt = await agent.v2('/user-session', { conditions: [], sort: true });
  expect(dflt.json<Page>().results.length).toBe(20);
});

test('seed: groups, agents, channels, tree depth, canned replies, templates and valid CPF/CNPJ in messages', async () => {
  const groups = await list<{ sla: number; mandatoryClassificationTree: boolean; classificationTree: { id: number } }>('/classification');
  expect(groups.length).toBeGreaterThanOrEqual(3);
  const depth = (n: { children?: unknown[] }): number =>
    1 + Math.max(0, ...((n.children ?? []) as Array<{ children?: unknown[] }>).map(depth));
  expect(depth(groups[0] as unknown as { children: unknown[] })).toBe(3);
  const agents = await list<{ typeUser: string }>('/users', {
    conditions: [{ key: 'typeUser', operator: 'EQ', value: 'AGENT' }],
    sort: false,
    size: 100,
  });
  expect(agents.length).toBeGreaterThanOrEqual(8);
  const statuses = await list<{ status: string }>('/agent', { conditions: [], sort: false, size: 100 });
  expect(new Set(statuses.map((a) => a.status)).size).toBeGreaterThanOrEqual(3);
  const sessions = await list<{ userConnectedResource: string }>('/user-session', {
    conditions: [{ key: 'id', operator: 'NOT_NULL' }],
    sort: false,
    size: 500,
  });
  for (const s of sessions) expect(['chatApp', 'email', 'sms', 'messenger', 'social', 'voice']).toContain(s.userConnectedResource);
  const voice = await list<{ userConnectedResource: string }>('/user-session', {
    conditions: [{ key: 'userConnectedResource', operator: 'EQ', value: 'voice' }],
    sort: false,
    size: 500,
  });
  expect(voice.length).toBeGreaterThan(0);
  expect(voice.every((s) => s.userConnectedResource === 'voice')).toBe(true);
  const greeting = await list<{ code: string; text: string }>('/message-bundle-group', {
    conditions: [{ key: 'code', operator: 'EQ', value: '/saudacao' }],
    sort: false,
  });
  expect(greeting[0]!.text).toContain('Olá');
  const hsm = await list<{ parameterCount: number; template: string }>('/hsm-template');
  expect(hsm.every((h) => h.parameterCount === (h.template.match(/\{\{\d+\}\}/g) ?? []).length && h.parameterCount > 0)).toBe(true);

  const messages = await list<{ message: string }>('/messages', {
    conditions: [{ key: 'message', operator: 'LIKE', value: '%CPF%' }],
    sort: false,
    size: 500,
  });
  expect(messages.length).toBeGreaterThan(0);
  const cpfOk = (s: string): boolean => {
    const d = s.replace(/\D/g, '').split('').map(Number);
    const check = (n: number) => {
      const sum = d.slice(0, n).reduce((a, x, i) => a + x * (n + 1 - i), 0);
      return ((sum * 10) % 11) % 10;
    };
    return d.length === 11 && check(9) === d[9] && check(10) === d[10];
  };
  for (const m of messages) for (const cpf of m.message.match(/\d{3}\.\d{3}\.\d{3}-\d{2}/g) ?? []) expect(cpfOk(cpf), cpf).toBe(true);
  const cnpjMessages = await list<{ message: string }>('/messages', {
    conditions: [{ key: 'message', operator: 'LIKE', value: '%CNPJ%' }],
    sort: false,
    size: 500,
  });
  const cnpjOk = (s: string): boolean => {
    const d = s.replace(/\D/g, '').split('').map(Number);
    const dv = (n: number) => {
      const w = n === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
      const r = w.reduce((a, x, i) => a + x * d[i]!, 0) % 11;
      return r < 2 ? 0 : 11 - r;
    };
    return d.length === 14 && dv(12) === d[12] && dv(13) === d[13];
  };
  let seen = 0;
  for (const m of cnpjMessages)
    for (const c of m.message.match(/\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}/g) ?? []) {
      seen++;
      expect(cnpjOk(c), c).toBe(true);
    }
  expect(seen).toBeGreaterThan(0);
});

test('AI and voice paths are served over HTTP after auth: entities, a language-model answer, speech and its transcript', async () => {
  // Here the AI service is loaded and the speech packages are installed: anything but 200 with
  // content is a failure (a missing package answers 503 and fails this test, as it should).
  expect((await anon.call('POST', '/transformersapi/1.0/ner', { sentence: 'Ana' })).status).toBe(401);
  const ner = await agent.call('POST', '/transformersapi/1.0/ner', { sentence: 'A Ana Souza pagou R$ 189,90 em São Paulo.' });
  expect(ner.status, ner.text).toBe(200);
  const entities = ner.json<{ entities: Array<{ text: string; label: string }> }>().entities.map((e) => `${e.label}:${e.text}`);
  expect(entities).toEqual(expect.arrayContaining(['PERSON:Ana Souza', 'MONEY:R$ 189,90', 'LOC:São Paulo']));

  const nlp = await agent.call('POST', '/transformersapi/1.0/nlp', {
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Como emito a segunda via do boleto?' }] }],
    max_len: 200,
    temperature: 0,
  });
  expect(nlp.status, nlp.text).toBe(200);
  expect(nlp.json<{ message: string }>().message.trim().length).toBeGreaterThan(10);

  const auth = { authorization: `Bearer ${sb.tokens.agent}` };
  const tts = await fetch(`${sb.baseUrl}/voicemodelapi/1.0/tts`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'I would like to cancel my order', language: 'en-US', voice: 'klatt' }),
  });
  expect(tts.status, tts.status === 200 ? '' : await tts.text()).toBe(200);
  expect(tts.headers.get('content-type')).toBe('audio/wav');
  const wav = Buffer.from(await tts.arrayBuffer());
  expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');

  const form = new FormData();
  form.append('file', new Blob([wav], { type: 'audio/wav' }), 'fala.wav');
  form.append('language', 'en-US');
  const stt = await fetch(`${sb.baseUrl}/voicemodelapi/1.0/stt`, { method: 'POST', headers: auth, body: form });
  const sttText = await stt.text();
  expect(stt.status, sttText).toBe(200);
  expect((JSON.parse(sttText) as { text: string }).text).toMatch(/\bcancel\b/);
});
