import { expect, test } from '@playwright/test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QueueItem } from '../../../src-shared/bridge/attendance';
import { SnoozeStore } from '../../../src-main/features/attendance/snooze';
import { accountDir } from '../../../src-main/workspaces/sign-in';
import { setAsideUnder } from '../../../src-main/set-aside';
import { ManualClock } from '../../support/manual-clock';
import { tempDirs } from '../../support/temp-dirs';

const dir = tempDirs('snooze-');
const HOUR = 3600_000;

const session = (id: number, over: Partial<QueueItem> = {}): QueueItem => ({
  id,
  status: 'IN_PROGRESS',
  pending: false,
  agentUserName: 'ana',
  agentName: 'Ana',
  customerName: `Cliente ${id}`,
  groupId: 1,
  groupName: 'Suporte',
  channel: 'whatsapp',
  createdAt: '2026-11-23T10:00:00Z',
  slaSeconds: 600,
  protocol: `P-${id}`,
  ticketId: null,
  withBot: false,
  ...over,
});

/** A store on `file` with a clock the test moves, and what it said. */
function storeAt(file: string, clock = new ManualClock()) {
  const warnings: string[] = [];
  const store = new SnoozeStore(file, (m) => warnings.push(m), clock);
  const changed: number[] = [];
  store.onChange((id) => changed.push(id));
  return { store, clock, warnings, changed };
}

const iso = (ms: number) => new Date(ms).toISOString();

test('a snooze is kept across a restart, in its own file; a time already past, unreadable or too far is refused and changes nothing', async () => {
  const file = join(await dir(), 'snoozed.json');
  const { store, clock, changed } = storeAt(file);
  store.snooze(7, iso(clock.now() + HOUR));
  store.snooze(8, null);
  expect(changed).toEqual([7, 8]);
  for (const [until, words] of [
    [iso(clock.now() - 1000), /already passed/],
    [iso(clock.now()), /already passed/],
    ['tomorrow-ish', /not a time/],
    [iso(clock.now() + 400 * 24 * HOUR), /more than a year/],
  ] as const) {
    expect(() => store.snooze(9, until)).toThrow(words);
  }
  expect(store.isSnoozed(9)).toBe(false);
  expect(changed).toEqual([7, 8]);
  await store.flushed();

  const again = storeAt(file, clock).store;
  expect(again.fieldsOf(7)).toEqual({ snoozed: true, snoozedUntil: iso(clock.now() + HOUR) });
  expect(again.fieldsOf(8)).toEqual({ snoozed: true, snoozedUntil: null });
  expect(again.fieldsOf(9)).toEqual({});
});

test('the customer writing wakes a snoozed session at once (either kind), marked as woken until the attendant opens it', async () => {
  const { store, clock, changed } = storeAt(join(await dir(), 'snoozed.json'));
  store.snooze(1, null);
  store.snooze(2, iso(clock.now() + HOUR));
  changed.length = 0;
  expect(store.customerWrote(1)).toBe(true);
  expect(store.customerWrote(2)).toBe(true);
  // A session not snoozed: nothing to wake, no mark.
  expect(store.customerWrote(3)).toBe(false);
  expect(changed).toEqual([1, 2]);
  expect(store.fieldsOf(1)).toEqual({ woke: 'customer' });
  expect(store.fieldsOf(2)).toEqual({ woke: 'customer' });
  expect(store.fieldsOf(3)).toEqual({});
  // Opened: the mark goes; opening again changes nothing.
  expect(store.seen(1)).toBe(true);
  expect(store.seen(1)).toBe(false);
  expect(store.fieldsOf(1)).toEqual({});
  // The timer of the woken session no longer fires anything.
  store.start();
  await clock.advance(2 * HOUR);
  expect(store.fieldsOf(2)).toEqual({ woke: 'customer' });
  await store.stop();
});

test('one timer wakes each session when its time comes, the nearest first; stopped, it wakes nothing', async () => {
  const { store, clock, changed } = storeAt(join(await dir(), 'snoozed.json'));
  store.snooze(1, iso(clock.now() + 2 * HOUR));
  store.snooze(2, iso(clock.now() + HOUR));
  store.snooze(3, null);
  store.start();
  expect(clock.pending).toBe(1);
  expect(clock.nextIn).toBe(HOUR);
  changed.length = 0;
  await clock.advance(HOUR - 1);
  expect(store.isSnoozed(2)).toBe(true);
  await clock.advance(1);
  expect(store.fieldsOf(2)).toEqual({ woke: 'time' });
  expect(store.isSnoozed(1)).toBe(true);
  expect(clock.pending).toBe(1);
  await clock.advance(HOUR);
  expect(store.fieldsOf(1)).toEqual({ woke: 'time' });
  expect(changed).toEqual([2, 1]);
  // Until the customer writes: no timer for it.
  expect(store.isSnoozed(3)).toBe(true);
  expect(clock.pending).toBe(0);

  store.snooze(4, iso(clock.now() + HOUR));
  expect(clock.pending).toBe(1);
  await store.stop();
  expect(clock.pending).toBe(0);
  await clock.advance(2 * HOUR);
  expect(store.isSnoozed(4)).toBe(true);
});

test('a time that passed while the console was closed wakes the session as soon as it starts', async () => {
  const file = join(await dir(), 'snoozed.json');
  const clock = new ManualClock();
  const first = storeAt(file, clock).store;
  first.snooze(5, iso(clock.now() + HOUR));
  await first.stop();
  clock.jump(3 * HOUR);
  const { store } = storeAt(file, clock);
  expect(store.isSnoozed(5)).toBe(true);
  store.start();
  await clock.advance(0);
  expect(store.fieldsOf(5)).toEqual({ woke: 'time' });
  await store.stop();
});

test('by hand: the session comes back with no mark; a session that closes or leaves the attendant drops its snooze', async () => {
  const { store, changed } = storeAt(join(await dir(), 'snoozed.json'));
  for (const id of [1, 2, 3, 4, 5, 6]) store.snooze(id, null);
  changed.length = 0;
  expect(store.wake(1)).toBe(true);
  expect(store.wake(1)).toBe(false);
  expect(store.fieldsOf(1)).toEqual({});

  // Still the attendant's (waiting for the customer too): kept.
  expect(store.follow(session(2), 'ana')).toEqual({ snoozed: true, snoozedUntil: null });
  expect(store.follow(session(3, { pending: true }), 'ana')).toEqual({ snoozed: true, snoozedUntil: null });
  // Closed, transferred to a colleague, back in the group's waiting list: dropped.
  expect(store.follow(session(4, { status: 'CLOSED' }), 'ana')).toEqual({});
  expect(store.follow(session(5, { agentUserName: 'bruno', agentName: 'Bruno' }), 'ana')).toEqual({});
  expect(store.follow(session(6, { agentUserName: null, agentName: null, status: 'OPEN' }), 'ana')).toEqual({});
  for (const id of [4, 5, 6]) expect(store.isSnoozed(id)).toBe(false);
  // A whole read of the queue that no longer lists a session (closed meanwhile) drops it too.
  store.snooze(7, null);
  store.customerWrote(7);
  store.snooze(8, null);
  store.keepOnly(new Set([2, 3]));
  expect(store.fieldsOf(7)).toEqual({});
  expect(store.isSnoozed(8)).toBe(false);
  expect(store.snoozedIds().sort()).toEqual([2, 3]);
});

test('each account keeps its own snoozes, in its own folder of the workspace', async () => {
  const ws = await dir();
  const ana = { userName: 'ana', name: 'Ana' };
  const bruno = { userName: 'bruno', name: 'Bruno' };
  const fileOf = (u: typeof ana) => join(accountDir(ws, u), 'snoozed.json');
  mkdirSync(accountDir(ws, ana), { recursive: true });
  const a = storeAt(fileOf(ana)).store;
  a.snooze(11, null);
  await a.flushed();
  expect(existsSync(fileOf(ana))).toBe(true);
  expect(storeAt(fileOf(bruno)).store.snoozedIds()).toEqual([]);
  expect(storeAt(fileOf(ana)).store.snoozedIds()).toEqual([11]);
});

for (const [mode, write] of [
  ['not JSON', (f: string) => writeFileSync(f, '{{{')],
  ['of the wrong shape', (f: string) => writeFileSync(f, JSON.stringify({ version: 1, snoozed: { 3: { until: 5 } }, woken: {} }))],
  ['a directory', (f: string) => mkdirSync(join(f, 'inside'), { recursive: true })],
] as const) {
  test(`a snooze file ${mode} is set aside (kept beside, said), nothing is snoozed, and the next snooze is saved`, async () => {
    const d = await dir();
    const file = join(d, 'snoozed.json');
    write(file);
    const { store, warnings } = storeAt(file);
    expect(store.snoozedIds()).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/^snoozed sessions set aside: /)]);
    const aside = setAsideUnder(d);
    expect(aside).toHaveLength(1);
    expect(aside[0]!.file).toBe(file);
    expect(readdirSync(d)).toContain(aside[0]!.keptAs.split(/[\\/]/).pop());
    store.snooze(4, null);
    await store.flushed();
    expect((JSON.parse(readFileSync(file, 'utf8')) as { snoozed: Record<string, unknown> }).snoozed).toHaveProperty('4');
  });
}
