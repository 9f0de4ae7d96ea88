import { test, expect } from '@playwright/test';
import {
  authorOf,
  boolOf,
  channelOf,
  classificationRecordOf,
  groupIsComplete,
  idOf,
  instantOf,
  intOf,
  isUnsafeInteger,
  numOf,
  personOf,
  samePerson,
  sentimentOf,
  sessionAgentOf,
  sessionCustomerOf,
  sessionGroupOf,
  sessionIdOf,
  sessionWithBot,
  statusKind,
} from '../../../src-shared/concepts';
import { bucketOf } from '../../../src-shared/queue';
import { toQueueItem } from '../../../src-main/queue';
import { toThreadMessage } from '../../../src-main/features/attendance/project';
import { GroupConfigurationSchema, MessageSchema, NpsSummarySchema, SessionSchema } from '../../../src-shared/schemas/index';
import { pageEnvelope, readRecord } from '../../../src-shared/envelopes';

/** A session as the console reads it: through its schema, the one layer. */
const session = (raw: Record<string, unknown>) => {
  const got = readRecord(SessionSchema, raw, 'userSession');
  if (!got.ok) throw new Error(JSON.stringify(got.skip));
  return got.record;
};

/**
 * Every concept the console derives from a record, fed every shape a server may reasonably
 * give the field (interface fields named without a type): boolean, number, digits, id object,
 * whole object, role word, user name, null, absent.
 */

const customer = { id: 501, name: 'Fernanda Lima', userName: 'fernanda.lima', typeUser: 'CUSTOMER' };
const agent = { id: 12, name: 'Ana Souza', userName: 'ana.souza', typeUser: 'AGENT' };

test('ids: numbers, digit strings and references; anything else is no id', () => {
  for (const v of [7, '7', ' 7 ', '007', { id: 7 }, { id: '7' }, { id: { id: 7 } }]) expect(idOf(v), JSON.stringify(v)).toBe(7);
  for (const v of [null, undefined, true, 7.5, '7.0', 'm-7', '', {}, [], { id: null }, Number.MAX_SAFE_INTEGER + 2, '9007199254740993'])
    expect(idOf(v), JSON.stringify(v)).toBeNull();
  expect(intOf({ id: 7 })).toBeNull();
  expect(intOf('-12')).toBe(-12);
});

test('an integer beyond 2^53 - 1 is never rounded: the record carrying it is refused, naming the field and why', () => {
  expect(isUnsafeInteger('9007199254740993')).toBe(true);
  expect(isUnsafeInteger(2 ** 60)).toBe(true);
  expect(isUnsafeInteger(String(Number.MAX_SAFE_INTEGER))).toBe(false);
  expect(isUnsafeInteger('12345678901234567890a')).toBe(false);
  for (const raw of [{ id: '9007199254740993' }, { id: 5, agent: { id: '90071992547409930' } }, { id: 5, groupConf: '9007199254740993' }]) {
    const got = readRecord(SessionSchema, raw, 'userSession');
    expect(got.ok, JSON.stringify(raw)).toBe(false);
    if (!got.ok) expect(got.skip.reason).toMatch(/beyond the integers this console carries exactly/);
  }
  const nested = readRecord(SessionSchema, { id: 5, agent: { id: '90071992547409930' } }, 'userSession');
  expect(nested.ok ? null : nested.skip).toMatchObject({ resource: 'userSession', id: 5, field: 'agent.id' });
  // Digits in a field typed as text stay text, however long (a protocol, a phone number).
  expect(session({ id: 5, protocol: '20261123000000000000001' }).protocol).toBe('20261123000000000000001');
});

test('numbers and booleans in the encodings servers use; the required ones of a summary are required', () => {
  expect(numOf('12.5')).toBe(12.5);
  expect(numOf('1e3')).toBe(1000);
  expect(numOf('12,5')).toBeNull();
  expect(boolOf('TRUE')).toBe(true);
  expect(boolOf(' false ')).toBe(false);
  for (const v of [1, 0, 'yes', null, 'sim']) expect(boolOf(v), String(v)).toBeNull();
  expect(NpsSummarySchema.parse({ averageNps: '8.5', negative: '1', neutral: 2, positive: '3', totalCount: '6' })).toMatchObject({
    averageNps: 8.5,
    negative: 1,
    totalCount: 6,
  });
  expect(NpsSummarySchema.safeParse({ averageNps: 8.5, negative: 1, neutral: 2, positive: 3 }).success).toBe(false);
});

test('date-times with or without offsets, fractions or zone, and epoch numbers, become one UTC instant', () => {
  const want = '2026-11-23T20:04:05.000Z';
  for (const v of [
    '2026-11-23T20:04:05Z',
    '2026-11-23T17:04:05-03:00',
    '2026-11-23T17:04:05.000-03:00',
    '2026-11-23T20:04:05',
    '2026-11-23T20:04:05.000+00:00',
    '2026-11-23T20:04:05.000000+00:00',
    '2026-11-23 20:04:05',
    '2026-11-23T17:04:05-0300',
    Date.parse(want),
    Date.parse(want) / 1000,
    String(Date.parse(want)),
  ]) {
    expect(instantOf(v), String(v)).toBe(want);
  }
  for (const v of [null, undefined, '', 'yesterday', {}, Number.NaN, true]) expect(instantOf(v), JSON.stringify(v)).toBeNull();
  // Fractional epoch seconds keep their milliseconds.
  expect(instantOf(Date.parse('2026-11-23T20:04:05.123Z') / 1000)).toBe('2026-11-23T20:04:05.123Z');
});

test('a date-time already written as the console writes it reads to itself, and a day past its month rolls on as Date does', () => {
  const viaDate = (s: string) => new Date(Date.parse(s)).toISOString();
  const days = [
    '2024-02-29',
    '2026-02-28',
    '2026-02-29',
    '2026-02-30',
    '1900-02-29',
    '2000-02-29',
    '2026-04-30',
    '2026-04-31',
    '2026-12-31',
  ];
  for (const day of days) {
    for (const time of ['00:00:00.000', '23:59:59.999', '24:00:00.000']) {
      const s = `${day}T${time}Z`;
      expect(instantOf(s), s).toBe(viaDate(s));
    }
  }
  for (const s of ['2026-13-01T00:00:00.000Z', '2026-00-10T00:00:00.000Z', '2026-01-01T23:60:00.000Z']) expect(instantOf(s), s).toBeNull();
});

test('people: objects, ids, user names; null and booleans are no one', () => {
  expect(personOf(customer)).toEqual({ id: 501, userName: 'fernanda.lima', name: 'Fernanda Lima', role: 'customer' });
  expect(personOf({ id: 12, displayName: 'Ana', agent: { id: 3 } })).toEqual({ id: 12, userName: null, name: 'Ana', role: 'agent' });
  expect(personOf(12)).toEqual({ id: 12, userName: null, name: null, role: null });
  expect(personOf('12')).toEqual({ id: 12, userName: null, name: null, role: null });
  expect(personOf('ana.souza')).toEqual({ id: null, userName: 'ana.souza', name: 'ana.souza', role: null });
  for (const v of [null, undefined, true, false, '', {}, []]) expect(personOf(v), JSON.stringify(v)).toBeNull();
  expect(samePerson(personOf(agent), personOf(12))).toBe(true);
  expect(samePerson(personOf(agent), personOf('ANA.SOUZA'))).toBe(true);
  expect(samePerson(personOf(agent), personOf(13))).toBe(false);
  expect(samePerson(personOf({ id: 12 }), personOf('ana.souza'))).toBe(false);
});

test('who wrote a message, in every shape of fromUser, toUser and sendBy', () => {
  const parties = { customer: personOf(customer), agent: personOf(agent) };
  const cases: Array<[Record<string, unknown>, 'customer' | 'agent' | 'bot' | 'system' | null]> = [
    // booleans (the default reading)
    [{ fromUser: true, sendBy: 'fernanda.lima' }, 'customer'],
    [{ fromUser: false, sendBy: 'ana.souza' }, 'agent'],
    [{ fromUser: false, sendBy: 'BOT' }, 'bot'],
    [{ fromUser: true, sendBy: 'SYSTEM' }, 'system'],
    // role words in sendBy
    [{ sendBy: 'CUSTOMER' }, 'customer'],
    [{ sendBy: 'agent' }, 'agent'],
    [{ sendBy: 'Chatbot' }, 'bot'],
    [{ sendBy: { typeUser: 'AGENT', name: 'Ana' } }, 'agent'],
    // user objects with a role
    [{ fromUser: customer, toUser: agent }, 'customer'],
    [{ fromUser: agent, toUser: customer }, 'agent'],
    // user objects or ids without a role, told apart by the session's parties
    [{ fromUser: { id: 501, name: 'Fernanda' } }, 'customer'],
    [{ fromUser: 12 }, 'agent'],
    [{ fromUser: '501' }, 'customer'],
    [{ fromUser: 'ana.souza' }, 'agent'],
    [{ sendBy: 'fernanda.lima' }, 'customer'],
    // only the recipient is known
    [{ toUser: { id: 501 } }, 'agent'],
    [{ toUser: 12 }, 'customer'],
    [{ fromUser: null, toUser: null, sentBySuperAgent: true }, 'agent'],
    // nothing tells
    [{}, null],
    [{ fromUser: null, sendBy: null }, null],
    [{ fromUser: 999 }, null],
  ];
  for (const [m, want] of cases) expect(authorOf(m, parties).role, JSON.stringify(m)).toBe(want);
  expect(authorOf({ fromUser: customer }).name).toBe('Fernanda Lima');
  expect(authorOf({ fromUser: false, sendBy: 'ana.souza' }).name).toBe('ana.souza');
  expect(authorOf({ sendBy: 'AGENT' }).name).toBeNull();
  // The attendant's message names them as people read it when the session's party says how.
  const withNames = {
    agent: personOf({ id: 12, userName: 'ana.souza', displayName: 'Ana' }),
    customer: personOf({ id: 501, userName: 'fernanda.lima', name: 'Fernanda Lima' }),
  };
  // And by their login, which tells the attendant's own lines from a colleague's (an id alone, through the party).
  expect(authorOf({ fromUser: false, sendBy: 'ana.souza' }, withNames)).toEqual({ role: 'agent', name: 'Ana', userName: 'ana.souza' });
  expect(authorOf({ fromUser: 12 }, withNames)).toEqual({ role: 'agent', name: 'Ana', userName: 'ana.souza' });
  expect(authorOf({ sendBy: 'fernanda.lima' }, withNames)).toEqual({ role: 'customer', name: 'Fernanda Lima', userName: 'fernanda.lima' });
  expect(authorOf({ fromUser: false, sendBy: 'bruno.lima' }, withNames)).toMatchObject({ name: 'bruno.lima', userName: 'bruno.lima' });
  expect(authorOf({ fromUser: 999 }, withNames).userName).toBeNull();
});

test('a message belongs to its session whatever the shape of the reference', () => {
  for (const m of [{ session: { id: 9 } }, { session: 9 }, { session: '9' }, { sessionId: 9 }, { session: { id: '9', status: 'OPEN' } }]) {
    expect(sessionIdOf(m), JSON.stringify(m)).toBe(9);
  }
  expect(sessionIdOf({ session: null })).toBeNull();
});

test('sentiment as a word, an object or a score', () => {
  expect(sentimentOf('negative')).toBe('NEGATIVE');
  expect(sentimentOf({ label: 'Positive', score: 0.9 })).toBe('POSITIVE');
  expect(sentimentOf({ sentiment: 'NEUTRAL' })).toBe('NEUTRAL');
  expect(sentimentOf(-0.8)).toBe('NEGATIVE');
  expect(sentimentOf(null)).toBeNull();
  expect(sentimentOf({})).toBeNull();
});

test("a session's group, agent and customer as records, summaries or ids", () => {
  const full = { id: 3, name: 'Suporte', mandatoryClassificationTree: true, classificationTree: { id: 40 } };
  expect(sessionGroupOf(session({ groupConf: full }))).toMatchObject({
    id: 3,
    name: 'Suporte',
    record: { ...full, classificationTree: { id: 40 } },
  });
  expect(sessionGroupOf(session({ groupConf: { id: '3', name: 'Suporte' } }))?.name).toBe('Suporte');
  expect(sessionGroupOf(session({ groupConf: 3 }))).toEqual({ id: 3, name: null, record: null });
  expect(sessionGroupOf(session({ groupConf: '3' }))).toEqual({ id: 3, name: null, record: null });
  expect(sessionGroupOf(session({ groupConf: null }))).toBeNull();
  // The embedded group is read by the group's schema: its SLA in digits is a number.
  expect(sessionGroupOf(session({ groupConf: { id: '3', sla: '10', timeUnit: 'MINUTES' } }))?.record?.sla).toBe(10);
  expect(groupIsComplete(full)).toBe(true);
  expect(groupIsComplete(GroupConfigurationSchema.parse({ ...full, mandatoryClassificationTree: 'true' }))).toBe(true);
  expect(groupIsComplete({ id: 3, name: 'Suporte' })).toBe(false);
  expect(groupIsComplete({ id: 3, name: 'Suporte', sla: 10, timeUnit: 'MINUTES' })).toBe(false);
  expect(groupIsComplete({ id: 3, mandatoryClassificationTree: null, classificationTree: null })).toBe(false);
  expect(groupIsComplete(3)).toBe(false);
  expect(sessionAgentOf(session({ agent }))?.userName).toBe('ana.souza');
  expect(sessionAgentOf(session({ agent: 12 }))?.id).toBe(12);
  expect(sessionAgentOf(session({ agent: '12' }))?.id).toBe(12);
  expect(sessionAgentOf(session({ agent: null }))).toBeNull();
  expect(sessionCustomerOf(session({ user: { id: '501', name: 'Fernanda' } }))).toMatchObject({ id: 501, name: 'Fernanda' });
});

test('the channel from whichever of the two connection fields carries a channel word', () => {
  expect(channelOf({ userConnectedResource: 'chatApp', userConnectedInstance: '+55 11 99999-0000' })).toBe('chatApp');
  expect(channelOf({ userConnectedResource: '+55 11 99999-0000', userConnectedInstance: 'CHAT_APP' })).toBe('chatApp');
  expect(channelOf({ userConnectedResource: null, userConnectedInstance: 'e-mail' })).toBe('email');
  expect(channelOf({ userConnectedResource: 'Voice' })).toBe('voice');
  // Neither names a channel the console knows: the resource as it comes.
  expect(channelOf({ userConnectedResource: 'kiosk', userConnectedInstance: 'loja-3' })).toBe('kiosk');
  expect(channelOf({})).toBeNull();
});

test('the closing classification record read both ways: the node and path the console writes, or path and leaf', () => {
  expect(
    classificationRecordOf({ classificationTreeSession: { id: 44, value: 'Boleto' }, displayName: 'Financeiro > Cobrança > Boleto' }),
  ).toEqual({
    nodeId: 44,
    path: 'Financeiro > Cobrança > Boleto',
  });
  expect(classificationRecordOf({ classificationTreeSession: '44', displayName: 'Financeiro > Cobrança > Boleto' }).nodeId).toBe(44);
  expect(classificationRecordOf({ classificationTreeSession: 'Financeiro > Cobrança > Boleto', displayName: 'Boleto' })).toEqual({
    nodeId: null,
    path: 'Financeiro > Cobrança > Boleto',
  });
  expect(classificationRecordOf({ classificationTreeSession: { id: 44, value: 'Boleto' } })).toEqual({ nodeId: 44, path: 'Boleto' });
});

test('statuses: not closed and held by no agent is waiting whatever the word; a bot session is with the bot', () => {
  expect(statusKind('OPEN')).toBe('open');
  expect(statusKind('in progress')).toBe('open');
  expect(statusKind('Transferido')).toBe('open');
  expect(statusKind('Encerrado')).toBe('closed');
  expect(statusKind('Concluído')).toBe('closed');
  expect(statusKind('CLOSED')).toBe('closed');
  expect(statusKind('em bot')).toBe('bot');
  expect(statusKind('WAITING_BOT')).toBe('bot');
  expect(statusKind('ROBOTIC')).toBe('unknown');
  expect(statusKind('ESCALATED')).toBe('unknown');
  expect(statusKind(null)).toBe('unknown');
  const item = (status: string, agentUserName: string | null, withBot = false, pending = false) => ({
    status,
    agentUserName,
    pending,
    withBot,
  });
  for (const word of ['OPEN', 'TRANSFERRED', 'TRANSFERIDO', 'transferida', 'ESCALATED', 'Aguardando'])
    expect(bucketOf(item(word, null), 'ana'), word).toBe('waiting');
  // Waiting for the customer's answer but held by no attendant (answered, then moved to a group).
  expect(bucketOf(item('OPEN', null, false, true), 'ana')).toBe('waiting');
  expect(bucketOf(item('OPEN', 'ana', false, true), 'ana')).toBe('pending');
  expect(bucketOf(item('OPEN', 'bruno', false, true), 'ana')).toBe('others');
  expect(bucketOf(item('TRANSFERRED', 'ana'), 'ana')).toBe('mine');
  expect(bucketOf(item('ESCALATED', 'bruno'), 'ana')).toBe('others');
  expect(bucketOf(item('FINISHED', 'ana'), 'ana')).toBe('closed');
  expect(bucketOf(item('BOT', null), 'ana')).toBe('bot');
  expect(bucketOf(item('OPEN', null, true), 'ana')).toBe('bot');
  expect(sessionWithBot(session({ id: 1, status: 'OPEN', onlyBot: 'true' }))).toBe(true);
  expect(sessionWithBot(session({ id: 1, status: 'CHATBOT' }))).toBe(true);
  expect(sessionWithBot(session({ id: 1, status: 'TRANSFERRED', onlyBot: false }))).toBe(false);
});

test('a queue item from either reading of a session', () => {
  const base = { id: 77, status: 'OPEN', protocol: 'P77', createdAt: '2026-11-23T17:00:00-03:00', userConnectedResource: 'chatApp' };
  const a = toQueueItem(
    session({ ...base, agent: agent, user: customer, groupConf: { id: 3, name: 'Suporte', sla: 10, timeUnit: 'MINUTES' } }),
  )!;
  expect(a).toMatchObject({
    id: 77,
    agentUserName: 'ana.souza',
    agentName: 'Ana Souza',
    customerName: 'Fernanda Lima',
    groupId: 3,
    groupName: 'Suporte',
    slaSeconds: 600,
    createdAt: '2026-11-23T20:00:00.000Z',
  });
  const b = toQueueItem(session({ ...base, id: '77', agent: 12, user: 501, groupConf: 3 }), (id) => (id === 12 ? 'ana.souza' : null))!;
  expect(b).toMatchObject({ id: 77, agentUserName: 'ana.souza', customerName: 'Customer #77', groupId: 3, groupName: null });
  expect(toQueueItem(session({ ...base, agent: 99 }))!.agentUserName).toBe('#99');
  expect(toQueueItem(session({ ...base, agent: null }))!.agentUserName).toBeNull();
  expect(toQueueItem(session({ ...base, id: 'x' }))).toBeNull();
});

test('schemas keep a record whose odd fields it does not need, and a page keeps its readable records', () => {
  const odd = { id: 5, status: { code: 42 }, tma: 'slow', protocol: 'P5', hasReservedWord: 'no', agent: 'ana.souza', extra: { any: 1 } };
  const s = session(odd);
  expect(s.id).toBe(5);
  expect(s.protocol).toBe('P5');
  expect(s.status).toBeUndefined();
  expect(s.tma).toBeUndefined();
  expect(s.agent).toBe('ana.souza');
  expect((s as Record<string, unknown>).extra).toEqual({ any: 1 });

  const page = pageEnvelope(MessageSchema, 'message').parse({
    page: '0',
    size: 50,
    results: [{ id: 1, message: 'oi' }, 'junk', null, { id: '2', message: { text: 7 }, fromUser: { id: 501 } }],
  });
  expect(page.results.map((r) => r.id)).toEqual([1, 2]);
  expect(page.skipped).toBe(2);
  expect(page.first).toEqual({ resource: 'message', id: null, field: null, reason: 'not a record but a string' });
  expect(pageEnvelope(MessageSchema, 'message').parse({ page: 0, size: 50, results: null }).results).toEqual([]);
  const m = toThreadMessage(page.results[1]!, 9, { customer: personOf(customer) })!;
  expect(m).toMatchObject({ id: 2, sessionId: 9, text: '', author: 'customer', fromCustomer: true });
  expect(() => pageEnvelope(MessageSchema, 'message').parse({ page: 0, results: [] })).toThrow();
});

test('a knowledge-base answer inserted for a customer is the answer part of a FAQ chunk, and any other chunk as it is', async () => {
  const { answerPart } = await import('../../../src-shared/kb-answer');
  expect(answerPart('P: Como peço reembolso? R: Pelo app, em Pedidos > Reembolso, em até 7 dias.')).toBe(
    'Pelo app, em Pedidos > Reembolso, em até 7 dias.',
  );
  expect(answerPart('Pergunta: Qual o prazo?\nResposta: 5 dias úteis.')).toBe('5 dias úteis.');
  expect(answerPart('Q: How long?\nA: Five working days.')).toBe('Five working days.');
  expect(answerPart('Escolha a opção A: cartão de crédito.')).toBe('Escolha a opção A: cartão de crédito.');
  expect(answerPart('  O prazo é de 5 dias úteis.  ')).toBe('O prazo é de 5 dias úteis.');
});
