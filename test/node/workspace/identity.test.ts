import { test, expect } from '@playwright/test';
import { bucketOf } from '../../../src-shared/queue';
import { startStandin, type Standin } from '../../../src-standin/index';
import { openConsole } from '../../support/console';

/**
 * Who the attendant is on the service is never left to a free-text guess: a typed user name is
 * checked, the token's own user is asked for, and otherwise the attendant picks themselves from
 * the service's attendants (remembered per workspace).
 */

let sb: Standin;
test.beforeAll(async () => {
  sb = await startStandin({ port: 0, sessions: 40 });
});
test.afterAll(async () => {
  await sb?.close();
});

test('a typed user name the service does not know is refused and nothing is kept', async () => {
  const c = await openConsole();
  try {
    const err = await c.fail('workspace:connect', {
      baseUrl: sb.baseUrl,
      token: sb.tokens.agent,
      userName: 'ana.sousa',
      allowWeakStorage: true,
    });
    expect(err.kind).toBe('NotFound');
    expect(err.message).toContain('"ana.sousa"');
    const state = await c.call('workspace:state', {});
    expect(state.signedIn).toBe(false);
    expect(state.workspace).toBeNull();
  } finally {
    await c.app.close();
  }
});

test('without a way to ask the service, the attendant picks themselves; Mine and accept then work, and the choice is kept', async () => {
  await sb.faults.set([{ match: { path: '/chatapi/1.0/api/v2/users/rules' }, kind: 'status', status: 503 }]);
  const c = await openConsole();
  try {
    await c.call('workspace:connect', { baseUrl: sb.baseUrl, token: sb.tokens.agent, allowWeakStorage: true });
    expect((await c.call('workspace:state', {})).user).toBeNull();
    const before = await c.call('attendance:queue', {});
    expect(before.items.some((i) => bucketOf(i, before.me) === 'mine')).toBe(false);

    const found = await c.call('workspace:people', { search: 'souza' });
    const me = found.people.find((p) => p.userName === sb.demoAgent.userName)!;
    expect(me).toBeDefined();
    expect(found.people.every((p) => `${p.name} ${p.userName}`.toLowerCase().includes('souza'))).toBe(true);
    const state = await c.call('workspace:setUser', { userName: me.userName });
    expect(state.user?.userName).toBe(sb.demoAgent.userName);

    const after = await c.call('attendance:queue', { fresh: true });
    expect(after.me).toBe(sb.demoAgent.userName);
    expect(after.items.some((i) => bucketOf(i, after.me) === 'mine')).toBe(true);
    const waiting = after.items.find((i) => bucketOf(i, after.me) === 'waiting')!;
    expect(bucketOf(await c.call('attendance:accept', { sessionId: waiting.id }), after.me)).toBe('mine');
    expect((await c.fail('workspace:setUser', { userName: 'nobody.here' })).kind).toBe('NotFound');
  } finally {
    await c.app.close();
    await sb.faults.clear();
  }
  // The next start of the same profile remembers who the attendant is for this workspace.
  const again = await openConsole(c.profileDir);
  try {
    expect((await again.call('workspace:state', {})).user?.userName).toBe(sb.demoAgent.userName);
  } finally {
    await again.app.close();
  }
});
