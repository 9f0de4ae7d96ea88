import { test, expect } from '@playwright/test';
import { bucketOf } from '../../../src-shared/queue';
import { TICKET, V2 } from '../../../src-shared/paths';
import { startStandin, type Standin } from '../../../src-standin/index';
import { openConsole } from '../../support/console';

/**
 * Who is signed in changes inside a workspace (another token for it, someone else picked): the
 * main process then makes everything that depends on the person anew. Nothing of the first
 * person reaches the second: not their identity, nor Mine, drafts, recent tickets, notes waiting
 * to be sent, an answer still on its way, or an event. What was the first person's is theirs
 * again when they sign in again.
 */

let sb: Standin;
test.beforeAll(async () => {
  sb = await startStandin({ port: 0, sessions: 40, seed: 11 });
});
test.afterAll(async () => {
  await sb?.close();
});
test.afterEach(async () => {
  await sb.faults.clear();
});

const RULES = `${V2}/users/rules`;
const DRAFT = 'Rascunho da Ana: vou verificar o pedido e já retorno.';
const NOTE = 'Nota da Ana: cliente pediu retorno amanhã cedo.';

/** The notes the service holds for a session, as the service lists them. */
async function serviceNotes(sessionId: number): Promise<string[]> {
  const res = await fetch(`${sb.baseUrl}${V2}/session-comment`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.tokens.admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      conditions: [{ key: 'sessionId', operator: 'EQNUM', value: String(sessionId) }],
      sort: false,
      page: 0,
      size: 500,
    }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: Array<{ comment?: string }> }).results.map((r) => r.comment ?? '');
}

test('another token in the same workspace, whose owner the service cannot tell: nothing of the attendant before is seen, sent or heard, and it is all hers again when she signs in again', async () => {
  test.setTimeout(90_000);
  const c = await openConsole();
  try {
    // Ana, the attendant, signs in: the service says whose token it is.
    await c.call('workspace:connect', { baseUrl: sb.baseUrl, token: sb.tokens.agent, allowWeakStorage: true });
    const first = await c.call('workspace:state', {});
    expect(first.user?.userName).toBe(sb.demoAgent.userName);
    const id = first.active!;
    const asAna = await c.call('attendance:queue', {});
    expect(asAna.me).toBe(sb.demoAgent.userName);
    const hers = asAna.items.find((i) => i.agentUserName === sb.demoAgent.userName)!;
    expect(hers).toBeDefined();
    // What she leaves behind: a draft, a ticket looked up, a note the service has not taken yet.
    await c.call('notes:setDraft', { sessionId: hers.id, kind: 'reply', text: DRAFT });
    const ticket = await c.call('supervisor:ticket', { idOrKey: 'SUP-4711' });
    expect((await c.call('supervisor:recentTickets', {})).tickets.map((t) => t.id)).toEqual([ticket.id]);
    await sb.faults.set([
      { match: { path: `${V2}/session-comment/save` }, kind: 'status', status: 500 },
      // The service cannot say whose token the next one is.
      { match: { path: RULES }, kind: 'status', status: 503 },
      // Her lookup of another ticket still on its way when someone else signs in.
      { match: { path: `${TICKET}/tickets/SUP-4712` }, kind: 'latency', latencyMs: 6_000 },
    ]);
    await c.call('notes:add', { sessionId: hers.id, text: NOTE });
    const late = c.raw('supervisor:ticket', { idOrKey: 'SUP-4712' });

    // The supervisor's token for the same workspace, no user name given.
    const second = await c.call('workspace:connect', {
      baseUrl: sb.baseUrl,
      token: sb.tokens.supervisor,
      allowWeakStorage: true,
      replace: id,
    });
    // What the page hears from now on.
    const heardFrom = c.events('attendance:queueDelta').length;
    const notesHeardFrom = c.events('notes:changed').length;
    expect(second.active).toBe(id);
    // Not Ana: the console asks who this is.
    expect(second.user).toBeNull();
    expect(second.workspaces.find((w) => w.id === id)?.user ?? null).toBeNull();
    // Her answer, still on its way, reaches nobody.
    const lateAnswer = await late;
    expect('error' in lateAnswer && lateAnswer.error.kind).toBe('Cancelled');
    const asNobody = await c.call('attendance:queue', {});
    expect(asNobody.me).toBeNull();
    expect(asNobody.items.filter((i) => bucketOf(i, asNobody.me) === 'mine')).toEqual([]);
    expect((await c.call('notes:draft', { sessionId: hers.id })).reply).toBe('');
    expect((await c.call('supervisor:recentTickets', {})).tickets).toEqual([]);
    expect((await c.call('notes:list', { sessionId: hers.id })).local).toEqual([]);
    expect(Object.values((await c.call('notes:status', {})).counts).every((n) => n === 0)).toBe(true);

    // The supervisor says who she is; the service takes notes again and hers is sent.
    await sb.faults.clear();
    await c.call('workspace:setUser', { userName: sb.demoSupervisor.userName });
    const asJuliana = await c.call('attendance:queue', {});
    expect(asJuliana.me).toBe(sb.demoSupervisor.userName);
    expect((await c.call('notes:draft', { sessionId: hers.id })).reply).toBe('');
    const own = `Nota da supervisora ${Date.now()}`;
    await c.call('notes:add', { sessionId: hers.id, text: own });
    await expect.poll(() => serviceNotes(hers.id), { timeout: 20_000 }).toContainEqual(expect.stringContaining(own));
    // Ana's note was not sent with the supervisor's token, and nothing of Ana was heard since.
    expect((await serviceNotes(hers.id)).some((n) => n.includes(NOTE))).toBe(false);
    expect(
      c
        .events('attendance:queueDelta')
        .slice(heardFrom)
        .filter((d) => d.me === sb.demoAgent.userName),
    ).toEqual([]);
    expect(
      c
        .events('notes:changed')
        .slice(notesHeardFrom)
        .filter((e) => e.note?.text === NOTE),
    ).toEqual([]);

    // Ana again: her draft, her recent ticket and her note waiting are hers again; the note goes now.
    const back = await c.call('workspace:connect', { baseUrl: sb.baseUrl, token: sb.tokens.agent, allowWeakStorage: true, replace: id });
    expect(back.user?.userName).toBe(sb.demoAgent.userName);
    expect((await c.call('notes:draft', { sessionId: hers.id })).reply).toBe(DRAFT);
    expect((await c.call('supervisor:recentTickets', {})).tickets.map((t) => t.id)).toContain(ticket.id);
    await expect.poll(() => serviceNotes(hers.id), { timeout: 20_000 }).toContainEqual(expect.stringContaining(NOTE));
  } finally {
    await c.app.close();
  }
});

test('signed out, then another token whose owner the service cannot tell: the console asks who this is, and every user may be picked', async () => {
  const c = await openConsole();
  try {
    await c.call('workspace:connect', { baseUrl: sb.baseUrl, token: sb.tokens.agent, allowWeakStorage: true });
    expect((await c.call('workspace:state', {})).user?.userName).toBe(sb.demoAgent.userName);
    await c.call('workspace:signOut', {});
    await sb.faults.set([{ match: { path: RULES }, kind: 'status', status: 503 }]);
    const state = await c.call('workspace:connect', { baseUrl: sb.baseUrl, token: sb.tokens.supervisor, allowWeakStorage: true });
    expect(state.signedIn).toBe(true);
    expect(state.user).toBeNull();
    expect((await c.call('attendance:queue', {})).me).toBeNull();
    // The list offers the supervisor and the administrator beside the attendants.
    const everyone = (await c.call('workspace:people', { search: '' })).people.map((p) => p.userName);
    expect(everyone).toEqual(expect.arrayContaining([sb.demoSupervisor.userName, 'admin', sb.demoAgent.userName]));
    const found = await c.call('workspace:people', { search: 'juliana' });
    expect(found.people.map((p) => p.userName)).toEqual([sb.demoSupervisor.userName]);
  } finally {
    await c.app.close();
  }
});
