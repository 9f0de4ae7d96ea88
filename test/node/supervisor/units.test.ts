import { test, expect } from '@playwright/test';
import { checkAccelerator, DEFAULT_TICKET_SHORTCUT } from '../../../src-main/features/supervisor/accelerator';
import { bindTicketShortcut } from '../../../src-main/features/supervisor/global-shortcut';
import { agentOf } from '../../../src-main/features/agents';
import { groupsOverview, npsConditions, npsIndex, readRules, reportConditions } from '../../../src-main/features/supervisor/views';
import { explainRefusedQuery } from '../../../src-main/features/supervisor/index';
import { AppError } from '../../../src-shared/errors';
import type { z } from 'zod';
import { readRecord, type Read } from '../../../src-shared/envelopes';
import { AgentSchema, SessionSchema } from '../../../src-shared/schemas/index';
import { EventHub } from '../../../src-main/bridge/table';
import { linkifyTickets } from '../../../src-renderer/src/features/supervisor/tickets';
import { csvCell } from '../../../src-renderer/src/features/supervisor/csv';
import { sheetCsv } from '../../../src-renderer/src/features/supervisor/sheet';
import { checkKbUpload } from '../../../src-renderer/src/features/supervisor/kb-check';
import { toConditions, leaf, group } from '../../../src-renderer/src/features/supervisor/conditions';

test('accelerators: valid ones are normalised, unsafe or malformed ones refused with a reason', () => {
  expect(checkAccelerator(DEFAULT_TICKET_SHORTCUT)).toEqual({ ok: true, accelerator: 'CommandOrControl+Shift+T' });
  expect(checkAccelerator('shift+cmdorctrl+t')).toEqual({ ok: true, accelerator: 'CommandOrControl+Shift+T' });
  expect(checkAccelerator('Alt+F9')).toEqual({ ok: true, accelerator: 'Alt+F9' });
  expect(checkAccelerator('F13')).toEqual({ ok: true, accelerator: 'F13' });
  expect(checkAccelerator('Ctrl++')).toEqual({ ok: true, accelerator: 'Control+Plus' });
  const refused = (s: string) => {
    const r = checkAccelerator(s);
    expect(r.ok, s).toBe(false);
    return r.ok ? '' : r.reason;
  };
  expect(refused('T')).toContain('Add Ctrl, Cmd or Alt');
  expect(refused('Shift+T')).toContain('Add Ctrl, Cmd or Alt');
  expect(refused('Ctrl+Alt+Q')).toContain('keyboard layouts');
  expect(refused('AltGr+E')).toContain('keyboard layouts');
  expect(refused('Ctrl+Shift')).toContain('needs a key');
  expect(refused('Ctrl+T+Y')).toContain('one key');
  expect(refused('Ctrl+Ctrl+T')).toContain('twice');
  expect(refused('Ctrl+Hyper+T')).toContain('"Hyper" is not a key');
  expect(refused('Ctrl+ +T')).toContain('empty part');
  expect(refused('  ')).toContain('Type a shortcut');
});

test('the shortcut adapter registers, re-registers on change, and opens the lookup on press', async () => {
  const registered = new Map<string, () => void>();
  const gs = {
    register: (a: string, cb: () => void) => (a === 'Alt+F2' ? false : (registered.set(a, cb), true)),
    unregister: (a: string) => void registered.delete(a),
  };
  const events = new EventHub();
  const pushed: string[] = [];
  events.subscribe((name) => pushed.push(name));
  let shown = 0;
  const win = { isMinimized: () => true, restore: () => shown++, show: () => shown++, focus: () => shown++ };
  const logs: string[] = [];
  const log = { debug() {}, info() {}, warn: (m: string) => logs.push(m), error() {} };
  const stop = bindTicketShortcut({
    globalShortcut: gs,
    window: () => win,
    log,
    app: {
      events,
      handlers: {
        'supervisor:ticketShortcut': async () => ({
          accelerator: 'CommandOrControl+Shift+T',
          defaultAccelerator: 'CommandOrControl+Shift+T',
        }),
      },
    },
  });
  await expect.poll(() => [...registered.keys()]).toEqual(['CommandOrControl+Shift+T']);
  registered.get('CommandOrControl+Shift+T')!();
  expect(shown).toBe(3);
  expect(pushed).toContain('supervisor:openTicketLookup');
  events.emit('supervisor:ticketShortcut', { accelerator: 'Alt+F9', defaultAccelerator: 'CommandOrControl+Shift+T' });
  expect([...registered.keys()]).toEqual(['Alt+F9']);
  events.emit('supervisor:ticketShortcut', { accelerator: 'Alt+F2', defaultAccelerator: 'CommandOrControl+Shift+T' });
  expect([...registered.keys()]).toEqual([]);
  expect(logs).toContain('ticket shortcut is taken by another program');
  stop();
});

test('ticket references in message text become lookup links; look-alikes do not', () => {
  const refs = (s: string) => linkifyTickets(s).flatMap((p) => (p.kind === 'ticket' ? [p.ref] : []));
  expect(refs('Veja o ticket 4711 e o SUP-4712, também #4713.')).toEqual(['4711', 'SUP-4712', '4713']);
  expect(refs('chamado nº 4714')).toEqual(['4714']);
  expect(refs('pre-2024 e ABC-de e R$ 4711 e C#7')).toEqual([]);
  const parts = linkifyTickets('ver SUP-4711 agora');
  expect(parts.map((p) => p.text).join('')).toBe('ver SUP-4711 agora');
});

test('CSV cells are quoted per RFC 4180 and formulas are neutralised', () => {
  expect(csvCell('a,b')).toBe('"a,b"');
  expect(csvCell('say "hi"')).toBe('"say ""hi"""');
  expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
  expect(csvCell(-5)).toBe('-5');
  expect(csvCell(null)).toBe('');
  const sheet = (rows: Array<Array<string | number | null>>) => ({
    name: 'x',
    columns: [
      { header: 'a', kind: 'number', digits: 1 },
      { header: 'b', kind: 'text' },
      { header: 'id', kind: 'id' },
      { header: 'time', kind: 'duration' },
    ] as const,
    rows,
  });
  expect(sheetCsv(sheet([[1.25, 'x\ny', '20261126000123', 3725]]), 'en')).toBe(
    '\uFEFFa,b,id,time\r\n1.3,"x\ny",="20261126000123",1:02:05\r\n',
  );
  // pt-BR: semicolons and decimal commas; an id that is not only digits stays guarded text.
  expect(sheetCsv(sheet([[7.535, null, '=1+1', 59.6]]), 'pt-BR')).toBe("\uFEFFa;b;id;time\r\n7,5;;'=1+1;0:01:00\r\n");
});

test('knowledge-base uploads are checked before sending: drive links, types and names', () => {
  expect(checkKbUpload('http://127.0.0.1:8080/faq.txt', '127.0.0.1_faq_data_pt')).toEqual([]);
  expect(checkKbUpload('https://drive.google.com/file/d/1/view', 'acme.com_faq_data_pt')[0]).toEqual({
    field: 'url',
    key: 'kb.drive',
    params: { drive: 'Google Drive' },
  });
  expect(checkKbUpload('https://acme.com/faq.exe', 'acme.com_faq_data_pt')[0]).toMatchObject({
    key: 'kb.extension',
    params: { ext: 'exe' },
  });
  expect(checkKbUpload('https://acme.com/faq.csv', 'faq')[0]).toMatchObject({ field: 'name' });
  expect(checkKbUpload('https://acme.com/faq.csv', 'Acme.com_faq_data_pt')[0]).toMatchObject({ field: 'name', key: 'kb.lowerCase' });
});

test('the condition builder writes nested OR/AND groups; empty leaves are dropped', () => {
  const g = group('or');
  g.children = [leaf('userConnectedResource', 'EQ', 'email'), leaf('userConnectedResource', 'EQ', 'sms')];
  const second = leaf('pending', 'IS_TRUE', 'ignored');
  second.logic = 'OR';
  expect(toConditions([leaf('status', 'EQ', 'OPEN'), leaf(), g, second])).toEqual([
    { key: 'status', operator: 'EQ', value: 'OPEN' },
    {
      logic: 'AND',
      or: [
        { key: 'userConnectedResource', operator: 'EQ', value: 'email' },
        { key: 'userConnectedResource', operator: 'EQ', value: 'sms' },
      ],
    },
    { logic: 'OR', key: 'pending', operator: 'IS_TRUE' },
  ]);
});

/** Records as the console reads them: through their schema. */
function readAll<T>(schema: z.ZodType<T>, resource: string, raws: readonly Record<string, unknown>[]): Read<T>[] {
  return raws.map((r) => {
    const got = readRecord(schema, r, resource);
    if (!got.ok) throw new Error(JSON.stringify(got.skip));
    return got.record;
  });
}

test('NPS index, conditions, report filters and rules are read as the interface says', () => {
  expect(npsIndex(55, 20, 100)).toBe(35);
  expect(npsIndex(0, 0, 0)).toBeNull();
  expect(npsConditions({ from: '2024-01-01T03:00:00.000Z', groupId: 2 })).toEqual([
    { key: 'createdAt', operator: 'AFTER', value: '2024-01-01T03:00:00.000Z' },
    { key: 'groupConf.id', operator: 'EQNUM', value: '2', logic: 'AND' },
  ]);
  expect(reportConditions({ agentName: 'Ana_%', channelName: 'email' })).toEqual([
    { key: 'agentName', operator: 'LIKE', value: '%Ana%' },
    { key: 'channelName', operator: 'EQ', value: 'email', logic: 'AND' },
  ]);
  expect(readRules({ role: 'SUPERVISOR', rules: ['config:write'] })).toEqual({ role: 'supervisor', rules: ['config:write'] });
  expect(readRules({ role: 'owner' })).toEqual({ role: null, rules: null });
});

test('groups overview: waiting whatever the status word, with a bot apart, in attendance, longest wait against sla, agents with status', () => {
  const now = Date.parse('2024-06-01T12:00:00Z');
  const g1 = { id: 1, name: 'Geral', sla: 2, timeUnit: 'MINUTES' };
  const g2 = { id: '2', name: 'Financeiro', sla: '600', timeUnit: 'SECONDS' };
  const sessions = readAll(SessionSchema, 'userSession', [
    { id: 1, status: 'OPEN', groupConf: g1, agent: null, createdAt: '2024-06-01T11:55:00Z' },
    { id: 2, status: 'OPEN', groupConf: g1, agent: { userName: 'ana', name: 'Ana' }, pending: true },
    { id: '3', status: 'TRANSFERIDO', groupConf: g2, agent: null, createdAt: '2024-06-01T08:59:00-03:00' },
    { id: 4, status: 'CLOSED', groupConf: g2, agent: null },
    { id: 5, status: 'WAITING_BOT', groupConf: g2, agent: { userName: 'bruno', name: 'Bruno' } },
    { id: 6, status: 'OPEN', onlyBot: 'true', groupConf: g2, agent: null },
    { status: 'OPEN', groupConf: g2, agent: null },
  ]);
  const agents = readAll(AgentSchema, 'agent', [
    { id: 1, status: 'ONLINE', user: { userName: 'ana', name: 'Ana Souza' } },
    { id: 2, status: 'BUSY', user: { userName: 'bruno', name: 'Bruno Lima' } },
  ]);
  const o = groupsOverview(sessions, agents.map(agentOf), now, false, { count: 0, first: null });
  expect(
    o.groups.map((g) => [g.name, g.waiting, g.withBot, g.inAttendance, g.pending, g.longestWaitSeconds, g.slaSeconds, g.overSla]),
  ).toEqual([
    ['Geral', 1, 0, 1, 1, 300, 120, true],
    ['Financeiro', 1, 2, 0, 0, 60, 600, false],
  ]);
  expect(o.groups[0]!.agents).toEqual([{ userName: 'ana', name: 'Ana Souza', status: 'ONLINE', sessions: 1 }]);
  expect(o.agents.map((a) => [a.name, a.status, a.sessions])).toEqual([
    ['Ana Souza', 'ONLINE', 1],
    ['Bruno Lima', 'BUSY', 0],
  ]);
  // The session without an id is counted, and named in the log's words.
  expect(o.unreadable).toEqual({ count: 1, first: { resource: 'userSession', id: null, field: 'id', reason: 'missing or unreadable' } });
});

test('a filter the service refuses that compares an id as text is explained with the number operator', () => {
  const refused = new AppError({ kind: 'Unavailable', status: 500, message: 'The service failed (500).' });
  const explained = explainRefusedQuery(refused, [
    { key: 'status', operator: 'EQ', value: 'OPEN' },
    { key: 'x', operator: 'EQ', value: '1', logic: 'AND', or: [{ key: 'groupConf.id', operator: 'EQ', value: '3' }] },
  ]) as AppError;
  expect(explained.kind).toBe('Invalid');
  expect(explained.message).toBe(
    'The service refused this filter (500). Numeric ids are compared with the number operators: try groupConf.id EQ → EQNUM.',
  );
  // Nothing to explain: the error stays as it was.
  expect(explainRefusedQuery(refused, [{ key: 'status', operator: 'EQ', value: 'OPEN' }])).toBe(refused);
  const timeout = new AppError({ kind: 'Timeout', message: 'slow' });
  expect(explainRefusedQuery(timeout, [{ key: 'id', operator: 'EQ', value: '1' }])).toBe(timeout);
});
