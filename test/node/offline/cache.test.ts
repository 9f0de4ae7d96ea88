import { test, expect } from '@playwright/test';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QueueItem } from '../../../src-shared/bridge/attendance';
import type { SessionDetail, ThreadMessage } from '../../../src-shared/bridge/attendance';
import type { Connectivity } from '../../../src-shared/bridge/offline';
import { AppError } from '../../../src-shared/errors';
import { ConnectivityMonitor, OfflineCache } from '../../../src-main/cache';

const item = (id: number): QueueItem => ({
  id,
  status: 'OPEN',
  pending: false,
  agentUserName: 'ana',
  agentName: 'Ana',
  customerName: `Cliente ${id}`,
  groupId: 1,
  groupName: 'Geral',
  channel: 'email',
  createdAt: '2024-06-11T10:00:00.000Z',
  slaSeconds: 600,
  protocol: `P${id}`,
  ticketId: null,
  withBot: false,
});
const message = (id: number, sessionId: number): ThreadMessage => ({
  id,
  sessionId,
  text: `mensagem ${id}`,
  caption: null,
  contentType: 'text',
  createdAt: new Date(Date.UTC(2024, 5, 11, 10, 0, id)).toISOString(),
  fromCustomer: id % 2 === 0,
  author: id % 2 === 0 ? 'customer' : 'agent',
  sender: null,
  sentiment: null,
  bySupervisor: false,
  failed: false,
});
const detail = (id: number): SessionDetail => ({
  item: item(id),
  customer: { name: `Cliente ${id}`, phone: null, email: null, instance: null },
  attendedAt: null,
  lastAgent: 'ana',
  topic: null,
  needsTemplate: false,
  classification: null,
});

test('copies (the queue, threads, answers) survive a reload, stay bounded, drop a damaged file, and never cross to another account', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'offline-cache-'));
  const first = new OfflineCache({ dir, maxThreads: 3, maxMessages: 5, writeDelayMs: 5 });
  await first.setScope('https://svc|ana');
  first.queueChanged(() => ({ items: [item(1), item(2)], fetchedAt: '2024-06-11T10:05:00.000Z' }));
  first.keepAnswer('supervisor:rules', { role: 'agent', rules: ['tickets:read'] });
  for (const id of [11, 12, 13, 14]) {
    first.saveThread(
      id,
      { detail: detail(id), messages: Array.from({ length: 8 }, (_, i) => message(i + 1, id)), hasMore: false },
      '2024-06-11T10:06:00.000Z',
    );
    await new Promise((r) => setImmediate(r));
  }
  first.saveNotes(
    14,
    [{ id: 7, text: 'nota · ref 7F3A9C2K', ref: '7F3A9C2K', createdAt: null, createdBy: 'ana' }],
    '2024-06-11T10:07:00.000Z',
  );
  await first.flush();
  // Bounded: the least recently opened thread went, and each keeps its newest messages only.
  expect(readdirSync(join(dir, 'threads')).sort()).toEqual(['session-12.json', 'session-13.json', 'session-14.json']);

  writeFileSync(join(dir, 'threads', 'session-12.json'), '{"v":1,"scope":"https://svc|ana","sessionId":12');
  const second = new OfflineCache({ dir, maxThreads: 3, maxMessages: 5, writeDelayMs: 5 });
  await second.setScope('https://svc|ana');
  expect(second.queue()).toEqual({ items: [item(1), item(2)], fetchedAt: '2024-06-11T10:05:00.000Z' });
  expect(await second.thread(12)).toBeNull();
  expect(existsSync(join(dir, 'threads', 'session-12.json'))).toBe(false);
  const t14 = (await second.thread(14))!;
  expect(t14.messages.map((m) => m.id)).toEqual([4, 5, 6, 7, 8]);
  expect(t14.hasMore).toBe(true);
  expect((await second.notes(14))?.items[0]?.text).toBe('nota · ref 7F3A9C2K');
  expect(second.answer('supervisor:rules')?.value).toEqual({ role: 'agent', rules: ['tickets:read'] });

  // Another attendant on the same profile sees none of it, and it is gone from disk.
  await second.setScope('https://svc|bruno');
  expect(second.queue()).toBeNull();
  expect(await second.thread(14)).toBeNull();
  expect(second.answer('supervisor:rules')).toBeNull();
  expect(readdirSync(join(dir, 'threads'))).toEqual([]);
  expect(existsSync(join(dir, 'queue.json'))).toBe(false);
  expect(existsSync(join(dir, 'answers.json'))).toBe(false);
});

test('a network error turns the console offline; probes run until the service answers, then it is back', async () => {
  let down = true;
  let probes = 0;
  const seen: Connectivity[] = [];
  const monitor = new ConnectivityMonitor({
    probe: async () => {
      probes++;
      if (down) throw new AppError({ kind: 'Unavailable', message: 'connection refused' });
    },
    canProbe: () => true,
    backoff: { baseMs: 10, maxMs: 40 },
    idleProbeMs: 60_000,
  });
  monitor.subscribe((c) => seen.push(c));
  monitor.start();
  try {
    // A refusal is an answer: the service is reachable.
    monitor.report(new AppError({ kind: 'Forbidden', message: 'no' }));
    expect(monitor.offline).toBe(false);
    monitor.report(new AppError({ kind: 'Unavailable', message: 'The service could not be reached to list sessions.' }));
    expect(monitor.status()).toMatchObject({ state: 'offline', reason: 'The service could not be reached to list sessions.' });
    await expect.poll(() => probes).toBeGreaterThan(2);
    expect(monitor.offline).toBe(true);
    down = false;
    await expect.poll(() => monitor.status().state).toBe('online');
    expect(seen.at(-1)).toMatchObject({ state: 'online', since: null, reason: null });
    expect(seen.some((c) => c.state === 'offline' && c.nextProbeAt !== null)).toBe(true);
  } finally {
    monitor.stop();
  }
});

test('the kept threads are read behind the queue: a thread saved meanwhile keeps its newer copy, another account never sees them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'offline-cache-'));
  const first = new OfflineCache({ dir, writeDelayMs: 5 });
  await first.setScope('https://svc|ana');
  first.queueChanged(() => ({ items: [item(1)], fetchedAt: '2024-06-11T10:05:00.000Z' }));
  for (const id of [21, 22]) {
    first.saveThread(id, { detail: detail(id), messages: [message(1, id)], hasMore: false }, '2024-06-11T10:06:00.000Z');
  }
  await first.flush();

  // The same attendant starts again and opens thread 21 before the kept threads were read.
  const second = new OfflineCache({ dir, writeDelayMs: 5 });
  await second.setScope('https://svc|ana');
  expect(second.queue()?.items.map((i) => i.id)).toEqual([1]);
  second.saveThread(21, { detail: detail(21), messages: [message(1, 21), message(2, 21)], hasMore: false }, '2024-06-11T11:00:00.000Z');
  expect((await second.thread(21))?.messages.map((m) => m.id)).toEqual([1, 2]);
  expect((await second.thread(22))?.messages.map((m) => m.id)).toEqual([1]);
  expect((await second.threads()).length).toBe(2);
  await second.flush();

  // Another attendant on the profile, before the threads were read: none of them is shown, and they go.
  const third = new OfflineCache({ dir, writeDelayMs: 5 });
  await third.setScope('https://svc|bruno');
  expect(await third.threads()).toEqual([]);
  expect(await third.thread(21)).toBeNull();
  await third.flush();
  expect(readdirSync(join(dir, 'threads'))).toEqual([]);
});

test('messages reaching a kept thread later are kept in the order of their times, whatever offset the service wrote them with', async () => {
  const cache = new OfflineCache({ dir: mkdtempSync(join(tmpdir(), 'offline-cache-')), writeDelayMs: 5 });
  await cache.setScope('https://svc|ana');
  const at = (id: number, createdAt: string): ThreadMessage => ({ ...message(id, 31), createdAt });
  cache.saveThread(31, { detail: detail(31), messages: [at(1, '2024-06-11T12:00:00Z')], hasMore: false }, '2024-06-11T12:00:00Z');
  // 10:30 at -03:00 is 13:30 UTC: newer than 13:00 UTC although its text sorts first.
  cache.addMessages(31, [at(3, '2024-06-11T10:30:00-03:00'), at(2, '2024-06-11T13:00:00Z')], '2024-06-11T13:31:00Z');
  expect((await cache.thread(31))?.messages.map((m) => m.id)).toEqual([1, 2, 3]);
  await cache.flush();
});
