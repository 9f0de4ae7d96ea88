import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { join } from 'node:path';
import { sessionAgentOf, sessionCustomerOf, type Parties } from '../../../src-shared/concepts';
import { readRecord, type Read } from '../../../src-shared/envelopes';
import { MessageSchema, SessionSchema, type Message, type Session } from '../../../src-shared/schemas/index';
import { toQueueItem } from '../../../src-main/queue';
import { toSessionDetail, toThreadMessage } from '../../../src-main/features/attendance/project';
import { customersNewest } from '../../../src-main/features/attendance/queue';
import { threadMessagesOf, threadPage, type StampedMessage } from '../../../src-main/features/attendance/reads';
import { createServiceClient } from '../../../src-main/service/index';
import { ActivityStore } from '../../../src-main/features/attendance/activity';
import { SyncEngine } from '../../../src-main/sync/engine';
import { startStandin, type Standin } from '../../../src-standin/index';
import { standinClient } from '../../../src-standin/test-client';
import { tempDirs } from '../../support/temp-dirs';

/**
 * Newest by time, never by position: every list the stand-in serves (the queue's sessions, the
 * messages of every session), shuffled, projects to the same queue rows and previews, threads,
 * 24-hour windows, unread counts and sync marks as the same lists in the order asked. A view that
 * takes "first in the list" (or "last") for "newest" fails here.
 */

type Rec = Record<string, unknown>;
const ANCHOR = '2026-11-23T12:00:00Z';
/** A day and a half after the anchor: some chat-app windows are open, some closed. */
const NOW = Date.parse(ANCHOR) + 36 * 3600 * 1000 - 20 * 60 * 1000;
const tempDir = tempDirs('newest-');

let sb: Standin;
let sessions: Read<Session>[] = [];
let messages: Read<Message>[] = [];

async function listAll(path: string, conditions: unknown[], sortColumn: string): Promise<Rec[]> {
  const api = standinClient(sb.baseUrl, sb.tokens.admin);
  const out: Rec[] = [];
  for (let page = 0; page < 100; page++) {
    const r = await api.v2(path, { conditions, sort: true, sortColumn, direction: 'ASC', page, size: 500 });
    expect(r.status, r.text).toBe(200);
    const got = r.json<{ results: Rec[] }>().results;
    out.push(...got);
    if (got.length < 500) return out;
  }
  throw new Error(`${path}: more than 100 pages`);
}

function read<T>(schema: Parameters<typeof readRecord>[0], raw: Rec, name: string): Read<T> {
  const got = readRecord(schema, raw, name);
  if (!got.ok) throw new Error(`${name} not readable: ${JSON.stringify(got.skip)}`);
  return got.record as Read<T>;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  sb = await startStandin({ port: 0, sessions: 120, seed: 17, anchorTime: ANCHOR });
  // Sessions not closed, and every message of theirs, in the order asked (by time).
  sessions = (await listAll('/user-session', [{ key: 'status', operator: 'NEQ', value: 'CLOSED' }], 'createdAt')).map((r) =>
    read<Session>(SessionSchema, r, 'userSession'),
  );
  const ids = new Set(sessions.map((s) => s.id));
  messages = (await listAll('/messages', [], 'createdAt'))
    .map((r) => read<Message>(MessageSchema, r, 'message'))
    .filter((m) => ids.has(sessionOf(m) ?? -1));
  expect(sessions.length).toBeGreaterThan(20);
  expect(messages.length).toBeGreaterThan(sessions.length);
});

test.afterAll(async () => {
  await sb?.close();
});

const permutation = (n: number) => {
  const all = Array.from({ length: n }, (_, i) => i);
  return fc.shuffledSubarray(all, { minLength: n, maxLength: n });
};

/** The session a message record names (the stand-in's default shape `session: {id}`), read here, not by the product's readers. */
const sessionOf = (m: Rec): number | null => {
  const id = (m.session as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'number' ? id : null;
};

/** What the console derives from the lists, in the order they came. */
async function project(sessionList: readonly Read<Session>[], messageList: readonly Read<Message>[]) {
  const parties = new Map<number, Parties>();
  for (const s of sessionList) parties.set(s.id!, { customer: sessionCustomerOf(s), agent: sessionAgentOf(s) });
  const items = new Map(sessionList.map((s) => [s.id!, toQueueItem(s)!]));
  const waiting = (id: number) => items.get(id)?.agentUserName === null;

  // Queue rows: what each shows as its customer's newest line.
  const previews = customersNewest(messageList, (id) => parties.get(id), waiting);

  // Threads and windows: each session's messages as the thread shows them.
  const bySession = new Map<number, Read<Message>[]>();
  for (const m of messageList) {
    const id = sessionOf(m);
    if (id !== null) bySession.set(id, [...(bySession.get(id) ?? []), m]);
  }
  const threads: Record<number, { order: number[]; needsTemplate: boolean }> = {};
  for (const s of sessionList) {
    const thread = threadMessagesOf(bySession.get(s.id!) ?? [], s.id!, parties.get(s.id!));
    threads[s.id!] = { order: thread.map((m) => m.id), needsTemplate: toSessionDetail(s, thread, NOW)!.needsTemplate };
  }

  // Unread counts: every customer line reaching the console in the order listed.
  const store = new ActivityStore(join(await tempDir(), 'activity.json'), () => undefined);
  store.setScope('standin|ana');
  for (const r of messageList) {
    const id = sessionOf(r);
    const m = toThreadMessage(r, undefined, id === null ? undefined : parties.get(id));
    if (m?.fromCustomer) store.customerMessage(m);
  }
  const rows: Record<number, unknown> = {};
  for (const s of sessionList)
    rows[s.id!] = { item: items.get(s.id!), activity: store.get(s.id!), preview: previews.get(s.id!)?.text ?? null };
  await store.flush();

  // "Since" cursors: the sync engine's mark after reading each thread as listed.
  const engine = new SyncEngine<StampedMessage, { id: number; stamp: string | null }>({
    source: {
      messagesSince: async (id) =>
        (bySession.get(id) ?? []).map((m) => ({ id: m.id!, stamp: m.createdAt ?? null, message: null as never })),
      sessionsSince: async () => [],
    },
    sink: { messages: () => undefined, sessions: () => undefined },
  });
  const marks: Record<number, unknown> = {};
  for (const s of sessionList) {
    engine.track(s.id!, []);
    await engine.hintSession(s.id!);
    marks[s.id!] = engine.markOf(s.id!);
  }
  engine.stop();
  return { rows, threads, marks };
}

test('every list the stand-in serves, shuffled, projects to the same queue, thread, window, unread and cursor state', async () => {
  test.setTimeout(180_000);
  const expected = await project(sessions, messages);
  // The property has something to hold: previews, open and closed windows, several-message threads.
  const rows = Object.values(expected.rows) as Array<{ preview: string | null; unread?: number }>;
  expect(rows.filter((r) => r.preview).length).toBeGreaterThan(10);
  const windows = Object.values(expected.threads).map((t) => t.needsTemplate);
  expect(windows).toContain(true);
  expect(windows).toContain(false);
  expect(Object.values(expected.threads).some((t) => t.order.length >= 4)).toBe(true);

  await fc.assert(
    fc.asyncProperty(
      // Orders as indexes (a failure prints a short counterexample, not the records).
      permutation(sessions.length),
      permutation(messages.length),
      async (s, m) => {
        expect(
          await project(
            s.map((i) => sessions[i]!),
            m.map((i) => messages[i]!),
          ),
        ).toEqual(expected);
      },
    ),
    { numRuns: 20 },
  );
});

test('the stand-in reading "lists in any order" serves lists shuffled, and they project as the ordered ones', async () => {
  const shuffled = await startStandin({ port: 0, sessions: 120, seed: 17, anchorTime: ANCHOR, reading: 'any-order' });
  try {
    const api = standinClient(shuffled.baseUrl, shuffled.tokens.admin);
    const all: Rec[] = [];
    for (let page = 0; page < 100; page++) {
      const r = await api.v2('/messages', { conditions: [], sort: true, sortColumn: 'createdAt', direction: 'DESC', page, size: 500 });
      const got = r.json<{ results: Rec[] }>().results;
      all.push(...got);
      if (got.length < 500) break;
    }
    // Not in the order asked, yet every record once.
    const times = all.map((r) => Date.parse(String(r.createdAt)));
    expect(times.some((t, i) => i > 0 && t > times[i - 1]!)).toBe(true);
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    const ids = new Set(sessions.map((s) => s.id));
    const got = all.map((r) => read<Message>(MessageSchema, r, 'message')).filter((m) => ids.has(sessionOf(m) ?? -1));
    expect(got.length).toBe(messages.length);
    expect(await project(sessions, got)).toEqual(await project(sessions, messages));
  } finally {
    await shuffled.close();
  }
});

test("a waiting session's customer line counts as the customer's where the record does not say who wrote it; a held session's does not", () => {
  // A server that names the writer by a bare user reference and, with nobody holding the
  // session, no addressee: neither a flag nor a role says it is the customer.
  const line = (id: number, session: number, at: string, text: string): Read<Message> =>
    read<Message>(
      MessageSchema,
      { id, session: { id: session }, message: text, fromUser: { id: 27 }, toUser: null, createdAt: at },
      'message',
    );
  const records = [
    line(2, 5, '2026-11-23T10:05:00Z', 'Alguém aí?'),
    line(1, 5, '2026-11-23T10:01:00Z', 'Oi'),
    line(3, 6, '2026-11-23T10:02:00Z', 'Quem escreveu?'),
  ];
  const got = customersNewest(
    records,
    () => undefined,
    (id) => id === 5,
  );
  expect([...got.entries()].map(([id, m]) => [id, m.text, m.author])).toEqual([[5, 'Alguém aí?', 'customer']]);
  // Knowing the session's customer tells the author in any session.
  const known = customersNewest(
    records,
    () => ({ customer: { id: 27, userName: null, name: 'Bia', role: null }, agent: null }),
    () => false,
  );
  expect(known.get(6)?.text).toBe('Quem escreveu?');
});

test('a long thread from a service that ignores the sort shows its newest messages (read whole), not a random first page', async () => {
  for (const reading of ['default', 'any-order'] as const) {
    const s2 = await startStandin({ port: 0, sessions: 30, seed: 5, anchorTime: ANCHOR, reading });
    try {
      const api = standinClient(s2.baseUrl, s2.tokens.admin);
      const open = await api.v2('/user-session', {
        conditions: [{ key: 'status', operator: 'EQ', value: 'OPEN' }],
        sort: false,
        page: 0,
        size: 1,
      });
      const sessionId = open.json<{ results: Array<{ id: number }> }>().results[0]!.id;
      const base = Date.parse(ANCHOR) + 3600_000;
      // 70 lines, the customer's last: more than one page (50) of the thread.
      for (let k = 0; k < 70; k++) {
        const r = await api.v2('/messages/save', {
          session: { id: sessionId },
          message: `linha ${k}`,
          fromUser: k % 2 === 1,
          createdAt: new Date(base + k * 60_000).toISOString(),
        });
        expect(r.status, r.text).toBe(201);
      }
      const client = createServiceClient({ baseUrl: s2.baseUrl, getToken: async () => s2.tokens.admin });
      const got = await threadPage(client, sessionId, 0);
      const texts = got.messages.map((m) => m.text);
      // The newest line, and the page in time order, in either reading.
      expect(texts.at(-1)).toBe('linha 69');
      expect(texts.slice(-50)).toEqual(Array.from({ length: 50 }, (_, i) => `linha ${20 + i}`));
      if (reading === 'default') expect(got.hasMore).toBe(true);
      else expect(got.hasMore).toBe(false);
    } finally {
      await s2.close();
    }
  }
});

test('a long thread whose messages share instants is read a page at a time, its ties in the service’s own order, and paged back to its first line', async () => {
  const s2 = await startStandin({ port: 0, sessions: 30, seed: 5, anchorTime: ANCHOR });
  try {
    const api = standinClient(s2.baseUrl, s2.tokens.admin);
    const open = await api.v2('/user-session', {
      conditions: [{ key: 'status', operator: 'EQ', value: 'OPEN' }],
      sort: false,
      page: 0,
      size: 1,
    });
    const sessionId = open.json<{ results: Array<{ id: number }> }>().results[0]!.id;
    const base = Date.parse(ANCHOR) + 3600_000;
    // 120 lines, five to a second (a service keeping whole seconds, a busy conversation): the
    // stand-in lists a second's lines in the order they were saved, the lowest id first.
    for (let k = 0; k < 120; k++) {
      const r = await api.v2('/messages/save', {
        session: { id: sessionId },
        message: `linha ${k}`,
        fromUser: k % 2 === 1,
        createdAt: new Date(base + Math.floor(k / 5) * 1000).toISOString(),
      });
      expect(r.status, r.text).toBe(201);
    }
    const listed = await api.v2('/messages', {
      conditions: [{ key: 'session.id', operator: 'EQNUM', value: String(sessionId) }],
      sort: true,
      sortColumn: 'createdAt',
      direction: 'DESC',
      page: 0,
      size: 50,
    });
    const ids = listed.json<{ results: Array<{ id: number }> }>().results.map((r) => r.id);
    // The premise: within a second the ids go up, while the times go down.
    expect(ids[1]! > ids[0]!).toBe(true);

    const client = createServiceClient({ baseUrl: s2.baseUrl, getToken: async () => s2.tokens.admin });
    const seen: string[][] = [];
    let more = true;
    for (let page = 0; more && page < 10; page++) {
      const got = await threadPage(client, sessionId, page);
      seen.unshift(got.messages.map((m) => m.text));
      more = got.hasMore;
    }
    // The first page is the newest 50 (not the thread read whole), and paging back ends at the first line.
    expect(seen.at(-1)!.length).toBe(50);
    expect(seen.at(-1)!.at(-1)).toBe('linha 119');
    expect(more).toBe(false);
    expect(seen.flat().filter((t) => t.startsWith('linha '))).toEqual(Array.from({ length: 120 }, (_, i) => `linha ${i}`));
  } finally {
    await s2.close();
  }
});

test('a thread longer than the whole read, from a service that ignores the sort, says it has more, and paging on reaches every message', async () => {
  test.setTimeout(180_000);
  const s2 = await startStandin({ port: 0, sessions: 30, seed: 5, anchorTime: ANCHOR, reading: 'any-order' });
  try {
    const api = standinClient(s2.baseUrl, s2.tokens.admin);
    const open = await api.v2('/user-session', {
      conditions: [{ key: 'status', operator: 'EQ', value: 'OPEN' }],
      sort: false,
      page: 0,
      size: 1,
    });
    const sessionId = open.json<{ results: Array<{ id: number }> }>().results[0]!.id;
    const base = Date.parse(ANCHOR) + 3600_000;
    // Past the 5,000 messages the console reads at once when a service's pages are in no order.
    const LINES = 5_060;
    let next = 0;
    const writer = async () => {
      for (let k = next++; k < LINES; k = next++) {
        const r = await api.v2('/messages/save', {
          session: { id: sessionId },
          message: `linha ${k}`,
          fromUser: k % 2 === 1,
          createdAt: new Date(base + k * 1000).toISOString(),
        });
        expect(r.status, r.text).toBe(201);
      }
    };
    await Promise.all(Array.from({ length: 8 }, writer));

    const client = createServiceClient({ baseUrl: s2.baseUrl, getToken: async () => s2.tokens.admin });
    const first = await threadPage(client, sessionId, 0);
    // Not all of it: the thread does not claim its beginning.
    expect(first.hasMore).toBe(true);
    const texts = new Set(first.messages.map((m) => m.text));
    expect(texts.size).toBeLessThan(LINES);
    let more = first.hasMore;
    for (let page = 1; more && page < 200; page++) {
      const got = await threadPage(client, sessionId, page);
      for (const m of got.messages) texts.add(m.text);
      more = got.hasMore;
    }
    expect(more).toBe(false);
    const missing = Array.from({ length: LINES }, (_, k) => `linha ${k}`).filter((t) => !texts.has(t));
    expect(missing).toEqual([]);
  } finally {
    await s2.close();
  }
});
