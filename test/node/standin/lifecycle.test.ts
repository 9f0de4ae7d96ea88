import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startStandin } from '../../../src-standin/index';
import { standinClient } from '../../../src-standin/test-client';

type Page<T> = { results: T[] };
const eqnum = (key: string, value: number) => ({ key, operator: 'EQNUM', value: String(value) });

test('a data directory left readable by others is made private to its user at start, files and folders alike', async () => {
  test.skip(process.platform === 'win32', 'modes do not apply on Windows');
  const dir = await mkdtemp(join(tmpdir(), 'standin-private-'));
  try {
    const first = await startStandin({ port: 0, dataDir: dir });
    await first.close();
    // As an older version might have left it: the data, a folder and a file in it, all readable.
    await mkdir(join(dir, 'knowledge-bases', 'old'), { recursive: true });
    await writeFile(join(dir, 'knowledge-bases', 'old', 'base.json'), '{}');
    for (const name of await readdir(dir, { recursive: true })) await chmod(join(dir, name), name.endsWith('.json') ? 0o644 : 0o755);
    await chmod(dir, 0o755);

    const second = await startStandin({ port: 0, dataDir: dir });
    await second.close();
    const modes = new Map<string, number>([['.', (await stat(dir)).mode & 0o777]]);
    for (const name of await readdir(dir, { recursive: true })) modes.set(name, (await stat(join(dir, name))).mode & 0o777);
    expect(modes.get(join('knowledge-bases', 'old', 'base.json'))).toBe(0o600);
    expect(modes.get(join('knowledge-bases', 'old'))).toBe(0o700);
    for (const [name, mode] of modes) expect(`${name} ${mode.toString(8)}`).toMatch(/ (600|700)$/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('with a data directory everything saved survives a restart; without one nothing does', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'standin-'));
  try {
    const first = await startStandin({ port: 0, dataDir: dir });
    const a = standinClient(first.baseUrl, first.tokens.agent);
    const note = (await a.v2('/session-comment/save', { sessionId: 2, comment: 'Anotação que precisa sobreviver.' })).json<{
      id: number;
    }>();
    expect((await a.v2('/user-session/save', { id: 2, lastAgent: first.demoAgent.userName, status: 'CLOSED' })).status).toBe(200);
    const created = (await a.v2('/user-session/save', { groupConf: { id: 2 }, userConnectedResource: 'email' })).json<{ id: number }>();
    await a.v2('/hook', { url: 'http://127.0.0.1:9/never', groups: ['bot'] });
    await first.close();
    const files = await readdir(dir);
    expect(files).toContain('meta.json');
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);

    const second = await startStandin({ port: 0, dataDir: dir });
    try {
      expect(second.tokens).toEqual(first.tokens);
      const b = standinClient(second.baseUrl, second.tokens.agent);
      const notes = (await b.v2('/session-comment', { conditions: [eqnum('id', note.id)], sort: false })).json<Page<{ comment: string }>>();
      expect(notes.results[0]!.comment).toBe('Anotação que precisa sobreviver.');
      const s2 = (await b.v2('/user-session', { conditions: [eqnum('id', 2)], sort: false })).json<
        Page<{ status: string; agent: { userName: string } }>
      >();
      expect(s2.results[0]).toMatchObject({ status: 'CLOSED', agent: { userName: first.demoAgent.userName } });
      const s3 = (await b.v2('/user-session', { conditions: [eqnum('id', created.id)], sort: false })).json<Page<unknown>>();
      expect(s3.results).toHaveLength(1);
      // New ids continue after the saved ones.
      const next = (await b.v2('/user-session/save', { groupConf: { id: 1 } })).json<{ id: number }>();
      expect(next.id).toBe(created.id + 1);
      const hooks = (await b.get('/chatapi/1.0/api/v2/hook')).json<Page<{ url: string }>>();
      expect(hooks.results.map((h) => h.url)).toEqual(['http://127.0.0.1:9/never']);
    } finally {
      await second.close();
    }

    const mem1 = await startStandin({ port: 0 });
    await standinClient(mem1.baseUrl, mem1.tokens.agent).v2('/session-comment/save', { sessionId: 2, comment: 'só na memória' });
    await mem1.close();
    const mem2 = await startStandin({ port: 0 });
    const gone = await standinClient(mem2.baseUrl, mem2.tokens.agent).v2('/session-comment', {
      conditions: [{ key: 'comment', operator: 'EQ', value: 'só na memória' }],
      sort: false,
    });
    expect(gone.json<Page<unknown>>().results).toEqual([]);
    await mem2.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the same seed gives the same data', async () => {
  const anchorTime = '2024-06-01T12:00:00Z';
  const one = await startStandin({ port: 0, seed: 99, anchorTime });
  const two = await startStandin({ port: 0, seed: 99, anchorTime });
  const three = await startStandin({ port: 0, seed: 100, anchorTime });
  try {
    const read = async (sb: typeof one) =>
      (await standinClient(sb.baseUrl, sb.tokens.admin).v2('/messages', { conditions: [], sort: true, size: 50 })).text;
    expect(await read(one)).toBe(await read(two));
    expect(await read(one)).not.toBe(await read(three));
  } finally {
    await Promise.all([one.close(), two.close(), three.close()]);
  }
});

test('the simulator opens sessions, sends customer messages and answers attendants', async () => {
  const sb = await startStandin({ port: 0 });
  const a = standinClient(sb.baseUrl, sb.tokens.agent);
  const admin = standinClient(sb.baseUrl, sb.tokens.admin);
  const count = async () =>
    (await a.v2('/user-session', { conditions: [], sort: true, sortColumn: 'id', direction: 'DESC', size: 1 })).json<Page<{ id: number }>>()
      .results[0]!.id;
  try {
    const before = await count();
    await sb.simulator.step();
    const after = await count();
    expect(after).toBe(before + 1);
    const opening = (await a.v2('/messages', { conditions: [eqnum('session.id', after)], sort: true, sortColumn: 'id' })).json<
      Page<{ fromUser: boolean; message: string }>
    >();
    expect(opening.results).toHaveLength(1);
    expect(opening.results[0]!.fromUser).toBe(true);
    expect(opening.results[0]!.message.length).toBeGreaterThan(10);

    // An attendant accepts and replies; within a bounded number of ticks the customer answers.
    await a.v2('/user-session/save', { id: after, lastAgent: sb.demoAgent.userName });
    const reply = (await a.v2('/messages/save', { session: { id: after }, message: 'Olá! Como posso ajudar?' })).json<{ id: number }>();
    let answered = false;
    for (let i = 0; i < 30 && !answered; i++) {
      await sb.simulator.step();
      const later = (
        await a.v2('/messages', {
          conditions: [eqnum('session.id', after), { key: 'fromUser', operator: 'IS_TRUE' }],
          sort: true,
          sortColumn: 'id',
        })
      ).json<Page<{ id: number }>>();
      answered = later.results.some((m) => m.id > reply.id);
    }
    expect(answered).toBe(true);

    // Timer mode, switched over HTTP as an out-of-process test would.
    const denied = await a.call('POST', '/__standin/simulator', { enabled: true });
    expect(denied.status).toBe(403);
    expect((await admin.call('POST', '/__standin/simulator', { enabled: true, intervalMs: 100 })).json()).toEqual({ enabled: true });
    const base = await count();
    await expect.poll(count, { timeout: 10_000 }).toBeGreaterThan(base + 1);
    expect((await admin.call('POST', '/__standin/simulator', { enabled: false })).json()).toEqual({ enabled: false });
    expect((await admin.call('POST', '/__standin/simulator/step', {})).status).toBe(200);
  } finally {
    await sb.close();
  }
});

test('npm run standin -- --json prints one line with the base URL, tokens and demo agent', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-standin/cli.ts', '--json', '--port', '0', '--sessions', '50'], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      const rl = createInterface({ input: child.stdout });
      rl.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`cli exited ${code}`)));
    });
    const info = JSON.parse(line) as {
      baseUrl: string;
      tokens: { agent: string; supervisor: string; admin: string };
      demoAgent: { userName: string };
    };
    expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const rules = await standinClient(info.baseUrl, info.tokens.supervisor).v2('/users/rules', {});
    expect(rules.json<{ role: string }>().role).toBe('supervisor');
    const sessions = await standinClient(info.baseUrl, info.tokens.agent).v2('/user-session', { conditions: [], sort: false, size: 500 });
    expect(sessions.json<Page<unknown>>().results).toHaveLength(50);
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
});

test('a demo left running keeps a workable queue: no new customers arrive while the queue is full', async () => {
  const { MAX_WAITING } = await import('../../../src-standin/simulator');
  const sb = await startStandin({ port: 0 });
  try {
    const waiting = async () => {
      const res = await fetch(`${sb.baseUrl}/chatapi/1.0/api/v2/user-session`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sb.tokens.agent}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          conditions: [
            { key: 'status', operator: 'EQ', value: 'OPEN' },
            { key: 'agent', operator: 'IS_NULL' },
          ],
          sort: false,
          page: 0,
          size: 500,
        }),
      });
      return ((await res.json()) as { results: unknown[] }).results.length;
    };
    for (let i = 0; i < MAX_WAITING + 30; i++) await sb.simulator.step();
    expect(await waiting()).toBe(MAX_WAITING);
  } finally {
    await sb.close();
  }
});
