import { test, expect } from '@playwright/test';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startStandin, type Standin } from '../../../src-standin/index';
import { bridgeCalls, openConsole } from '../../support/console';
import { serviceApi, type Rec } from '../../support/web';
import { splitRef } from '../../../src-shared/note-ref';
import { idOf } from '../../../src-shared/concepts';
import { demoStandinOptions } from '../../../src-main/demo-standin';

/** Notes the service holds on a session, as the console wrote them (its reference tag taken off). */
async function notesOn(sb: Standin, sessionId: number): Promise<string[]> {
  const rows = await serviceApi(sb.baseUrl, sb.tokens.admin).listAll('/session-comment');
  return rows.filter((r) => idOf(r.sessionId) === sessionId).map((r) => splitRef((r.comment as string | undefined) ?? '').text);
}

async function anOpenSession(sb: Standin): Promise<number> {
  const rows = await serviceApi(sb.baseUrl, sb.tokens.agent).list('/user-session', [{ key: 'status', operator: 'EQ', value: 'OPEN' }], {
    size: 1,
  });
  return idOf((rows[0] as Rec).id)!;
}

/**
 * A profile from before several workspaces: the one workspace's files at the profile's root and
 * its settings among the console's. Made from a workspace folder the current console wrote.
 */
function asSingleWorkspaceProfile(profile: string, wsDir: string, baseUrl: string): void {
  const own = JSON.parse(readFileSync(join(wsDir, 'settings.json'), 'utf8')) as Rec;
  rmSync(join(wsDir, 'settings.json'));
  // Before accounts had folders of their own, the account's files were the workspace's.
  const accounts = join(wsDir, 'accounts');
  for (const account of existsSync(accounts) ? readdirSync(accounts) : [])
    for (const name of readdirSync(join(accounts, account))) renameSync(join(accounts, account, name), join(wsDir, name));
  rmSync(accounts, { recursive: true, force: true });
  for (const name of readdirSync(wsDir)) renameSync(join(wsDir, name), join(profile, name));
  rmSync(join(profile, 'workspaces'), { recursive: true });
  const file = join(profile, 'settings.json');
  const console_ = JSON.parse(readFileSync(file, 'utf8')) as Rec;
  delete console_.workspaces;
  delete console_.activeWorkspace;
  writeFileSync(file, JSON.stringify({ ...console_, ...own, workspace: { kind: 'remote', baseUrl } }));
}

test('a single-workspace profile moves into its own folder at the next start: the note waiting in its outbox is sent once, the token still signs in', async () => {
  test.setTimeout(90_000);
  const sb = await startStandin({ port: 0, sessions: 20 });
  try {
    let c = await openConsole();
    const profile = c.profileDir;
    const state = await c.call('workspace:connect', { baseUrl: sb.baseUrl, token: sb.tokens.agent, allowWeakStorage: true });
    const wsDir = c.app.workspaceDir(state.active!);
    const sessionId = await anOpenSession(sb);
    // The service refuses notes for now: the note waits in the outbox.
    await sb.faults.set([{ match: { path: '/chatapi/1.0/api/v2/session-comment' }, kind: 'reset' }]);
    await c.call('notes:add', { sessionId, text: 'Cliente pediu retorno amanhã.' });
    await c.app.close();
    const account = readdirSync(join(wsDir, 'accounts'));
    expect(account).toHaveLength(1);
    expect(readdirSync(join(wsDir, 'accounts', account[0]!, 'outbox', 'notes')).length).toBe(1);

    asSingleWorkspaceProfile(profile, wsDir, sb.baseUrl);
    expect(existsSync(join(profile, 'outbox', 'notes'))).toBe(true);
    await sb.faults.clear();

    c = await openConsole(profile);
    try {
      const after = await c.call('workspace:state', {});
      expect(after).toMatchObject({ signedIn: true, baseUrl: sb.baseUrl, workspaces: [{ baseUrl: sb.baseUrl, signedIn: true }] });
      // Its files are in its folder now, none left at the root.
      const moved = c.app.workspaceDir(after.active!);
      expect(existsSync(join(moved, 'accounts', account[0]!, 'outbox'))).toBe(true);
      for (const name of ['outbox', 'drafts', 'vault.json', 'offline-cache']) expect(existsSync(join(profile, name)), name).toBe(false);
      await expect.poll(() => notesOn(sb, sessionId), { timeout: 30_000 }).toEqual(['Cliente pediu retorno amanhã.']);
      // Once: a later start sends nothing again.
      await c.app.close();
      c = await openConsole(profile);
      await c.call('notes:list', { sessionId });
      expect(await notesOn(sb, sessionId)).toEqual(['Cliente pediu retorno amanhã.']);
    } finally {
      await c.app.close();
    }
  } finally {
    await sb.close();
  }
});

test('each workspace answers the calls that name it, whichever is in front; a call for a workspace signed out of sends nothing', async () => {
  test.setTimeout(90_000);
  const [a, b] = await Promise.all([
    startStandin({ port: 0, sessions: 20, seed: 2 }),
    startStandin({ port: 0, sessions: 20, seed: 4, reading: 'variant' }),
  ]);
  const c = await openConsole();
  try {
    const sa = await c.call('workspace:connect', { baseUrl: a.baseUrl, token: a.tokens.agent, allowWeakStorage: true });
    const sbState = await c.call('workspace:connect', { baseUrl: b.baseUrl, token: b.tokens.agent, allowWeakStorage: true });
    const idA = sa.active!;
    const idB = sbState.active!;
    expect(idA).not.toBe(idB);
    expect(sbState.workspaces.map((w) => [w.id, w.baseUrl, w.signedIn])).toEqual([
      [idA, a.baseUrl, true],
      [idB, b.baseUrl, true],
    ]);

    // B is in front; a note for a session of A's, named for A, goes to A.
    const sessionA = await anOpenSession(a);
    /** Calls as the page makes them when it names the workspace (the transport's header or IPC argument). */
    const named = (ws: string) => bridgeCalls({ handlers: c.app.route(ws) });
    await named(idA).call('notes:add', { sessionId: sessionA, text: 'Nota para A' });
    await expect.poll(() => notesOn(a, sessionA)).toEqual(['Nota para A']);
    expect(
      (await serviceApi(b.baseUrl, b.tokens.admin).listAll('/session-comment')).some((r) => JSON.stringify(r).includes('Nota para A')),
    ).toBe(false);

    // Each workspace's queue is its own service's.
    const queueOf = async (ws: string) => (await named(ws).call('attendance:queue', {})).items.map((i) => String(i.protocol)).sort();
    const protocols = async (sb: Standin) =>
      (await serviceApi(sb.baseUrl, sb.tokens.admin).listAll('/user-session'))
        .filter((s) => s.status !== 'CLOSED')
        .map((s) => String(s.protocol))
        .sort();
    expect(await queueOf(idA)).toEqual(await protocols(a));
    expect(await queueOf(idB)).toEqual(await protocols(b));

    // Signed out of A: a late call named for A is refused and sends nothing; B keeps working.
    const out = await c.call('workspace:signOut', { id: idA });
    expect(out.workspaces.map((w) => w.id)).toEqual([idB]);
    expect(existsSync(c.app.workspaceDir(idA))).toBe(false);
    expect(await named(idA).fail('notes:add', { sessionId: sessionA, text: 'Tarde demais' })).toMatchObject({
      kind: 'NotFound',
      message: expect.stringMatching(/signed out of; nothing was sent/),
    });
    expect(await notesOn(a, sessionA)).toEqual(['Nota para A']);
    expect(await queueOf(idB)).toEqual(await protocols(b));
  } finally {
    await c.app.close();
    await Promise.all([a.close(), b.close()]);
  }
});

test('signing out of the demo workspace removes its listener registration at the stand-in before the stand-in stops', async () => {
  test.setTimeout(60_000);
  const c = await openConsole();
  try {
    await c.call('workspace:openDemo', {});
    await expect.poll(async () => (await c.call('live:status', {})).registered).toBe(true);
    await c.call('workspace:signOut', {});
  } finally {
    await c.app.close();
  }
  // The demo's data (its registrations included) is kept in the profile: read it again.
  const again = await startStandin({ ...demoStandinOptions(c.profileDir), simulator: false });
  try {
    const hooks = await serviceApi(again.baseUrl, again.tokens.admin).get('/chatapi/1.0/api/v2/hook');
    expect(hooks.results).toEqual([]);
  } finally {
    await again.close();
  }
});

test("a service whose sessions name their group without its SLA: the queue shows the group's SLA once the group is known, and Needs me sorts by it", async () => {
  test.setTimeout(60_000);
  const [a, b] = await Promise.all([
    startStandin({ port: 0, sessions: 30, seed: 6 }),
    startStandin({ port: 0, sessions: 30, seed: 6, reading: 'variant' }),
  ]);
  const c = await openConsole();
  try {
    await c.call('workspace:connect', { baseUrl: a.baseUrl, token: a.tokens.agent, allowWeakStorage: true });
    await c.call('workspace:connect', { baseUrl: b.baseUrl, token: b.tokens.agent, allowWeakStorage: true });
    const first = await c.call('workspace:needsMe', {});
    const ids = (await c.call('workspace:state', {})).workspaces.map((w) => w.id);
    // Once the groups are read, every row of either service has its SLA, as the groups set it.
    await expect
      .poll(async () => {
        const n = (await c.call('workspace:needsMe', {})).rows;
        return ids.map((id) => n.filter((r) => r.workspaceId === id).every((r) => r.item.slaSeconds !== null));
      })
      .toEqual([true, true]);
    const rows = (await c.call('workspace:needsMe', {})).rows;
    expect(new Set(rows.map((r) => r.workspaceId))).toEqual(new Set(ids));
    expect(first.rows.length).toBeGreaterThan(0);
    // Nearest SLA first, whichever service it is from.
    const due = rows.map((r) => Date.parse(r.item.createdAt!) + r.item.slaSeconds! * 1000);
    expect(due).toEqual([...due].sort((x, y) => x - y));
  } finally {
    await c.app.close();
    await Promise.all([a.close(), b.close()]);
  }
});
