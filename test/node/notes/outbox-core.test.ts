import { test, expect } from '@playwright/test';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../../src-shared/errors';
import { Outbox, type OutboxOptions } from '../../../src-main/outbox/outbox';
import { refOf, splitRef, withRef } from '../../../src-main/outbox/ref';
import type { OutboxEvent } from '../../../src-main/outbox/types';
import { FakeService } from '../../support/outbox-fake';

const FAST = {
  settleMs: 20,
  requestTimeoutMs: 300,
  retry: { baseMs: 5, maxMs: 40 },
  probe: { baseMs: 5, maxMs: 40 },
} satisfies Partial<OutboxOptions>;

let dir: string;
test.beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'outbox-core-'));
});
test.afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const make = (svc: FakeService, extra: Partial<OutboxOptions> = {}) => new Outbox({ dir, transport: svc, ...FAST, ...extra });
const typed = (svc: FakeService, sessionId: number) => svc.savedTexts(sessionId).map((c) => splitRef(c).text);

test('the reference reads naturally and is found again', () => {
  const c = withRef('Customer wants a refund  ', '7F3A9C2K');
  expect(c).toBe('Customer wants a refund · ref 7F3A9C2K');
  expect(refOf(c)).toBe('7F3A9C2K');
  // Quoting another note's reference does not confuse it: the trailing one wins.
  expect(refOf(withRef('see · ref AAAAAAAA above', 'BBBBBBBB'))).toBe('BBBBBBBB');
  expect(splitRef(c)).toEqual({ text: 'Customer wants a refund', ref: '7F3A9C2K' });
  expect(refOf('no reference here')).toBeUndefined();
});

test('a note is on disk before add resolves, and is deleted only after the service confirmed it', async () => {
  const svc = new FakeService();
  const box = make(svc);
  const note = await box.add(12, 'Called back, no answer');
  expect(note.state).toBe('pending');
  const files = await readdir(path.join(dir, 'notes'));
  expect(files).toEqual([`${note.id}.json`]);
  const onDisk = JSON.parse(await readFile(path.join(dir, 'notes', files[0]!), 'utf8')) as unknown;
  expect(onDisk).toMatchObject({ state: 'pending', sessionId: 12, text: 'Called back, no answer', ref: note.ref });
  expect(svc.calls).toHaveLength(0);

  await box.start();
  await expect.poll(() => box.list(12)[0]?.state).toBe('confirmed');
  expect(box.list(12)[0]?.serviceId).toBe(1);
  expect(svc.savedTexts(12)).toEqual([`Called back, no answer · ref ${note.ref}`]);
  await expect.poll(async () => readdir(path.join(dir, 'notes'))).toEqual([]);
  await box.stop();
});

test('an answer lost after the service stored the note is reconciled by reading back, not resent', async () => {
  const svc = new FakeService();
  svc.script = ['dropAfterCommit', 'resetBeforeCommit'];
  const box = make(svc);
  const events: OutboxEvent[] = [];
  box.subscribe((e) => events.push(e));
  await box.start();
  await box.add(5, 'first');
  await box.add(5, 'second');
  await expect.poll(() => box.outstanding).toBe(0);
  // first: stored, answer lost -> found by reading back. second: never stored -> sent again.
  expect(typed(svc, 5)).toEqual(['first', 'second']);
  const ops = svc.calls.map((c) => c.op);
  expect(ops).toEqual(['save', 'list', 'save', 'list', 'save']);
  const states = events.flatMap((e) => (e.type === 'note' && e.note.text === 'first' ? [e.note.state] : []));
  expect(states).toContain('outcome-unknown');
  expect(states.at(-1)).toBe('confirmed');
  await box.stop();
});

test('a save with no answer in time is read back after the settle delay before any resend', async () => {
  const svc = new FakeService();
  svc.script = ['hang'];
  const box = make(svc, { requestTimeoutMs: 100, settleMs: 150 });
  await box.start();
  await box.add(3, 'slow one');
  await expect.poll(() => box.outstanding, { timeout: 5_000 }).toBe(0);
  expect(typed(svc, 3)).toEqual(['slow one']);
  const save = svc.calls.find((c) => c.op === 'save')!;
  const list = svc.calls.find((c) => c.op === 'list')!;
  expect(list.at - save.at).toBeGreaterThanOrEqual(150 - 5);
  expect(svc.calls.filter((c) => c.op === 'save')).toHaveLength(1);
  await box.stop();
});

test('a note found "sending" at start-up is read back before anything is sent', async () => {
  const svc = new FakeService();
  const box1 = make(svc);
  const a = await box1.add(9, 'was in flight');
  await box1.add(9, 'after it');
  // Simulate a crash just after the request went out: the entry says sending, the service has it.
  const file = path.join(dir, 'notes', `${a.id}.json`);
  const entry = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  await writeFile(file, JSON.stringify({ ...entry, state: 'sending', attempts: 1, lastAttemptAt: Date.now() - 1000 }));
  svc.comments.set(9, [{ id: 77, comment: withRef('was in flight', a.ref) }]);

  const box2 = make(svc);
  await box2.start();
  await expect.poll(() => box2.outstanding).toBe(0);
  expect(svc.calls[0]?.op).toBe('list');
  expect(typed(svc, 9)).toEqual(['was in flight', 'after it']);
  expect(box2.list(9).map((n) => [n.text, n.state])).toEqual([
    ['was in flight', 'confirmed'],
    ['after it', 'confirmed'],
  ]);
  expect(box2.list(9)[0]?.serviceId).toBe(77);
  expect(svc.calls.filter((c) => c.op === 'save')).toHaveLength(1);
  await box2.stop();
});

test('a refused note holds its session back, other sessions go; edited and retried it goes first', async () => {
  const svc = new FakeService();
  svc.refuse = /FORBIDDEN WORD/;
  const box = make(svc);
  await box.start();
  const bad = await box.add(1, 'contains FORBIDDEN WORD');
  await box.add(1, 'later in session 1');
  await box.add(2, 'session 2 note');
  await expect.poll(() => box.list(2)[0]?.state).toBe('confirmed');
  await expect.poll(() => box.list(1)[0]?.state).toBe('failed');
  const failed = box.list(1)[0]!;
  expect(failed.error).toMatchObject({ kind: 'Invalid', message: 'comment refused by the service', errorCode: 'COMMENT_INVALID' });
  expect(box.list(1)[1]?.state).toBe('pending');
  expect(typed(svc, 1)).toEqual([]);
  expect(box.status().counts.failed).toBe(1);

  // The failure survives a restart (never silently dropped).
  await box.stop();
  const box2 = make(svc);
  await box2.start();
  expect(box2.list(1).map((n) => n.state)).toEqual(['failed', 'pending']);
  await expect(box2.retry(box2.list(1)[1]!.id)).rejects.toThrow(/Only a note the service refused/);

  await box2.retry(bad.id, 'contains a polite word');
  await expect.poll(() => box2.outstanding).toBe(0);
  expect(typed(svc, 1)).toEqual(['contains a polite word', 'later in session 1']);
  await box2.stop();
});

test('a refused note can be discarded explicitly, which releases its session', async () => {
  const svc = new FakeService();
  svc.refuse = /nope/;
  const box = make(svc);
  await box.start();
  const bad = await box.add(4, 'nope');
  await box.add(4, 'next');
  await expect.poll(() => box.list(4)[0]?.state).toBe('failed');
  await box.discard(bad.id);
  await expect.poll(() => box.outstanding).toBe(0);
  expect(typed(svc, 4)).toEqual(['next']);
  expect(await readdir(path.join(dir, 'notes'))).toEqual([]);
  await box.stop();
});

test('Unauthorized pauses the whole outbox until resume()', async () => {
  const svc = new FakeService();
  svc.unauthorized = true;
  const box = make(svc);
  await box.start();
  await box.add(1, 'a');
  await box.add(2, 'b');
  await expect.poll(() => box.status().connectivity).toBe('paused');
  expect(box.status().reason?.message).toMatch(/sign in again/);
  const callsWhenPaused = svc.calls.length;
  await box.add(3, 'c');
  expect(box.status().connectivity).toBe('paused');
  expect(svc.calls.length).toBe(callsWhenPaused);
  expect(box.list().every((n) => n.state === 'pending')).toBe(true);

  svc.unauthorized = false;
  box.resume();
  await expect.poll(() => box.outstanding).toBe(0);
  expect(box.status().connectivity).toBe('online');
  expect([...typed(svc, 1), ...typed(svc, 2), ...typed(svc, 3)]).toEqual(['a', 'b', 'c']);
  await box.stop();
});

test('network errors take it offline; a probe brings it back and the notes go once', async () => {
  const svc = new FakeService();
  const box = make(svc);
  await box.start();
  svc.down = true;
  await box.add(8, 'typed offline');
  await expect.poll(() => box.status().connectivity).toBe('offline');
  expect(box.status().reason?.kind).toBe('Unavailable');
  await expect.poll(() => svc.calls.filter((c) => c.op === 'probe').length).toBeGreaterThan(2);
  svc.down = false;
  await expect.poll(() => box.outstanding).toBe(0);
  expect(box.status().connectivity).toBe('online');
  expect(typed(svc, 8)).toEqual(['typed offline']);
  await box.stop();
});

test('429 holds every send until Retry-After has passed', async () => {
  const svc = new FakeService();
  svc.script = [{ error: new AppError({ kind: 'RateLimited', message: 'slow down', status: 429, retryAfterMs: 300 }) }];
  const box = make(svc);
  await box.start();
  await box.add(1, 'x');
  await box.add(2, 'y');
  await expect.poll(() => box.outstanding).toBe(0);
  const saves = svc.calls.filter((c) => c.op === 'save');
  const first = saves[0]!.at;
  // Session 2 may have been sent alongside the refused one; every later save waited.
  for (const s of saves.slice(1).filter((s) => s.at > first + 50)) expect(s.at - first).toBeGreaterThanOrEqual(295);
  expect(saves.filter((s) => s.at - first >= 295).length).toBeGreaterThanOrEqual(1);
  expect([...typed(svc, 1), ...typed(svc, 2)].sort()).toEqual(['x', 'y']);
  await box.stop();
});

test('a corrupt entry is set aside in quarantine and reported, the others still go', async () => {
  const svc = new FakeService();
  const box1 = make(svc);
  await box1.add(6, 'good one');
  await box1.add(6, 'good two');
  const notes = path.join(dir, 'notes');
  const badId = randomUUID();
  await writeFile(path.join(notes, `${badId}.json`), '{"v":1,"id":"truncated');
  const wrongShape = randomUUID();
  await writeFile(path.join(notes, `${wrongShape}.json`), JSON.stringify({ v: 1, id: wrongShape, text: 'no session' }));

  const box2 = make(svc);
  const problems: string[] = [];
  box2.subscribe((e) => e.type === 'problem' && problems.push(e.problem.message));
  await box2.start();
  await expect.poll(() => box2.outstanding).toBe(0);
  expect(typed(svc, 6)).toEqual(['good one', 'good two']);
  expect(problems).toHaveLength(2);
  expect(
    box2
      .status()
      .problems.map((p) => p.file)
      .sort(),
  ).toEqual([`${badId}.json`, `${wrongShape}.json`].sort());
  expect(problems.join('\n')).toMatch(/could not be read .* and was not sent/);
  const aside = await readdir(path.join(dir, 'quarantine'));
  expect(aside).toHaveLength(2);
  expect(await readdir(notes)).toEqual([]);
  await box2.stop();
});

test('empty notes are refused before anything is written', async () => {
  const box = make(new FakeService());
  await expect(box.add(1, '   ')).rejects.toThrow(/cannot be empty/);
  await expect(box.add(0, 'x')).rejects.toBeInstanceOf(AppError);
  expect(box.list()).toEqual([]);
});
