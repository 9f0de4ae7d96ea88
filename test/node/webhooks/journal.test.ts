import { test, expect } from '@playwright/test';
import { writeSync } from 'node:fs';
import { appendFile, mkdir, readdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describeBody } from '../../../src-main/webhooks/check-request';
import { WebhookState } from '../../../src-main/webhooks/state';
import type { WebhookLogger } from '../../../src-main/webhooks/types';
import { tempDirs } from '../../support/temp-dirs';

const stateDir = tempDirs('webhooks-journal-');

function recorder(): WebhookLogger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, info() {}, warn: (m) => void warnings.push(m), error: (m) => void warnings.push(m) };
}

type Extra = Partial<Parameters<typeof WebhookState.open>[0]>;
const open = (dir: string, log: WebhookLogger = recorder(), extra: Extra = {}) => WebhookState.open({ dir, now: Date.now, log, ...extra });

/** Commits an event the way the listener does: described from its body, written before it counts. */
function commit(state: WebhookState, id: string, raw: string, receivedAt = Date.now()): void {
  state.stage({ id, receivedAt, signature: 'valid', raw, ...describeBody(JSON.parse(raw)) });
  state.flush();
}

/** Takes every pending event, oldest first, as the listener's consumer would. */
function drain(state: WebhookState): Array<{ id: string; raw: string }> {
  const out: Array<{ id: string; raw: string }> = [];
  for (let p = state.firstPending(); p; p = state.firstPending()) {
    out.push({ id: p.id, raw: p.raw });
    state.markDone(p.id);
  }
  return out;
}

/** Starts again on the directory, as after a crash, and returns the ids handed out. */
async function replayedIds(dir: string): Promise<string[]> {
  const state = await open(dir);
  try {
    return drain(state).map((e) => e.id);
  } finally {
    await state.close();
  }
}

const journalOf = async (dir: string) =>
  join(
    dir,
    (await readdir(dir)).find((f) => f.startsWith('journal-'))!,
  );

test('event bodies come back byte for byte after a crash, whatever they hold', async () => {
  const dir = await stateDir();
  const bodies: Record<string, string> = {
    pretty: JSON.stringify({ id: 'pretty', group: 'messages', data: { text: 'two\nlines' } }, null, 2),
    accents: JSON.stringify({ id: 'accents', data: { text: 'Olá, atenção — ✓ 😀' } }),
    // A body whose middle line is exactly a processed marker for the first event.
    lookalike: '[\n{"k":"d","id":"pretty"}\n]',
    fromText: '{"id":"fromText","data":{}}',
  };
  const first = await open(dir);
  for (const [id, raw] of Object.entries(bodies)) commit(first, id, raw);
  // No close: the process ends here, with the events written but never snapshotted.

  const second = await open(dir);
  try {
    expect(drain(second)).toEqual(Object.entries(bodies).map(([id, raw]) => ({ id, raw })));
    expect(second.isSeen('pretty')).toBe(true);
  } finally {
    await second.close();
  }
});

test('after a crash the event log shows what each body says: group, type, time and whether it is known', async () => {
  const dir = await stateDir();
  const envelope = { group: 'messages', type: 'message.created', occurredAt: '2025-01-15T12:00:00Z', data: {} };
  const bodies = {
    known: JSON.stringify({ id: 'known', ...envelope }),
    newGroup: JSON.stringify({ id: 'newGroup', ...envelope, group: 'invoices' }),
    loose: JSON.stringify({ group: 'messages', type: 'odd' }),
    list: '[1,2]',
  };
  const first = await open(dir);
  for (const [id, raw] of Object.entries(bodies)) commit(first, id, raw);
  // No close: the process ends here.

  const second = await open(dir);
  try {
    const rows = Object.fromEntries(
      second.eventLog().map(({ id, known, group, type, occurredAt }) => [id, { known, group, type, occurredAt }]),
    );
    expect(rows).toEqual({
      known: { known: true, group: 'messages', type: 'message.created', occurredAt: '2025-01-15T12:00:00Z' },
      newGroup: { known: false, group: 'invoices', type: 'message.created', occurredAt: '2025-01-15T12:00:00Z' },
      loose: { known: false, group: 'messages', type: 'odd', occurredAt: undefined },
      list: { known: false, group: undefined, type: undefined, occurredAt: undefined },
    });
  } finally {
    await second.close();
  }
});

test('a record torn at the end loses only itself, and nothing inside it is read as a record', async () => {
  const dir = await stateDir();
  const first = await open(dir);
  commit(first, 't1', '{"id":"t1"}');
  commit(first, 't2', '{"id":"t2"}');
  // The write of a third event was cut short by a crash, after a part of its body that imitates
  // a processed marker for t1.
  const record = JSON.stringify({ k: 'e', id: 't3', receivedAt: 1, signature: 'valid', known: false, raw: '[\n{"k":"d","id":"t1"}\n]' });
  await appendFile(await journalOf(dir), record.slice(0, record.indexOf('t1') + 4));

  const log = recorder();
  const second = await open(dir, log);
  try {
    expect(drain(second).map((e) => e.id)).toEqual(['t1', 't2']);
    expect(second.isSeen('t3')).toBe(false);
    expect(log.warnings).toEqual(['Skipped unreadable records in the webhook journal.']);
  } finally {
    await second.close();
  }
});

test('ids seen before a crash or a stop stay seen', async () => {
  const dir = await stateDir();
  const first = await open(dir);
  commit(first, 'before-crash', '{"id":"before-crash"}');
  // No close: the process ends here.
  const second = await open(dir);
  commit(second, 'before-stop', '{"id":"before-stop"}');
  expect(['before-crash', 'before-stop', 'other'].map((id) => second.isSeen(id))).toEqual([true, true, false]);
  await second.close();
  // Closed cleanly: the next start reads the snapshot just written.
  const third = await open(dir);
  try {
    expect(['before-crash', 'before-stop', 'other'].map((id) => third.isSeen(id))).toEqual([true, true, false]);
    // Neither was processed: both are handed out again, in order.
    expect(drain(third).map((e) => e.id)).toEqual(['before-crash', 'before-stop']);
  } finally {
    await third.close();
  }
});

test('an id re-sent after 20,000 others within a day is a duplicate, also after a restart; a day later it is not', async () => {
  const dir = await stateDir();
  const start = Date.UTC(2025, 0, 15, 12, 0, 0);
  let clock = start;
  const now = () => clock;
  const first = await open(dir, recorder(), { now });
  commit(first, 'early', '{"id":"early"}', clock);
  for (let i = 0; i < 20_000; i++) {
    clock += 1_000;
    commit(first, `other-${i}`, `{"id":"other-${i}"}`, clock);
  }
  expect(drain(first)).toHaveLength(20_001);
  expect(first.isSeen('early')).toBe(true);
  // No close: the process ends here.

  const second = await open(dir, recorder(), { now });
  try {
    expect(second.isSeen('early')).toBe(true);
    // Markers written in the last second before a crash may be lost: those events come back once.
    drain(second);
    clock = start + 24 * 60 * 60 * 1000 + 1;
    expect([second.isSeen('early'), second.isSeen('other-19999')]).toEqual([false, true]);
  } finally {
    await second.close();
  }
});

test('processed events are not replayed after a crash, in order or not', async () => {
  const dir = await stateDir();
  const first = await open(dir);
  for (const id of ['e1', 'e2', 'e3', 'e4', 'e5']) commit(first, id, `{"id":"${id}"}`);
  // The listener hands them out oldest first.
  for (let k = 0; k < 3; k++) first.markDone(first.firstPending()!.id);
  // Out of order (not what the listener does).
  first.markDone('e5');
  commit(first, 'e6', '{"id":"e6"}');
  // No close: the process ends here.

  expect(await replayedIds(dir)).toEqual(['e4', 'e6']);
});

test('an event processed just before a crash is not replayed: its marker is written as it is marked', async () => {
  const dir = await stateDir();
  const first = await open(dir);
  for (const id of ['f1', 'f2', 'f3']) commit(first, id, `{"id":"${id}"}`);
  first.markDone('f1');
  first.markDone('f2');
  // No close and nothing written after: the process ends right after processing f2.
  expect(await replayedIds(dir)).toEqual(['f3']);
});

test('a write that fails halfway refuses its events, and later ones go to a fresh journal', async () => {
  const dir = await stateDir();
  let failNext = false;
  const writeJournal = (fd: number, buf: Buffer, offset: number, length: number) => {
    if (!failNext) return writeSync(fd, buf, offset, length);
    failNext = false;
    // Half the record reaches the file, then the disk gives up.
    writeSync(fd, buf, offset, Math.floor(length / 2));
    throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
  };
  const first = await open(dir, recorder(), { writeJournal });
  commit(first, 'f1', '{"id":"f1","text":"kept"}');
  failNext = true;
  // Two events taken in the same turn share the write that fails.
  first.stage({ id: 'f2a', receivedAt: Date.now(), signature: 'valid', known: false, raw: '{"id":"f2a"}' });
  expect(() => commit(first, 'f2', '{"id":"f2","text":"refused"}')).toThrow('EIO');
  // Refused means not remembered: the sender's retry is a new event.
  expect([first.isSeen('f2a'), first.isSeen('f2'), first.queued]).toEqual([false, false, 1]);
  commit(first, 'f3', '{"id":"f3","text":"kept too"}');
  // The torn journal is removed once a snapshot covers what it held.
  const journals = async () => (await readdir(dir)).filter((f) => f.startsWith('journal-'));
  await expect.poll(journals).toEqual(['journal-2.ndjson']);
  // No close: the process ends here.

  expect(await replayedIds(dir)).toEqual(['f1', 'f3']);
});

test('when snapshots cannot be written, the journals keep everything', async () => {
  const dir = await stateDir();
  const log = recorder();
  const first = await open(dir, log, { compactBytes: 300 });
  // A directory where the snapshot goes makes every later snapshot fail.
  await rm(join(dir, 'state.json'));
  await mkdir(join(dir, 'state.json'));
  for (let i = 1; i <= 8; i++) commit(first, `s${i}`, JSON.stringify({ id: `s${i}`, text: 'x'.repeat(100) }));
  expect((await readdir(dir)).filter((f) => f.startsWith('journal-')).length).toBeGreaterThan(3);
  await first.close();
  expect(log.warnings).toContain('Could not write the webhook state snapshot; the journals still hold everything.');

  await rmdir(join(dir, 'state.json'));
  const second = await open(dir);
  try {
    expect(drain(second).map((e) => e.id)).toEqual(['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8']);
    // This start's snapshot covers them all: one journal is left.
    expect((await readdir(dir)).filter((f) => f.startsWith('journal-'))).toHaveLength(1);
  } finally {
    await second.close();
  }
});
