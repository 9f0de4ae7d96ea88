import { expect, test } from '@playwright/test';
import type { QueueItem } from '../../../src-shared/bridge/attendance';
import { importRunes, installFakeBridge, newScope } from '../../support/runes';
import type * as queueModule from '../../../src-renderer/src/lib/queue.svelte';

type Queue = typeof queueModule;

const item = (id: number, name: string, over: Partial<QueueItem> = {}): QueueItem => ({
  id,
  status: 'IN_PROGRESS',
  pending: false,
  agentUserName: 'ana',
  agentName: 'Ana',
  customerName: name,
  groupId: 1,
  groupName: 'Suporte',
  channel: 'whatsapp',
  createdAt: `2026-11-23T10:0${id % 10}:00Z`,
  slaSeconds: 600,
  protocol: `P-${id}`,
  ticketId: null,
  withBot: false,
  ...over,
});

async function queueWith(items: QueueItem[]) {
  const bridge = await installFakeBridge({
    'attendance:queue': () => ({ items, fetchedAt: '2026-11-23T10:10:00Z', me: 'ana', unreadable: { count: 0, first: null }, seq: 0 }),
    'attendance:accept': ({ sessionId }) => ({ ...items.find((i) => i.id === sessionId)!, agentUserName: 'ana', agentName: 'Ana' }),
    'attendance:seen': () => ({ ok: true }),
    'attendance:snooze': ({ sessionId, until }) => ({ ...items.find((i) => i.id === sessionId)!, snoozed: true, snoozedUntil: until }),
  });
  const { QueueStore } = await importRunes<Queue>('src-renderer/src/lib/queue.svelte.ts');
  const scope = await newScope();
  const queue = scope.use(QueueStore);
  await queue.start();
  return { queue, bridge, scope };
}

test('buckets: waiting, mine (waiting-for-customer included) and others; the filter matches name, protocol and id', async () => {
  const { queue, scope } = await queueWith([
    item(1, 'Fernanda Lima', { agentUserName: null, agentName: null, status: 'WAITING' }),
    item(2, 'Carlos Souza'),
    item(3, 'Beatriz Rocha', { pending: true }),
    item(4, 'Diego Alves', { agentUserName: 'bruno', agentName: 'Bruno' }),
  ]);
  expect(queue.counts).toMatchObject({ waiting: 1, mine: 2, others: 1 });
  queue.bucket = 'mine';
  expect(queue.visible.map((s) => s.id).sort()).toEqual([2, 3]);
  queue.filter = 'p-3';
  expect(queue.visible.map((s) => s.id)).toEqual([3]);
  queue.filter = '#2';
  expect(queue.visible.map((s) => s.id)).toEqual([2]);
  scope.close();
});

test('a customer message marks the session unread and moves it first in Mine; the next session needing me is the unread one', async () => {
  const { queue, bridge, scope } = await queueWith([item(2, 'Carlos'), item(5, 'Eva'), item(7, 'Gil', { pending: true })]);
  queue.bucket = 'mine';
  queue.mineSort = 'activity';
  // Latest activity first (no customer message yet: the newest session).
  expect(queue.visible.map((s) => s.id)).toEqual([7, 5, 2]);
  bridge.emit('attendance:queueDelta', {
    upsert: [item(2, 'Carlos', { unread: 2, lastCustomerAt: '2026-11-23T11:00:00Z', preview: 'Oi?' })],
    remove: [],
    me: 'ana',
    seq: 1,
  });
  expect(queue.visible.map((s) => s.id)).toEqual([2, 7, 5]);
  expect(queue.unreadSessions).toBe(1);
  expect(queue.nextNeedingAttention(null)).toBe(2);
  // Without it: the first one not waiting for the customer (7 waits for the customer).
  expect(queue.nextNeedingAttention(2)).toBe(5);
  queue.mineSort = 'waiting';
  expect(queue.visible.map((s) => s.id)).toEqual([2, 5, 7]);
  // A session closed elsewhere leaves the queue.
  queue.put(item(2, 'Carlos', { status: 'CLOSED' }));
  expect(queue.item(2)).toBeUndefined();
  scope.close();
});

test('a snoozed session leaves Mine for Snoozed: not counted unread, not the next to open; woken, it is back in Mine', async () => {
  const snoozed = { snoozed: true, snoozedUntil: '2026-11-24T09:00:00Z' } as const;
  const { queue, bridge, scope } = await queueWith([
    item(2, 'Carlos', { unread: 1, ...snoozed }),
    item(5, 'Eva'),
    // Another attendant's session carrying a snooze (not possible from the main process): not in Snoozed.
    item(6, 'Gil', { agentUserName: 'bruno', agentName: 'Bruno', ...snoozed }),
  ]);
  expect(queue.counts).toEqual({ waiting: 0, mine: 1, others: 1, snoozed: 1 });
  queue.bucket = 'snoozed';
  expect(queue.visible.map((s) => s.id)).toEqual([2]);
  expect(queue.unreadSessions).toBe(0);
  expect(queue.nextNeedingAttention(null)).toBe(5);
  // Opening it shows the Snoozed tab (the window not focused: nothing is marked seen).
  Object.assign(globalThis, { document: { hasFocus: () => false } });
  queue.bucket = 'mine';
  queue.select(2);
  expect(queue.bucket).toBe('snoozed');
  queue.select(null);
  Reflect.deleteProperty(globalThis, 'document');
  // Woken (the customer wrote): back in Mine, counted, marked.
  bridge.emit('attendance:queueDelta', { upsert: [item(2, 'Carlos', { unread: 2, woke: 'customer' })], remove: [], me: 'ana', seq: 1 });
  expect(queue.counts).toMatchObject({ mine: 2, snoozed: 0 });
  expect(queue.unreadSessions).toBe(1);
  expect(queue.nextNeedingAttention(null)).toBe(2);
  // Snoozing asks the main process and shows its answer; a refusal is kept to be said.
  expect(await queue.snooze(5, new Date('2026-11-24T12:00:00Z'))).toBe(true);
  expect(bridge.calls.at(-1)).toMatchObject({ channel: 'attendance:snooze', input: { sessionId: 5, until: '2026-11-24T12:00:00.000Z' } });
  expect(queue.counts).toMatchObject({ mine: 1, snoozed: 1 });
  scope.close();
});

test('accept: the session moves to Mine and is not news to its attendant; a second accept while one runs is not sent', async () => {
  const { queue, bridge, scope } = await queueWith([item(1, 'Fernanda', { agentUserName: null, agentName: null, status: 'WAITING' })]);
  const [a, b] = await Promise.all([queue.accept(1), queue.accept(1)]);
  expect(a?.agentUserName).toBe('ana');
  expect(b).toBeNull();
  expect(bridge.calls.filter((c) => c.channel === 'attendance:accept')).toHaveLength(1);
  expect(queue.bucketOf(queue.item(1)!)).toBe('mine');
  expect(queue.arrivals).toEqual([]);
  scope.close();
});

test("leaving the view keeps its tab, filter and session for the next start; another workspace's queue starts at its own", async () => {
  const sessions = [item(2, 'Carlos'), item(5, 'Eva')];
  const { queue, scope } = await queueWith(sessions);
  queue.bucket = 'mine';
  queue.filter = 'eva';
  queue.select(5);
  queue.suspend();
  expect(queue.total).toBe(0);
  await queue.start();
  expect([queue.bucket, queue.filter, queue.selectedId, queue.total]).toEqual(['mine', 'eva', 5, 2]);
  // A session closed while the view was away is not open when it comes back.
  queue.suspend();
  sessions.pop();
  await queue.start();
  expect([queue.bucket, queue.selectedId, queue.total]).toEqual(['mine', null, 1]);
  const { QueueStore } = await importRunes<Queue>('src-renderer/src/lib/queue.svelte.ts');
  const other = (await newScope('b')).use(QueueStore);
  expect([other.bucket, other.filter, other.selectedId]).toEqual(['waiting', '', null]);
  scope.close();
});

test('deltas keep every tab and the filter menus as a fresh read of the same sessions would show them', async () => {
  // A seeded walk of deltas: sessions come, move between tabs, change group or channel, go.
  let seed = 7;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const agents = [null, 'ana', 'bruno'];
  const groups = [
    [1, 'Suporte'],
    [2, 'Financeiro'],
    [3, 'Vendas'],
  ] as const;
  const channels = ['whatsapp', 'email', 'sms', 'voice'];
  const make = (id: number): QueueItem => {
    const agent = agents[rand(3)]!;
    const [groupId, groupName] = groups[rand(3)]!;
    return item(id, `Cliente ${id}`, {
      agentUserName: agent,
      agentName: agent,
      status: rand(10) === 0 ? 'CLOSED' : agent ? 'IN_PROGRESS' : 'WAITING',
      pending: rand(4) === 0,
      groupId,
      groupName,
      channel: channels[rand(4)]!,
      unread: rand(3),
      // Some snoozed, some of them no longer the attendant's (Snoozed holds only Mine's).
      ...(rand(4) === 0 ? { snoozed: true, snoozedUntil: null } : {}),
    });
  };
  const live = new Map<number, QueueItem>();
  for (let id = 1; id <= 60; id++) live.set(id, make(id));
  const { queue, bridge, scope } = await queueWith([...live.values()]);
  let seq = 0;
  for (let step = 0; step < 200; step++) {
    const upsert: QueueItem[] = [];
    const remove: number[] = [];
    for (let k = rand(4); k >= 0; k--) {
      const id = 1 + rand(80);
      if (rand(5) === 0) {
        live.delete(id);
        remove.push(id);
      } else {
        const next = make(id);
        live.set(id, next);
        upsert.push(next);
      }
    }
    bridge.emit('attendance:queueDelta', {
      upsert,
      remove: remove.filter((id) => !upsert.some((u) => u.id === id)),
      me: 'ana',
      seq: ++seq,
    });
  }
  const { queue: fresh, scope: freshScope } = await queueWith([...live.values()]);
  expect(queue.counts).toEqual(fresh.counts);
  expect(queue.facets).toEqual(fresh.facets);
  for (const b of ['waiting', 'mine', 'others', 'snoozed'] as const) {
    queue.bucket = b;
    fresh.bucket = b;
    expect(
      queue.visible.map((s) => s.id),
      b,
    ).toEqual(fresh.visible.map((s) => s.id));
  }
  scope.close();
  freshScope.close();
});

test('a change that overtakes the snapshot it follows is shown after it; one the snapshot includes is not applied again', async () => {
  const carlos = item(2, 'Carlos');
  let answer: (() => void) | null = null;
  const bridge = await installFakeBridge({
    'attendance:queue': () =>
      new Promise((resolve) => {
        answer = () =>
          resolve({ items: [carlos], fetchedAt: '2026-11-23T10:10:00Z', me: 'ana', unreadable: { count: 0, first: null }, seq: 4 });
      }),
  });
  const { QueueStore } = await importRunes<Queue>('src-renderer/src/lib/queue.svelte.ts');
  const queue = (await newScope()).use(QueueStore);
  const started = queue.start();
  await expect.poll(() => answer !== null).toBe(true);
  // While the snapshot (as of change 4) is on its way: change 4 (in it already), then change 5.
  bridge.emit('attendance:queueDelta', { upsert: [{ ...carlos, preview: 'old news' }], remove: [], me: 'ana', seq: 4 });
  bridge.emit('attendance:queueDelta', { upsert: [{ ...carlos, preview: 'Oi, ainda não chegou.' }], remove: [], me: 'ana', seq: 5 });
  answer!();
  await started;
  expect(queue.item(2)?.preview).toBe('Oi, ainda não chegou.');
  // A late copy of change 5, or an older one, changes nothing.
  bridge.emit('attendance:queueDelta', { upsert: [{ ...carlos, preview: 'old news' }], remove: [], me: 'ana', seq: 3 });
  expect(queue.item(2)?.preview).toBe('Oi, ainda não chegou.');
  bridge.emit('attendance:queueDelta', { upsert: [], remove: [2], me: 'ana', seq: 6 });
  expect(queue.item(2)).toBeUndefined();
});
