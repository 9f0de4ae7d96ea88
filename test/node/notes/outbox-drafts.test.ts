import { test, expect } from '@playwright/test';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DraftStore } from '../../../src-main/outbox/drafts';

let dir: string;
test.beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'outbox-drafts-'));
});
test.afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('reply and note drafts survive a restart, per session', async () => {
  const a = new DraftStore({ dir, debounceMs: 30 });
  await a.load();
  a.set(12, 'reply', 'Hello, I am checking your order');
  a.set(12, 'note', 'VIP customer');
  a.set(40, 'reply', 'One moment please');
  await a.flush();

  const b = new DraftStore({ dir });
  await b.load();
  expect(b.get(12, 'reply')).toBe('Hello, I am checking your order');
  expect(b.get(12, 'note')).toBe('VIP customer');
  expect(b.get(40, 'reply')).toBe('One moment please');
  expect(b.get(40, 'note')).toBe('');
  expect(b.all()).toHaveLength(3);
});

test('typing is written after a quiet moment without an explicit flush', async () => {
  const a = new DraftStore({ dir, debounceMs: 40, maxWaitMs: 500 });
  await a.load();
  for (const t of ['H', 'He', 'Hel', 'Hello']) a.set(7, 'reply', t);
  // Only the last text is written, once the debounce fires.
  await expect
    .poll(async () => {
      const b = new DraftStore({ dir });
      await b.load();
      return b.get(7, 'reply');
    })
    .toBe('Hello');
});

test('a cleared draft stays cleared after a restart', async () => {
  const a = new DraftStore({ dir, debounceMs: 10 });
  await a.load();
  a.set(3, 'note', 'temporary');
  await a.flush();
  a.clear(3);
  await a.flush();
  expect(await readdir(path.join(dir, 'drafts'))).toEqual([]);
  const b = new DraftStore({ dir });
  await b.load();
  expect(b.get(3, 'note')).toBe('');
});

test('an unreadable drafts file is set aside; other sessions keep their drafts', async () => {
  const a = new DraftStore({ dir, debounceMs: 10 });
  await a.load();
  a.set(1, 'reply', 'kept');
  await a.flush();
  await writeFile(path.join(dir, 'drafts', 'session-2.json'), '{"v":1,"sessionId":2,"reply":{"te');
  const b = new DraftStore({ dir });
  await b.load();
  expect(b.get(1, 'reply')).toBe('kept');
  expect(b.problems).toHaveLength(1);
  expect(b.problems[0]?.message).toMatch(/Drafts could not be read/);
  expect(await readdir(path.join(dir, 'quarantine'))).toHaveLength(1);
});
