import { test, expect } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startStandin, type Standin } from '../../../src-standin/index';
import { standinClient } from '../../../src-standin/test-client';
import { WEBHOOK_HEADERS, WebhookEventSchema, type WebhookEvent } from '../../../src-shared/webhook';
import { verifyWebhook } from '../../../src-shared/webhook-signature';

interface Received {
  headers: Record<string, string | undefined>;
  raw: Buffer;
  event: WebhookEvent;
}

/** A loopback listener that records every delivery; `fail(n)` answers 500 to the next n. */
async function listener(): Promise<{ url: string; got: Received[]; attempts: string[]; fail(n: number): void; close(): Promise<void> }> {
  const got: Received[] = [];
  const attempts: string[] = [];
  let failures = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const headers: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(',') : v;
      attempts.push(String(headers[WEBHOOK_HEADERS.id]));
      if (failures > 0) {
        failures--;
        res.writeHead(500).end();
        return;
      }
      got.push({ headers, raw, event: WebhookEventSchema.parse(JSON.parse(raw.toString('utf8'))) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    got,
    attempts,
    fail: (n) => {
      failures = n;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let sb: Standin;
let agent: ReturnType<typeof standinClient>;

test.beforeAll(async () => {
  sb = await startStandin({ port: 0, webhookRetry: { attempts: 4, baseDelayMs: 20, timeoutMs: 2000 } });
  agent = standinClient(sb.baseUrl, sb.tokens.agent);
});
test.afterAll(async () => {
  await sb.close();
});

async function waitingSessionId(): Promise<number> {
  const r = await agent.v2('/user-session', {
    conditions: [
      { key: 'status', operator: 'EQ', value: 'OPEN' },
      { key: 'agent', operator: 'IS_NULL' },
    ],
    sort: true,
    size: 1,
  });
  return r.json<{ results: Array<{ id: number }> }>().results[0]!.id;
}

test('registration: create, list, remove; bad bodies refused', async () => {
  const l = await listener();
  try {
    const created = await agent.v2('/hook', { url: l.url, secret: 's3cr3t', groups: ['messages'] });
    expect(created.status).toBe(201);
    const hook = created.json<{ id: number; url: string; groups: string[] }>();
    expect(hook).toEqual({ id: hook.id, url: l.url, groups: ['messages'] });
    const listed = await agent.get('/chatapi/1.0/api/v2/hook');
    expect(listed.json<{ results: Array<{ id: number }> }>().results.map((h) => h.id)).toContain(hook.id);
    expect(listed.text).not.toContain('s3cr3t');
    expect((await agent.call('DELETE', `/chatapi/1.0/api/v2/hook/${hook.id}`)).status).toBe(204);
    expect((await agent.call('DELETE', `/chatapi/1.0/api/v2/hook/${hook.id}`)).status).toBe(404);
    expect((await agent.v2('/hook', { url: 'ftp://x' })).status).toBe(400);
    expect((await agent.v2('/hook', { url: l.url, groups: ['gossip'] })).status).toBe(400);
  } finally {
    await l.close();
  }
});

test('API writes produce signed events that verify, in order, filtered by group', async () => {
  const all = await listener();
  const sessionsOnly = await listener();
  const unsigned = await listener();
  try {
    const secret = 'whsec_' + Buffer.from('segredo-do-teste').toString('base64');
    const a = (await agent.v2('/hook', { url: all.url, secret })).json<{ id: number }>();
    await agent.v2('/hook', { url: sessionsOnly.url, secret: 'outro', groups: ['sessions'] });
    await agent.v2('/hook', { url: unsigned.url, groups: ['messages'] });
    const id = await waitingSessionId();
    expect((await agent.v2('/user-session/save', { id, lastAgent: sb.demoAgent.userName })).status).toBe(200);
    expect((await agent.v2('/messages/save', { session: { id }, message: 'Olá, Mariana! Já vou verificar o boleto.' })).status).toBe(201);
    expect((await agent.v2('/user-session/save', { id, status: 'CLOSED' })).status).toBe(200);

    await expect
      .poll(() => all.got.map((g) => g.event.type))
      .toEqual(['session.assigned', 'message.created', 'session.status', 'session.closed', 'session.status']);
    for (const g of all.got) {
      const check = verifyWebhook(
        secret,
        {
          id: g.headers[WEBHOOK_HEADERS.id],
          timestamp: g.headers[WEBHOOK_HEADERS.timestamp],
          signature: g.headers[WEBHOOK_HEADERS.signature],
        },
        g.raw,
        Math.floor(Date.now() / 1000),
      );
      expect(check).toEqual({ ok: true });
      expect(g.event.id).toBe(g.headers[WEBHOOK_HEADERS.id]);
      // A wrong secret does not verify.
      expect(
        verifyWebhook(
          'nope',
          {
            id: g.headers[WEBHOOK_HEADERS.id],
            timestamp: g.headers[WEBHOOK_HEADERS.timestamp],
            signature: g.headers[WEBHOOK_HEADERS.signature],
          },
          g.raw,
          Math.floor(Date.now() / 1000),
        ).ok,
      ).toBe(false);
    }
    const created = all.got.find((g) => g.event.type === 'message.created')!.event;
    expect(created.group).toBe('messages');
    expect(created.data).toMatchObject({ sessionId: id, message: { session: { id }, fromUser: false, sendBy: sb.demoAgent.userName } });

    await expect.poll(() => sessionsOnly.got.map((g) => g.event.type)).toEqual(['session.assigned', 'session.closed']);
    expect(sessionsOnly.got.every((g) => g.event.group === 'sessions')).toBe(true);
    await expect.poll(() => unsigned.got.length).toBe(1);
    expect(unsigned.got[0]!.headers[WEBHOOK_HEADERS.signature]).toBeUndefined();
    await agent.call('DELETE', `/chatapi/1.0/api/v2/hook/${a.id}`);
  } finally {
    await Promise.all([all.close(), sessionsOnly.close(), unsigned.close()]);
  }
});

test('a failing listener is retried with the same event id, and later events wait their turn', async () => {
  const l = await listener();
  try {
    const hook = (await agent.v2('/hook', { url: l.url, secret: 'k', groups: ['sessions'] })).json<{ id: number }>();
    l.fail(2);
    const first = await waitingSessionId();
    await agent.v2('/user-session/save', { id: first, lastAgent: sb.demoAgent.userName });
    const second = await waitingSessionId();
    await agent.v2('/user-session/save', { id: second, lastAgent: 'bruno.lima' });
    await expect.poll(() => l.got.length).toBe(2);
    expect(l.got.map((g) => (g.event.data as { sessionId: number }).sessionId)).toEqual([first, second]);
    const firstId = l.got[0]!.event.id;
    expect(l.attempts.filter((x) => x === firstId)).toHaveLength(3);
    await agent.call('DELETE', `/chatapi/1.0/api/v2/hook/${hook.id}`);
  } finally {
    await l.close();
  }
});

test('delivery gives up after the bounded attempts and moves on', async () => {
  const l = await listener();
  try {
    const hook = (await agent.v2('/hook', { url: l.url, groups: ['sessions'] })).json<{ id: number }>();
    l.fail(4);
    const first = await waitingSessionId();
    await agent.v2('/user-session/save', { id: first, lastAgent: sb.demoAgent.userName });
    const second = await waitingSessionId();
    await agent.v2('/user-session/save', { id: second, lastAgent: sb.demoAgent.userName });
    await expect.poll(() => l.got.length).toBe(1);
    expect((l.got[0]!.event.data as { sessionId: number }).sessionId).toBe(second);
    expect(l.attempts).toHaveLength(5);
    await agent.call('DELETE', `/chatapi/1.0/api/v2/hook/${hook.id}`);
  } finally {
    await l.close();
  }
});

test('simulated customers and API writes produce events of every group', async () => {
  const l = await listener();
  try {
    await agent.v2('/hook', { url: l.url });
    await sb.simulator.step();
    await expect.poll(() => l.got.map((g) => g.event.type)).toContain('message.created');
    const created = l.got.find((g) => g.event.type === 'session.created')!;
    expect(created.event.group).toBe('sessions');
    const sessionId = (created.event.data as { sessionId: number }).sessionId;
    const msg = l.got.find((g) => g.event.type === 'message.created')!.event.data as { sessionId: number; message: { fromUser: boolean } };
    expect(msg).toMatchObject({ sessionId, message: { fromUser: true } });
    // Entities come from the AI engineer's recognizer (src-standin/ai/ner.ts).
    await expect.poll(() => l.got.some((g) => g.event.type === 'entities.recognized')).toBe(true);
    const ent = l.got.find((g) => g.event.type === 'entities.recognized')!.event;
    expect(ent.group).toBe('entities');
    expect(ent.data).toMatchObject({ sessionId });

    // voice: a customer line in a voice session is also a call transcript.
    const voice = (await agent.v2('/user-session/save', { groupConf: { id: 3 }, userConnectedResource: 'voice' })).json<{ id: number }>();
    await agent.v2('/messages/save', { session: { id: voice.id }, message: 'Minha internet caiu de novo.', fromUser: true });
    await expect
      .poll(() => l.got.find((g) => g.event.type === 'call.transcript')?.event.data)
      .toMatchObject({ sessionId: voice.id, text: 'Minha internet caiu de novo.' });
    // bot: a tag saved by the bot.
    await agent.v2('/tag-bot/save', { bot: { id: 1 }, session: { id: voice.id }, tag: 'intencao:internet' });
    await expect
      .poll(() => l.got.find((g) => g.event.type === 'bot.tag')?.event)
      .toMatchObject({ group: 'bot', data: { sessionId: voice.id, tag: 'intencao:internet' } });
    // status: an attendant changes its own presence.
    const me = (
      await agent.v2('/users', { conditions: [{ key: 'userName', operator: 'EQ', value: sb.demoAgent.userName }], sort: false })
    ).json<{ results: Array<{ agent: { id: number } }> }>();
    await agent.v2('/agent/save', { id: me.results[0]!.agent.id, status: 'PAUSED' });
    await expect
      .poll(() => l.got.find((g) => g.event.type === 'agent.status')?.event)
      .toMatchObject({ group: 'status', data: { userName: sb.demoAgent.userName, status: 'PAUSED' } });
  } finally {
    await l.close();
  }
});
