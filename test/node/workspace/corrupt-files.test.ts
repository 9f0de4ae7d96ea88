import { test, expect } from '@playwright/test';
import { existsSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { openConsole } from '../../support/console';
import { startStandin, type Standin } from '../../../src-standin/index';
import { RESOURCES, V2 } from '../../../src-shared/paths';

/**
 * One unreadable file never stops the console: each file a profile holds, truncated, not JSON,
 * of the wrong shape, empty, or a directory in its place, and the console still starts, answers
 * every call, serves the other workspace, and says in one line what it set aside (the file kept
 * beside, named with its time).
 */

const MODES = {
  truncated: (file: string) => writeFileSync(file, readFileSync(file).subarray(0, Math.max(1, Math.floor(statSync(file).size / 2)))),
  'not JSON': (file: string) => writeFileSync(file, '{{{'),
  'wrong shape': (file: string) => writeFileSync(file, JSON.stringify([1, 'two', { three: 3 }])),
  'zero bytes': (file: string) => writeFileSync(file, ''),
  'a directory': (file: string) => {
    rmSync(file);
    mkdirSync(join(file, 'inside'), { recursive: true });
  },
} as const;

let sb: Standin;
/** A profile with two signed-in workspaces (the attendant's and the supervisor's), a draft and a note waiting. */
let template: string;
let ids: { agent: string; supervisor: string };

test.beforeAll(async () => {
  sb = await startStandin({ port: 0, sessions: 20 });
  const c = await openConsole();
  const agent = await c.call('workspace:connect', { baseUrl: sb.baseUrl, token: sb.tokens.agent, allowWeakStorage: true });
  const items = (await c.call('attendance:queue', {})).items;
  const sessionId = items[0]!.id;
  // A session of the attendant's snoozed: the account's snooze file.
  const mine = items.find((i) => i.agentUserName === sb.demoAgent.userName)!;
  await c.call('attendance:snooze', { sessionId: mine.id, until: null });
  // A note that waits in the outbox: the service refuses notes for now.
  await sb.faults.set([{ match: { path: V2 + RESOURCES.sessionComment.save }, kind: 'status', status: 503 }]);
  await c.call('notes:add', { sessionId, text: 'a note that waits' });
  const wsDir = c.app.workspaceDir(agent.active!);
  // The note waits in the signed-in account's own folder of the workspace.
  const waiting = () => filesUnder(wsDir).filter((f) => f.includes('outbox/notes/'));
  await expect.poll(() => waiting().length, { message: 'a note in the outbox' }).toBeGreaterThan(0);
  const accountDir = join(wsDir, waiting()[0]!.split('outbox/notes/')[0]!);
  const sup = await c.call('workspace:connect', { baseUrl: sb.baseUrl, token: sb.tokens.supervisor, allowWeakStorage: true });
  ids = { agent: agent.active!, supervisor: sup.active! };
  expect(ids.agent).not.toBe(ids.supervisor);
  await c.app.close();
  await sb.faults.clear();
  // A draft file as the drafts store writes them (its content is corrupted below anyway).
  mkdirSync(join(accountDir, 'drafts'), { recursive: true });
  writeFileSync(join(accountDir, 'drafts', `session-${sessionId}.json`), JSON.stringify({ sessionId, note: 'a note being written' }));
  template = c.profileDir;
});
test.afterAll(async () => {
  await sb.close();
});

/** Every regular file under a folder, relative to it. */
function filesUnder(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full, base));
    else out.push(relative(base, full));
  }
  return out;
}

test('the profile holds the files the test corrupts', () => {
  const files = filesUnder(template);
  const ws = `workspaces/${ids.agent}/`;
  for (const f of ['settings.json', `${ws}settings.json`, `${ws}vault.json`, `${ws}webhooks/state.json`]) expect(files).toContain(f);
  expect(
    files.some((f) => f.startsWith(`${ws}accounts/`) && f.endsWith('/snoozed.json')),
    files.join('\n'),
  ).toBe(true);
  expect(
    files.some((f) => f.startsWith(ws) && f.includes('/drafts/')),
    files.join('\n'),
  ).toBe(true);
  expect(
    files.some((f) => f.startsWith(ws) && f.includes('/outbox/notes/')),
    files.join('\n'),
  ).toBe(true);
});

/** The console answers: the supervisor's workspace signed in and its queue read, the attendant's without an internal error. */
async function callsWork(call: Awaited<ReturnType<typeof openConsole>>) {
  const state = await call.raw('workspace:state', {});
  expect(state, JSON.stringify(state)).toHaveProperty('result');
  // The supervisor's workspace is served, signed in, its queue read.
  await call.call('workspace:focus', { id: ids.supervisor });
  const front = await call.call('workspace:state', {});
  expect(front.signedIn).toBe(true);
  const queue = await call.raw('attendance:queue', {});
  expect(queue, JSON.stringify(queue)).toHaveProperty('result');
  // The attendant's workspace answers too (signed in or not, never an internal error).
  await call.call('workspace:focus', { id: ids.agent });
  for (const channel of ['workspace:state', 'notes:status', 'webhooks:status'] as const) {
    const env = await call.raw(channel, {});
    expect(env, `${channel}: ${JSON.stringify(env)}`).toHaveProperty('result');
  }
}

for (const file of [
  'settings.json',
  'settings.json:ws',
  'vault.json',
  'webhooks/state.json',
  'drafts',
  'outbox/notes',
  'attendance/activity.json',
  'snoozed.json',
  'offline-cache/queue.json',
  'vault.key',
]) {
  for (const [mode, corrupt] of Object.entries(MODES)) {
    test(`${file} ${mode}: the console starts, serves the other workspace, and says what it set aside`, async () => {
      const profile = mkdtempSync(join(tmpdir(), 'console-corrupt-'));
      cpSync(template, profile, { recursive: true });
      const ws = `workspaces/${ids.agent}/`;
      const target =
        file === 'settings.json' || file === 'vault.key'
          ? file
          : file === 'settings.json:ws'
            ? `${ws}settings.json`
            : file === 'drafts' || file === 'outbox/notes'
              ? // The account's own folder in the workspace holds them.
                filesUnder(profile).find((f) => f.startsWith(ws) && f.includes(`/${file}/`))!
              : file === 'snoozed.json'
                ? filesUnder(profile).find((f) => f.startsWith(`${ws}accounts/`) && f.endsWith(`/${file}`))!
                : `${ws}${file}`;
      corrupt(join(profile, target));
      const c = await openConsole(profile);
      try {
        if (file === 'settings.json') {
          // The list of workspaces: each comes back from the copy of its entry in its folder,
          // signed in as before (its token is in its own folder), and answers.
          const state = await c.call('workspace:state', {});
          expect(state.workspaces.map((w) => w.id).sort()).toEqual([ids.agent, ids.supervisor].sort());
          await callsWork(c);
          await c.call('workspace:focus', { id: ids.agent });
          expect((await c.call('workspace:state', {})).signedIn).toBe(true);
        } else if (file === 'vault.key') {
          // The key that sealed every token: the console starts and answers (signed out).
          expect(await c.raw('workspace:state', {})).toHaveProperty('result');
        } else await callsWork(c);
        // Said once (a workspace's files are read as it opens, in the background: waited for)
        await expect
          .poll(async () => (await c.call('workspace:state', {})).setAside.filter((s) => s.file === target).length, { timeout: 10_000 })
          .toBe(1);
        const state = await c.call('workspace:state', {});
        // Said once, named, and kept where it says.
        expect(state.setAside.filter((s) => s.file === target)).toHaveLength(1);
        const kept = state.setAside.find((s) => s.file === target)!.keptAs;
        expect(existsSync(join(profile, kept))).toBe(true);
      } finally {
        await c.app.close();
      }
    });
  }
}
