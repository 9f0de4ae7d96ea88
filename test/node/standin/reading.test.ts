import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { RESOURCES, RESOURCE_KEYS, V2_OPS } from '../../../src-shared/paths';
import { SPECS, type CollectionName } from '../../../src-standin/fields';
import { startStandin, type Standin } from '../../../src-standin/index';
import { VARIANT_MAX_PAGE_SIZE } from '../../../src-standin/reading';
import { standinClient, type RawAnswer } from '../../../src-standin/test-client';

/**
 * The stand-in's variant reading (src-standin/README.md: readings) against its default reading:
 * two stand-ins seeded alike, one per reading, asked the same questions over HTTP.
 */

type Row = Record<string, unknown>;
type Page = { page: number; size: number; results: Row[] };
type UserObj = { id: string; name: string; userName: string; typeUser?: string };
/** The variant writes integers as strings of digits. */
const digits = (v: unknown) => String(v);

// Both stand-ins lay their seed out from the same instant, so their records are the same.
const anchorTime = '2026-11-23T12:00:00Z';
let plain: Standin;
let variant: Standin;
let dflt: ReturnType<typeof standinClient>;
let vrnt: ReturnType<typeof standinClient>;

test.beforeAll(async () => {
  [plain, variant] = await Promise.all([
    startStandin({ port: 0, seed: 11, sessions: 80, anchorTime }),
    startStandin({ port: 0, seed: 11, sessions: 80, anchorTime, reading: 'variant' }),
  ]);
  dflt = standinClient(plain.baseUrl, plain.tokens.agent);
  vrnt = standinClient(variant.baseUrl, variant.tokens.agent);
});
test.afterAll(async () => {
  await Promise.all([plain.close(), variant.close()]);
});

const eqnum = (key: string, value: number) => ({ key, operator: 'EQNUM', value: String(value) });

async function page(client: typeof dflt, path: string, body: object): Promise<Page> {
  const r = await client.v2(path, body);
  expect(r.status, `${path}: ${r.text}`).toBe(200);
  return r.json<Page>();
}

/** The same query on both readings: their pages, row by row. */
async function both(path: string, body: object): Promise<{ d: Row[]; v: Row[] }> {
  const [d, v] = await Promise.all([page(dflt, path, body), page(vrnt, path, body)]);
  expect(v.results.length, path).toBe(d.results.length);
  return { d: d.results, v: v.results };
}

const expectBodiless404 = (r: RawAnswer) => {
  expect(r.status).toBe(404);
  expect(r.text).toBe('');
  expect(r.headers.get('content-type')).toBeNull();
};

/** An open session with an attendant, and its thread, in a reading. */
async function activeSession(client: typeof dflt): Promise<Row> {
  const rows = (
    await page(client, '/user-session', {
      conditions: [
        { key: 'status', operator: 'EQ', value: 'OPEN' },
        { key: 'agent', operator: 'NOT_NULL' },
      ],
      sort: true,
      size: 1,
    })
  ).results;
  expect(rows.length).toBe(1);
  return rows[0]!;
}

test('messages: fromUser/toUser are user objects, sendBy a role, session a bare id, sentiment {label, score}', async () => {
  const session = await activeSession(dflt);
  const thread = { conditions: [eqnum('session.id', session.id as number)], sort: true, sortColumn: 'createdAt', size: 100 };
  const { d, v } = await both('/messages', thread);
  expect(d.length).toBeGreaterThan(1);
  const customer = (await page(dflt, '/users', { conditions: [eqnum('id', (session.user as Row).id as number)], sort: false })).results[0]!;
  const agentUser = session.agent as Row;
  let customerLines = 0,
    agentLines = 0;
  for (const [i, dm] of d.entries()) {
    const vm = v[i]!;
    expect(vm.id).toBe(digits(dm.id));
    expect(dm.session).toEqual({ id: session.id });
    expect(vm.session).toBe(digits(session.id));
    const from = vm.fromUser as UserObj;
    const to = vm.toUser as UserObj | null;
    if (dm.fromUser === true) {
      customerLines++;
      expect(vm.sendBy).toBe('CUSTOMER');
      expect(from).toEqual({ id: digits(customer.id), name: customer.name, userName: customer.userName, typeUser: 'CUSTOMER' });
      expect(to?.id ?? null).toBe(digits(agentUser.id));
    } else {
      agentLines++;
      expect(vm.sendBy).toBe('AGENT');
      expect(from).toMatchObject({ userName: dm.sendBy, typeUser: 'AGENT' });
      expect(to).toEqual({ id: digits(customer.id), name: customer.name, userName: customer.userName, typeUser: 'CUSTOMER' });
    }
    expect(to?.userName ?? null).toBe(dm.toUser ?? null);
    if (typeof dm.sentiment === 'string') expect(vm.sentiment).toEqual({ label: dm.sentiment, score: null });
    else expect(vm.sentiment).toBeNull();
  }
  expect(customerLines).toBeGreaterThan(0);
  expect(agentLines).toBeGreaterThan(0);
  // The default reading keeps its own shapes.
  expect(d.every((m) => typeof m.fromUser === 'boolean' && (m.sendBy === customer.userName || m.sendBy === agentUser.userName))).toBe(true);
});

test('sessions: group, agent and user as summaries, the channel in userConnectedInstance; the full group only from groups/unique', async () => {
  const { d, v } = await both('/user-session', { conditions: [{ key: 'agent', operator: 'NOT_NULL' }], sort: true, size: 10 });
  expect(d.length).toBe(10);
  for (const [i, ds] of d.entries()) {
    const vs = v[i]!;
    const dg = ds.groupConf as Row;
    expect(dg.classificationTree).toBeDefined();
    expect(vs.groupConf).toEqual({ id: digits(dg.id), name: dg.name });
    for (const k of ['agent', 'user'] as const) {
      const du = ds[k] as Row;
      expect(vs[k]).toEqual({ id: digits(du.id), name: du.name, userName: du.userName });
    }
    expect(vs.userConnectedInstance).toBe(ds.userConnectedResource);
    expect(vs.userConnectedResource).toBe(ds.userConnectedInstance ?? null);
  }
  const group = await vrnt.v2(V2_OPS.groupsUnique, { conditions: [eqnum('id', Number((v[0]!.groupConf as Row).id))], sort: false });
  expect(group.status).toBe(200);
  const full = group.json<Row>();
  expect(full.name).toBe((v[0]!.groupConf as Row).name);
  expect((full.classificationTree as Row).children).toEqual(expect.any(Array));
  expect(typeof full.mandatoryClassificationTree).toBe('boolean');
});

test('optional lists answer 404 with no body in the variant; the default serves them', async () => {
  const body = { conditions: [], sort: true };
  for (const path of [RESOURCES.hsmTemplateGroup.list, V2_OPS.chatSuggestion]) {
    expectBodiless404(await vrnt.v2(path, body));
    expect((await page(dflt, path, body)).results.length, path).toBeGreaterThan(0);
  }
});

test('pages hold at most 50 rows in the variant while the envelope echoes the size asked for', async () => {
  const ask = { conditions: [], sort: true, sortColumn: 'id', size: 120 };
  const all = (await page(dflt, '/messages', { ...ask, size: 400 })).results;
  expect(all.length).toBeGreaterThan(2 * VARIANT_MAX_PAGE_SIZE);
  const first = await page(vrnt, '/messages', ask);
  expect(first.size).toBe(120);
  expect(first.results.map((m) => m.id)).toEqual(all.slice(0, VARIANT_MAX_PAGE_SIZE).map((m) => digits(m.id)));
  // Page n starts at n × 50, the size the variant really used.
  const second = await page(vrnt, '/messages', { ...ask, page: 1 });
  expect(second.results.map((m) => m.id)).toEqual(all.slice(VARIANT_MAX_PAGE_SIZE, 2 * VARIANT_MAX_PAGE_SIZE).map((m) => digits(m.id)));
  const plainFirst = await page(dflt, '/messages', ask);
  expect(plainFirst.size).toBe(120);
  expect(plainFirst.results).toHaveLength(120);
  // Without a size both readings use 20.
  expect((await page(vrnt, '/messages', { conditions: [], sort: true })).size).toBe(20);
});

test('every list: named fields the record lacks read null, integers are digits, dates carry -03:00, extra fields appear; values agree', async () => {
  // Thousands of checks: gathered as a list of what is wrong, asserted once.
  const wrong: string[] = [];
  let nulled = 0,
    dated = 0,
    counted = 0;
  for (const key of RESOURCE_KEYS) {
    const path = RESOURCES[key].list;
    if (!path || path === RESOURCES.hsmTemplateGroup.list) continue;
    const coll = key as CollectionName;
    const { d, v } = await both(path, { conditions: [], sort: true, size: 5 });
    expect(d.length, path).toBeGreaterThan(0);
    for (const [i, dr] of d.entries()) {
      const vr = v[i]!;
      const at = `${path}[${i}]`;
      if (vr.tenantId !== 'vila-serena') wrong.push(`${at} tenantId ${String(vr.tenantId)}`);
      if (!String((vr._links as { self?: { href?: unknown } } | undefined)?.self?.href).includes(path)) wrong.push(`${at} _links`);
      if ('_links' in dr || 'tenantId' in dr) wrong.push(`${at} default shows the variant's extras`);
      for (const [field, type] of Object.entries(SPECS[coll])) {
        const dv = dr[field],
          vv = vr[field];
        if (coll === 'user' && field === 'password') {
          // Never shown, in either reading.
          if (field in vr) wrong.push(`${at} shows password`);
        } else if (!(field in vr)) {
          wrong.push(`${at}.${field} absent`);
        } else if (!(field in dr)) {
          nulled++;
          if (vv !== null) wrong.push(`${at}.${field} is ${JSON.stringify(vv)} where the record has nothing`);
        } else if (type === 'date' && typeof dv === 'string') {
          dated++;
          const ok =
            /Z$/.test(dv) &&
            typeof vv === 'string' &&
            /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}-03:00$/.test(vv) &&
            Date.parse(vv) === Date.parse(dv);
          if (!ok) wrong.push(`${at}.${field} ${dv} became ${String(vv)}`);
        } else if (type === 'int' && typeof dv === 'number') {
          counted++;
          if (vv !== digits(dv)) wrong.push(`${at}.${field} ${dv} became ${JSON.stringify(vv)}`);
        } else if (coll === 'userSession' && field.startsWith('userConnected')) {
          const other = field === 'userConnectedResource' ? 'userConnectedInstance' : 'userConnectedResource';
          if (vv !== (dr[other] ?? null)) wrong.push(`${at}.${field} is not the default's ${other}`);
        } else if (typeof type === 'string' && !(coll === 'message' && ['fromUser', 'toUser', 'sendBy', 'sentiment'].includes(field))) {
          if (JSON.stringify(vv) !== JSON.stringify(dv)) wrong.push(`${at}.${field} ${JSON.stringify(dv)} became ${JSON.stringify(vv)}`);
        }
      }
    }
  }
  expect(wrong).toEqual([]);
  expect(nulled).toBeGreaterThan(50);
  expect(dated).toBeGreaterThan(50);
  expect(counted).toBeGreaterThan(50);
});

test('the variant accepts saves in both shapes and condition keys on session', async () => {
  const session = await activeSession(vrnt);
  const id = Number(session.id);
  const customer = session.user as UserObj;
  const agentUser = session.agent as UserObj;
  const save = async (body: Row) => {
    const r = await vrnt.v2('/messages/save', body);
    expect(r.status, r.text).toBe(201);
    return r.json<Row>();
  };
  // The session as a bare id or an object; who wrote it as a boolean, an object or a role.
  const shapes: Array<[Row, 'CUSTOMER' | 'AGENT']> = [
    [{ session: id, fromUser: true }, 'CUSTOMER'],
    [{ session: { id }, fromUser: false }, 'AGENT'],
    [{ session: id, fromUser: { id: customer.id, name: customer.name } }, 'CUSTOMER'],
    [{ session: { id, _links: null }, fromUser: { id: agentUser.id }, toUser: { id: customer.id } }, 'AGENT'],
    [{ session: id, sendBy: 'CUSTOMER', toUser: null }, 'CUSTOMER'],
    [
      { session: id, sendBy: 'AGENT', fromUser: null, sentiment: { label: 'POSITIVE', score: 0.93 }, tenantId: 'vila-serena', _links: {} },
      'AGENT',
    ],
  ];
  for (const [i, [body, role]] of shapes.entries()) {
    const m = await save({ ...body, message: `linha ${i}` });
    expect(m.session, JSON.stringify(body)).toBe(digits(id));
    expect(m.sendBy, JSON.stringify(body)).toBe(role);
    expect((m.fromUser as UserObj).typeUser, JSON.stringify(body)).toBe(role);
    // A customer's line ends the wait for the customer; an attendant's starts it.
    const now = (await page(vrnt, '/user-session', { conditions: [eqnum('id', id)], sort: false })).results[0]!;
    expect(now.pending, JSON.stringify(body)).toBe(role === 'AGENT');
  }
  const last = await page(vrnt, '/messages', {
    conditions: [eqnum('session.id', id)],
    sort: true,
    sortColumn: 'id',
    direction: 'DESC',
    size: 1,
  });
  expect(last.results[0]!.sentiment).toEqual({ label: 'POSITIVE', score: null });
  // The variant's own key for a message's session filters the same thread.
  const byBare = await page(vrnt, '/messages', { conditions: [eqnum('session', id)], sort: true, sortColumn: 'session', size: 100 });
  const byKey = await page(vrnt, '/messages', { conditions: [eqnum('session.id', id)], sort: true, size: 100 });
  expect(byBare.results.map((m) => m.id).sort()).toEqual(byKey.results.map((m) => m.id).sort());
  expect(byKey.results.length).toBeGreaterThanOrEqual(shapes.length);

  // Dates with an offset go in and come back as the same instant; references as bare ids too.
  const call = await vrnt.v2('/call-log-hist/save', {
    callId: 'CALL-R1',
    eventType: 'RINGING',
    eventDate: '2026-11-23T17:04:05.123-03:00',
  });
  expect(call.status, call.text).toBe(201);
  expect(call.json<Row>().eventDate).toBe('2026-11-23T17:04:05.123-03:00');
  const tag = await vrnt.v2('/tag-bot/save', { bot: 1, session: id, tag: 'intencao:teste' });
  expect(tag.status, tag.text).toBe(201);
  // A session save may carry back what the variant showed, agent summary included.
  const echoed = await vrnt.v2('/user-session/save', {
    id,
    groupConf: session.groupConf,
    agent: session.agent,
    pending: true,
    tenantId: 'vila-serena',
  });
  expect(echoed.status, echoed.text).toBe(200);
  expect(echoed.json<Row>()).not.toHaveProperty('agent');
  expect((await page(vrnt, '/user-session', { conditions: [eqnum('id', id)], sort: false })).results[0]!.agent).toEqual(session.agent);
});

test('the default reading refuses the variant shapes it never serves', async () => {
  const session = await activeSession(dflt);
  const bare = await dflt.v2('/messages/save', { session: session.id, message: 'oi' });
  expect(bare.status).toBe(400);
  const extra = await dflt.v2('/messages/save', { session: { id: session.id }, message: 'oi', tenantId: 'x' });
  expect(extra.status).toBe(400);
  expect(extra.json<Row>().errorCode).toBe('UNKNOWN_FIELD');
});

test('npm run standin takes the reading from STANDIN_READING, and --reading wins over it', async () => {
  const bareSession = async (args: string[]): Promise<boolean> => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src-standin/cli.ts', '--json', '--port', '0', '--sessions', '20', ...args], {
      cwd: process.cwd(),
      env: { ...process.env, STANDIN_READING: 'variant' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`cli exited ${code}`)));
      });
      const info = JSON.parse(line) as { baseUrl: string; tokens: { agent: string } };
      const m = await page(standinClient(info.baseUrl, info.tokens.agent), '/messages', { conditions: [], sort: true, size: 1 });
      return typeof m.results[0]!.session !== 'object';
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  };
  expect(await bareSession([])).toBe(true);
  expect(await bareSession(['--reading', 'default'])).toBe(false);
});
