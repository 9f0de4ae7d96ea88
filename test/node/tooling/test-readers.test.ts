import { test, expect } from '@playwright/test';
import { startStandin, type Standin } from '../../../src-standin/index';
import { READINGS } from '../../../src-standin/reading';
import { customerSays } from '../../support/customer';
import { groupNameOf, idIn, instantIn, nameOf, senderRole, sessionIdIn, typedNote, userNameOf } from '../../support/records';
import { ownOpenSessions, serviceApi, type Rec } from '../../support/web';

/**
 * The web tests' own readers of the service's records (test/support/records.ts) read both shapes
 * the stand-in writes: what a web test expects is only as good as them, and they share no code
 * with the console's readers.
 */

for (const reading of READINGS) {
  test(`the tests' readers read the ${reading} reading's sessions, people, groups and messages`, async () => {
    test.setTimeout(60_000);
    let sb: Standin | undefined;
    try {
      sb = await startStandin({ port: 0, sessions: 20, reading });
      const admin = serviceApi(sb.baseUrl, sb.tokens.admin);
      const agent = serviceApi(sb.baseUrl, sb.tokens.agent);
      const [s] = await ownOpenSessions(sb, 1);
      const sessionId = idIn(s!.id)!;
      expect(Number.isInteger(sessionId)).toBe(true);
      expect(idIn(String(sessionId))).toBe(sessionId);
      expect(idIn({ id: String(sessionId) })).toBe(sessionId);
      expect(idIn('12a')).toBeUndefined();

      // The customer and the attendant, as the session names them and as their own records hold them.
      const [customer] = await admin.list('/users', [{ key: 'id', operator: 'EQNUM', value: String(idIn(s!.user)) }]);
      // The default shape embeds the whole user (its display name); the variant a reference without one.
      expect(nameOf(s!.user)).toBe(reading === 'default' ? customer!.displayName : customer!.name);
      expect(userNameOf(s!.agent)).toBe(sb.demoAgent.userName);
      expect(instantIn(customer!.createdAt)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(instantIn('not a date')).toBeNull();

      const group = await admin.post('/chatapi/1.0/api/v2/groups/unique', {
        conditions: [{ key: 'id', operator: 'EQNUM', value: String(idIn(s!.groupConf)) }],
        sort: true,
        sortColumn: 'id',
        direction: 'ASC',
      });
      expect(groupNameOf(s!)).toBe(group.name);

      // A customer's line and an attendant's reply, told apart in either shape.
      const said = `Meu pedido não chegou (${reading}).`;
      const replied = `Vou verificar agora (${reading}).`;
      await customerSays(sb.baseUrl, sb.tokens.admin, sessionId, said);
      await agent.post('/chatapi/1.0/api/v2/messages/save', { session: { id: sessionId }, message: replied });
      const messages = await admin.listAll('/messages', [{ key: 'session.id', operator: 'EQNUM', value: String(sessionId) }]);
      expect(messages.every((m: Rec) => sessionIdIn(m) === sessionId)).toBe(true);
      const roleOf = (text: string) => senderRole(messages.find((m: Rec) => m.message === text)!);
      expect([roleOf(said), roleOf(replied)]).toEqual(['customer', 'agent']);
    } finally {
      await sb?.close();
    }
  });
}

test("a note's outbox reference is taken off, and nothing else", () => {
  expect(typedNote('Cliente pediu reembolso · ref 7F3A9C2K')).toBe('Cliente pediu reembolso');
  expect(typedNote('Cliente pediu reembolso')).toBe('Cliente pediu reembolso');
  // Not the outbox's form: left for the test to see.
  expect(typedNote('Cliente pediu reembolso · ref 7f3a9c2k')).toBe('Cliente pediu reembolso · ref 7f3a9c2k');
  expect(typedNote('· ref 7F3A9C2K no meio')).toBe('· ref 7F3A9C2K no meio');
});
