import { test, expect } from '@playwright/test';
import { authorOf, idOf, personOf, sessionIdOf } from '../../../src-shared/concepts';
import { bucketOf } from '../../../src-shared/queue';
import { startStandin, type Standin } from '../../../src-standin/index';
import { ALL_READINGS } from '../../../src-standin/reading';
import { NPS_SURVEY } from '../../../src-standin/seed';
import { openConsole } from '../../support/console';
import { serviceApi } from '../../support/web';

/**
 * The attendant's main flows through the console's real handler table, against both readings of
 * the interface the stand-in serves (src-standin/README.md, readings): the same flows must hold
 * whichever shape the server gives the fields the interface leaves untyped.
 */

for (const reading of ALL_READINGS) {
  test.describe(`the ${reading} reading`, () => {
    let sb: Standin;
    let c: Awaited<ReturnType<typeof openConsole>>;
    let api: ReturnType<typeof serviceApi>;

    test.beforeEach(async () => {
      sb = await startStandin({ port: 0, sessions: 60, reading });
      api = serviceApi(sb.baseUrl, sb.tokens.agent);
      c = await openConsole();
      // No user name typed: the console asks the service who the token belongs to.
      await c.call('workspace:connect', { baseUrl: sb.baseUrl, token: sb.tokens.agent, allowWeakStorage: true });
    });
    test.afterEach(async () => {
      await c?.app.close();
      await sb?.close();
    });

    const messagesOf = async (sessionId: number) =>
      (await api.listAll('/messages', [{ key: 'session.id', operator: 'EQNUM', value: String(sessionId) }])).filter(
        (m) => sessionIdOf(m) === sessionId,
      );

    test('connect, queue, thread with customer and agent told apart, reply and note exactly once', async () => {
      test.setTimeout(90_000);
      const state = await c.call('workspace:state', {});
      expect(state.user?.userName).toBe(sb.demoAgent.userName);

      const snap = await c.call('attendance:queue', {});
      const mine = snap.items.filter((i) => bucketOf(i, snap.me) === 'mine' || bucketOf(i, snap.me) === 'pending');
      expect(mine.length).toBeGreaterThan(0);
      expect(snap.items.some((i) => bucketOf(i, snap.me) === 'waiting')).toBe(true);

      // A thread with both sides: every message read, the customer's and the agent's apart.
      const withBoth: Array<{ s: (typeof mine)[number]; opened: Awaited<ReturnType<typeof c.call<'attendance:openThread'>>> }> = [];
      for (const s of mine) {
        const opened = await c.call('attendance:openThread', { sessionId: s.id });
        const roles = new Set(opened.page.messages.map((m) => m.author));
        if (roles.has('customer') && roles.has('agent')) withBoth.push({ s, opened });
        if (withBoth.length) break;
      }
      expect(withBoth.length).toBe(1);
      const { s, opened } = withBoth[0]!;
      expect(opened.page.unreadable.count).toBe(0);
      expect(opened.page.messages.every((m) => m.author !== null && m.createdAt?.endsWith('Z'))).toBe(true);
      const stored = await messagesOf(s.id);
      for (const m of opened.page.messages) {
        const raw = stored.find((r) => idOf(r.id) === m.id)!;
        expect(raw, `message ${m.id}`).toBeDefined();
        expect(m.fromCustomer).toBe(authorOf(raw).role === 'customer' || raw.fromUser === true);
      }

      // A reply whose answer is lost: confirmed from the thread, never sent twice.
      await sb.faults.set([{ match: { method: 'POST', path: '/chatapi/1.0/api/v2/messages/save' }, kind: 'dropAfterCommit', count: 1 }]);
      const text = `Resposta confirmada ${reading} ${Date.now()}`;
      const sent = await c.call('attendance:send', { sessionId: s.id, text, clientId: 'reply-1' });
      expect(sent.text).toBe(text);
      expect(sent.author).toBe('agent');
      const again = await c.call('attendance:send', { sessionId: s.id, text, clientId: 'reply-1' });
      expect(again.id).toBe(sent.id);
      expect((await messagesOf(s.id)).filter((m) => m.message === text)).toHaveLength(1);

      // Lost again, and this time the thread cannot be read back: "could not confirm", and the
      // retry looks before it saves, so the reply that did arrive is not sent twice.
      const second = `Segunda resposta ${reading} ${Date.now()}`;
      await sb.faults.set([
        { match: { method: 'POST', path: '/chatapi/1.0/api/v2/messages/save' }, kind: 'dropAfterCommit', count: 1 },
        { match: { method: 'POST', path: '/chatapi/1.0/api/v2/messages' }, kind: 'status', status: 503 },
      ]);
      const unsure = await c.fail('attendance:send', { sessionId: s.id, text: second, clientId: 'reply-2' });
      expect(unsure.kind).toBe('OutcomeUnknown');
      expect(unsure.message).toContain('check the thread before resending');
      await sb.faults.clear();
      const confirmed = await c.call('attendance:send', { sessionId: s.id, text: second, clientId: 'reply-2' });
      expect(confirmed.text).toBe(second);
      expect((await messagesOf(s.id)).filter((m) => m.message === second)).toHaveLength(1);

      // A note goes exactly once.
      const note = `Nota ${reading} ${Date.now()}`;
      await c.call('notes:add', { sessionId: s.id, text: note });
      await expect
        .poll(
          async () =>
            (await api.listAll('/session-comment', [{ key: 'sessionId', operator: 'EQNUM', value: String(s.id) }])).filter((n) =>
              String(n.comment).includes(note),
            ).length,
          { timeout: 20_000 },
        )
        .toBe(1);
    });

    test('accept, transfer, a mandatory classification enforced and saved with its comment, close', async () => {
      test.setTimeout(90_000);
      const snap = await c.call('attendance:queue', {});
      const waiting = snap.items.filter((i) => bucketOf(i, snap.me) === 'waiting');
      expect(waiting.length).toBeGreaterThan(1);

      // Accept: the session becomes the attendant's.
      const accepted = await c.call('attendance:accept', { sessionId: waiting[0]!.id });
      expect(bucketOf(accepted, snap.me)).toBe('mine');

      // Transfer another to a group: the service's record names the new group.
      const dir = await c.call('attendance:directory', {});
      const target = dir.groups.find((g) => g.id !== waiting[1]!.groupId)!;
      const moved = await c.call('attendance:transfer', { sessionId: waiting[1]!.id, groupId: target.id });
      expect(moved.groupId).toBe(target.id);

      // With a note for whoever takes it next: the move made, the note is the session's, once; a
      // refused move leaves no note behind.
      const noted = waiting[2]!.id;
      const comments = async () =>
        (await api.listAll('/session-comment', [{ key: 'sessionId', operator: 'EQNUM', value: String(noted) }])).map((n) =>
          String(n.comment),
        );
      await c.fail('attendance:transfer', { sessionId: noted, groupId: 987_654, note: 'Nunca salva' });
      const note = `Cliente aguarda retorno do financeiro (${reading}).`;
      expect((await c.call('attendance:transfer', { sessionId: noted, groupId: target.id, note })).groupId).toBe(target.id);
      await expect.poll(async () => (await comments()).filter((t) => t.includes(note)).length).toBe(1);
      expect((await c.call('notes:list', { sessionId: noted })).local.map((n) => n.text)).not.toContain('Nunca salva');
      expect(await comments()).not.toContainEqual(expect.stringContaining('Nunca salva'));

      // Close in a group that requires a classification: refused without one, saved with it.
      const mandatoryGroups: number[] = [];
      for (const g of dir.groups) {
        const full = await api.post('/chatapi/1.0/api/v2/groups/unique', {
          conditions: [{ key: 'id', operator: 'EQNUM', value: String(g.id) }],
          sort: false,
        });
        if (full.mandatoryClassificationTree === true) mandatoryGroups.push(g.id);
      }
      expect(mandatoryGroups.length).toBeGreaterThan(0);
      const inMandatory =
        snap.items.find((i) => bucketOf(i, snap.me) === 'mine' && i.groupId !== null && mandatoryGroups.includes(i.groupId)) ??
        (await c.call('attendance:transfer', { sessionId: accepted.id, groupId: mandatoryGroups[0]! }));
      const tree = await c.call('attendance:classificationTree', { sessionId: inMandatory.id });
      expect(tree.mandatory).toBe(true);
      expect(tree.roots.length).toBeGreaterThan(0);
      const refused = await c.fail('attendance:close', { sessionId: inMandatory.id });
      expect(refused.field).toBe('classification');
      let path = [tree.roots[0]!.id];
      for (let node = tree.roots[0]!; node.children.length; node = node.children[0]!) path = [...path, node.children[0]!.id];
      const comment = `Resolvido ${reading}`;
      const closed = await c.call('attendance:close', { sessionId: inMandatory.id, classification: path, comment });
      expect(bucketOf(closed, snap.me)).toBe('closed');
      const saved = await api.listAll('/classification-service', [{ key: 'sessionId', operator: 'EQNUM', value: String(inMandatory.id) }]);
      const record = saved.find((r) => r.commentClassification === comment)!;
      expect(record).toBeDefined();
      // As its field names read: the agent record's id, the node chosen, the readable path.
      const labels: string[] = [];
      for (let level = tree.roots, i = 0; i < path.length; i++) {
        const node = level.find((n) => n.id === path[i])!;
        labels.push(node.label);
        level = node.children;
      }
      const agents = await api.listAll('/agent');
      const myAgent = agents.find((a) => personOf(a.user)?.userName === sb.demoAgent.userName)!;
      expect(idOf(record.agentId)).toBe(idOf(myAgent.id));
      expect(idOf(record.classificationTreeSession)).toBe(path[path.length - 1]);
      expect(String(record.displayName).endsWith(` > ${labels.join(' > ')}`)).toBe(true);
      // And read back when the closed session is opened.
      const reopened = await c.call('attendance:openThread', { sessionId: inMandatory.id });
      expect(reopened.detail.classification).toBe(record.displayName);

      // A record written the other way round (the path in classificationTreeSession, the leaf in
      // displayName), as other tools did, reads the same.
      const [other] = await api.list('/user-session', [{ key: 'status', operator: 'EQ', value: 'CLOSED' }], { direction: 'DESC', size: 1 });
      const otherId = idOf(other!.id)!;
      await serviceApi(sb.baseUrl, sb.tokens.admin).post('/chatapi/1.0/api/v2/classification-service/save', {
        sessionId: otherId,
        classificationTreeSession: 'Atendimento > Dúvidas > Prazo de entrega',
        displayName: 'Prazo de entrega',
      });
      expect((await c.call('attendance:openThread', { sessionId: otherId })).detail.classification).toBe(
        'Atendimento > Dúvidas > Prazo de entrega',
      );
    });

    test('a new customer message reaches the open thread, and tickets and NPS read', async () => {
      test.setTimeout(90_000);
      await sb.simulator.stop();
      const snap = await c.call('attendance:queue', {});
      const mine = snap.items.find((i) => bucketOf(i, snap.me) === 'mine' || bucketOf(i, snap.me) === 'pending')!;
      await c.call('attendance:openThread', { sessionId: mine.id });
      const session = (await api.list('/user-session', [{ key: 'id', operator: 'EQNUM', value: String(mine.id) }]))[0]!;
      const customer = personOf(session.user);
      const text = `Cliente escreveu ${reading} ${Date.now()}`;
      expect(customer).not.toBeNull();
      await serviceApi(sb.baseUrl, sb.tokens.admin).post('/chatapi/1.0/api/v2/messages/save', {
        session: { id: mine.id },
        message: text,
        fromUser: true,
      });
      // What the safety-net poll does every 30 s (and a webhook at once): read forward from the marks.
      await c.call('live:resync', {});
      await expect
        .poll(
          () =>
            c
              .events('attendance:messages')
              .flatMap((e) => e.messages)
              .find((m) => m.text === text)?.author ?? null,
          { timeout: 20_000 },
        )
        .toBe('customer');

      const ticket = await c.call('supervisor:ticket', { idOrKey: 'SUP-4711' });
      expect(ticket.id).toBe(4711);
      expect(ticket.title).toBeTruthy();
      const nps = await c.call('supervisor:nps', { surveyName: NPS_SURVEY });
      expect(nps.totalCount).toBeGreaterThan(0);
    });
  });
}
