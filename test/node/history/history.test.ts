import { test, expect } from '@playwright/test';
import { idOf, sessionIdOf } from '../../../src-shared/concepts';
import { startStandin, type Standin } from '../../../src-standin/index';
import { ALL_READINGS } from '../../../src-standin/reading';
import { openConsole } from '../../support/console';
import { snippetOf } from '../../../src-main/features/history/snippet';
import { serviceApi, type Rec } from '../../support/web';

/**
 * The customer panel and the search through the console's real handler table, against both
 * readings of the stand-in: what the panel lists is what the service holds for the customer, and
 * a search finds a message by its text, cancels an older search, and falls back to the kept copies.
 */

for (const reading of ALL_READINGS) {
  test.describe(`the ${reading} reading`, () => {
    let sb: Standin;
    let c: Awaited<ReturnType<typeof openConsole>>;
    let api: ReturnType<typeof serviceApi>;
    /** Every record of a list, in pages of 50 (the variant's cap), until a short one. */
    const all = async (resource: string, conditions: unknown[] = []): Promise<Rec[]> => {
      const out: Rec[] = [];
      for (let page = 0; ; page++) {
        const rows = await api.list(resource, conditions, { page, size: 50 });
        out.push(...rows);
        if (rows.length < 50) return out;
      }
    };

    test.beforeEach(async () => {
      sb = await startStandin({ port: 0, sessions: 200, reading });
      // The raw reads below use the default reading's shapes, whichever the console is given.
      api = serviceApi(sb.baseUrl, sb.tokens.agent);
      c = await openConsole();
      await c.call('workspace:connect', { baseUrl: sb.baseUrl, token: sb.tokens.agent, allowWeakStorage: true });
    });
    test.afterEach(async () => {
      await c?.app.close();
      await sb?.close();
    });

    /** A session whose customer has at least two others, one of them closed and classified. */
    async function sessionWithHistory(): Promise<{ sessionId: number; others: Rec[]; classes: Rec[] }> {
      const sessions = await all('/user-session');
      const classes = await all('/classification-service');
      const byCustomer = new Map<number, Rec[]>();
      for (const s of sessions) {
        const u = idOf(s.user);
        if (u !== null) byCustomer.set(u, [...(byCustomer.get(u) ?? []), s]);
      }
      for (const list of byCustomer.values()) {
        const classified = list.filter((s) => classes.some((k) => idOf(k.sessionId) === idOf(s.id)));
        if (list.length >= 3 && classified.length >= 1) {
          const current = list.find((s) => !classified.includes(s)) ?? list[0]!;
          return { sessionId: idOf(current.id)!, others: list.filter((s) => s !== current), classes };
        }
      }
      throw new Error('the seed has no customer with history');
    }

    test('the panel lists every other session of the customer with its classification, survey and ticket', async () => {
      test.setTimeout(60_000);
      const { sessionId, others, classes } = await sessionWithHistory();
      const got = await c.call('history:customer', { sessionId });
      expect(got.failed).toEqual([]);
      expect(got.sessions.map((s) => s.id).sort((a, b) => a - b)).toEqual(others.map((s) => idOf(s.id)).sort((a, b) => a! - b!));
      expect(got.sessions.some((s) => s.id === sessionId)).toBe(false);
      // Newest first.
      const dates = got.sessions.map((s) => s.createdAt ?? '');
      expect([...dates].sort().reverse()).toEqual(dates);
      const answers = await all('/chat-answer');
      for (const s of got.sessions) {
        const raw = others.find((o) => idOf(o.id) === s.id)!;
        const k = classes.find((x) => idOf(x.sessionId) === s.id);
        expect(s.classification).toBe(k ? k.displayName : null);
        expect(s.survey).toEqual(answers.filter((a) => idOf(a.sessionId) === s.id).map((a) => String(a.value)));
        expect(s.ticketId).toBe(idOf(raw.ticketId));
        if (raw.closedAt)
          expect(s.durationSeconds).toBe(Math.round((Date.parse(raw.closedAt as string) - Date.parse(raw.createdAt as string)) / 1000));
        expect(s.groupName).toBeTruthy();
        expect(s.channel).toBeTruthy();
      }
      for (const t of got.tickets) expect(others.some((o) => idOf(o.ticketId) === t.id)).toBe(true);

      // An earlier session read-only: its messages, the customer's and the attendant's told apart.
      const closed = got.sessions.find((s) => s.classification)!;
      const page = await c.call('history:session', { sessionId: closed.id });
      const raw = (await all('/messages', [{ key: 'session.id', operator: 'EQNUM', value: String(closed.id) }])).filter(
        (m) => sessionIdOf(m) === closed.id,
      );
      expect(page.messages.map((m) => m.id).sort((a, b) => a - b)).toEqual(raw.map((m) => idOf(m.id)).sort((a, b) => a! - b!));
      expect(page.messages.filter((m) => m.fromCustomer).length).toBe(
        raw.filter((m) => m.fromUser === true || m.sendBy === 'CUSTOMER').length,
      );
    });

    test('a search by message text finds the message and says where the match is', async () => {
      const messages = await api.list('/messages', [], { size: 400 });
      const m =
        messages.find((x) => typeof x.message === 'string' && /\bPED-\d+/.test(x.message)) ??
        messages.find((x) => typeof x.message === 'string' && x.message.length > 30)!;
      const words = /\bPED-\d+/.exec(m.message as string)?.[0] ?? (m.message as string).slice(10, 28).trim();
      const asked = words.toUpperCase();
      const got = await c.call('history:search', { query: asked });
      expect(got.offline).toBe(false);
      const hit = got.hits.find((h) => h.messageId === idOf(m.id));
      expect(hit, `a hit for message ${String(m.id)}`).toBeTruthy();
      expect(hit!.field).toBe('message');
      expect(hit!.sessionId).toBe(sessionIdOf(m));
      expect(hit!.snippet.match.toLowerCase()).toBe(words.toLowerCase());
      expect(`${hit!.snippet.before}${hit!.snippet.match}${hit!.snippet.after}`.toLowerCase()).toContain(words.toLowerCase());
      // Every message hit holds the text: the service's LIKE, not a list of everything.
      for (const h of got.hits.filter((x) => x.field === 'message')) expect(h.snippet.match.toLowerCase()).toBe(words.toLowerCase());
    });

    test('a search by e-mail, protocol and ticket key finds the session by that field', async () => {
      const [s] = await api.list('/user-session', [{ key: 'ticketId', operator: 'NOT_NULL', value: '' }], { size: 1 });
      const user = (await api.list('/users', [{ key: 'id', operator: 'EQNUM', value: String(idOf(s!.user)) }]))[0]!;
      const sid = idOf(s!.id);
      const byMail = await c.call('history:search', { query: user.email as string });
      expect(byMail.hits.some((h) => h.sessionId === sid && h.field === 'email')).toBe(true);
      const byProtocol = await c.call('history:search', { query: s!.protocol as string });
      expect(byProtocol.hits.filter((h) => h.field === 'protocol').map((h) => h.sessionId)).toEqual([sid]);
      const byTicket = await c.call('history:search', { query: `SUP-${String(idOf(s!.ticketId))}` });
      expect(byTicket.hits.some((h) => h.sessionId === sid && h.field === 'ticket')).toBe(true);
    });

    test('a newer search cancels the older one; with the service away the kept copies answer, marked', async () => {
      const snap = await c.call('attendance:queue', {});
      const open = snap.items[0]!;
      const opened = await c.call('attendance:openThread', { sessionId: open.id });
      const m = opened.page.messages.find((x) => x.text.length > 20)!;
      const words = m.text.slice(4, 18);

      await sb.faults.set([{ match: { path: '/chatapi/1.0/api/v2/messages' }, kind: 'latency', latencyMs: 1_500 }]);
      const first = c.call('history:search', { query: words });
      const second = c.call('history:search', { query: `${words} ` });
      expect((await first).superseded).toBe(true);
      expect((await second).superseded).toBe(false);
      await sb.faults.clear();

      await sb.close();
      const kept = await c.call('history:search', { query: words });
      expect(kept.offline).toBe(true);
      expect(kept.keptAt).toBe(opened.fetchedAt);
      expect(kept.hits.some((h) => h.messageId === m.id && h.sessionId === open.id && h.field === 'message')).toBe(true);
    });
  });
}

test('a snippet shows the match with what surrounds it, and never a document in clear', () => {
  const text = 'Bom dia! Meu pedido PED-184471 não chegou e já paguei o boleto duas vezes, veja o comprovante anexo por favor.';
  const s = snippetOf(text, 'ped-184471');
  expect(s.match).toBe('PED-184471');
  expect(`${s.before}${s.match}${s.after}`.replace(/…/g, '')).toBe(text.slice(0, text.indexOf('PED') + 10 + 40));
  const withCpf = snippetOf('Meu CPF é 123.456.789-09, pode conferir?', '123.456.789-09');
  expect(JSON.stringify(withCpf)).not.toContain('123.456');
  expect(snippetOf('Meu CPF é 123.456.789-09', 'CPF').after).toContain('***.***.789-09');
});
