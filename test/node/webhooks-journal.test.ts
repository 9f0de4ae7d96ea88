import { test, expect } from '@playwright/test';
import { writeSync } from 'node:fs';
import { appendFile, mkdir, readdir, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WebhookState, type PendingEvent } from '../../src-main/webhooks/state';
import type { WebhookLogger } from '../../src-main/webhooks/types';
import { tempDirs } from '../support/temp-dirs';

const stateDir = tempDirs('webhooks-journal-');

function recorder(): WebhookLogger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, info() {}, warn: (m) => void warnings.push(m), error: (m) => void warnings.push(m) };
}

type Extra = Partial<Parameters<typeof WebhookState.open>[0]>;
const open = (dir: string, log: WebhookLogger = recorder(), extra: Extra = {}) => WebhookState.open({ dir, now: Date.now, log, ...extra });

/** Commits an event the way the listener does and waits until it is written. */
function commit(state: WebhookState, id: string, raw: string, asReceived = true): Promise<void> {
  const rec: PendingEvent = { id, receivedAt: Date.now(), signature: 'valid', known: false, raw };
  if (asReceived) rec.body = Buffer.from(raw, 'utf8');
  return new Promise((resolve, reject) => state.commit(rec, { committed: (e) => (e === undefined ? resolve() : reject(e)) }));
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

const journalOf = async (dir: string) => join(dir, (await readdir(dir)).find((f) => f.startsWith('journal-'))!);

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
  for (const [id, raw] of Object.entries(bodies)) await commit(first, id, raw, id !== 'fromText');
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
  for (const [id, raw] of Object.entries(bodies)) await commit(first, id, raw);

  const second = await open(dir);
  try {
    const rows = Object.fromEntries(second.eventLog().map(({ id, known, group, type, occurredAt }) => [id, { known, group, type, occurredAt }]));
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
  await commit(first, 't1', '{"id":"t1"}');
  await commit(first, 't2', '{"id":"t2"}');
  // The write of a third event was cut short by a crash: its header promises more than follows,
  // and what did follow imitates a marker for t1.
  await appendFile(await journalOf(dir), '{"k":"e","id":"t3","receivedAt":1,"signature":"valid","known":false,"bytes":400}\n[\n{"k":"d","id":"t1"}\n');

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

test('a journal of the first format, bodies inline, is still read', async () => {
  const dir = await stateDir();
  const line = (o: object) => JSON.stringify(o) + '\n';
  const accepted = (id: string) => ({ k: 'a', id, receivedAt: 1, signature: 'unsigned', known: true, group: 'messages', raw: `{"id":"${id}","text":"a\\nb"}` });
  await writeFile(join(dir, 'journal-1.ndjson'), line(accepted('old1')) + line(accepted('old2')) + line({ k: 'd', id: 'old1' }));

  const state = await open(dir);
  try {
    expect(drain(state)).toEqual([{ id: 'old2', raw: '{"id":"old2","text":"a\\nb"}' }]);
    expect([state.isSeen('old1'), state.eventLog().map((e) => e.id)]).toEqual([true, ['old2', 'old1']]);
  } finally {
    await state.close();
  }
});

test('a snapshot that lists seen ids by name is still read, and ids seen before a restart stay seen', async () => {
  const dir = await stateDir();
  const now = Date.now();
  const snapshot = { v: 1, nextGen: 1, seen: [['named-1', now - 1000], ['named-2', now]], log: [], pending: [] };
  await writeFile(join(dir, 'state.json'), JSON.stringify(snapshot));

  const first = await open(dir);
  await commit(first, 'fresh-1', '{"id":"fresh-1"}');
  expect(['named-1', 'named-2', 'fresh-1', 'other'].map((id) => first.isSeen(id))).toEqual([true, true, true, false]);
  drain(first);
  await first.close();
  // Closed cleanly: the next start reads the snapshot just written, in the current format.
  const second = await open(dir);
  try {
    expect(['named-1', 'named-2', 'fresh-1', 'other'].map((id) => second.isSeen(id))).toEqual([true, true, true, false]);
  } finally {
    await second.close();
  }
});

test('processed events are not replayed after a crash, in order or not', async () => {
  const dir = await stateDir();
  const first = await open(dir);
  for (const id of ['e1', 'e2', 'e3', 'e4', 'e5']) await commit(first, id, `{"id":"${id}"}`);
  // The listener hands them out oldest first; one marker then covers all three.
  for (let k = 0; k < 3; k++) first.markDone(first.firstPending()!.id);
  // Out of order (not what the listener does): that one alone is marked.
  first.markDone('e5');
  // The markers go out with the next write.
  await commit(first, 'e6', '{"id":"e6"}');

  expect(await replayedIds(dir)).toEqual(['e4', 'e6']);
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
  await commit(first, 'f1', '{"id":"f1","text":"kept"}');
  failNext = true;
  await expect(commit(first, 'f2', '{"id":"f2","text":"refused"}')).rejects.toThrow('EIO');
  // Refused means not remembered: the sender's retry is a new event.
  expect(first.isSeen('f2')).toBe(false);
  await commit(first, 'f3', '{"id":"f3","text":"kept too"}');
  expect((await readdir(dir)).filter((f) => f.startsWith('journal-'))).toHaveLength(2);

  expect(await replayedIds(dir)).toEqual(['f1', 'f3']);
});

test('when snapshots cannot be written, the journals keep everything', async () => {
  const dir = await stateDir();
  // A directory where the snapshot's temporary file goes makes every snapshot fail.
  await mkdir(join(dir, 'state.json.tmp'));
  const log = recorder();
  const first = await open(dir, log, { compactBytes: 300 });
  for (let i = 1; i <= 8; i++) await commit(first, `s${i}`, JSON.stringify({ id: `s${i}`, text: 'x'.repeat(100) }));
  expect(log.warnings).toContain('Could not write the webhook state snapshot; the journals still hold everything.');
  expect((await readdir(dir)).filter((f) => f.startsWith('journal-')).length).toBeGreaterThan(3);
  // The process ends here.

  await rmdir(join(dir, 'state.json.tmp'));
  const second = await open(dir);
  try {
    expect(drain(second).map((e) => e.id)).toEqual(['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8']);
    // This start's snapshot covers them all: one journal is left.
    expect((await readdir(dir)).filter((f) => f.startsWith('journal-'))).toHaveLength(1);
  } finally {
    await second.close();
  }
});
