import { test, expect } from '@playwright/test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { makeFolder, removeFolder, storeIn } from '../../../src-main/folders';
import { join } from 'node:path';
import { z } from 'zod';
import { KeptFile } from '../../../src-main/kept-file';
import { SnoozeStore } from '../../../src-main/features/attendance/snooze';
import { ActivityStore } from '../../../src-main/features/attendance/activity';
import { MentionWatch } from '../../../src-main/features/notes/mentions';
import { TicketCache } from '../../../src-main/features/supervisor/ticket-cache';
import { tempDirs } from '../../support/temp-dirs';

const tempDir = tempDirs('kept-file-');
const Count = z.object({ n: z.number() });

test('writes asked one after another land in that order: the file holds the last, and no temporary file stays', async () => {
  const dir = await tempDir();
  const file = join(dir, 'deep', 'count.json');
  const said: string[] = [];
  const kept = new KeptFile({ file, schema: Count, what: 'count', warn: (m) => said.push(m) });
  const writes: Promise<void>[] = [];
  for (let n = 1; n <= 40; n++) writes.push(kept.write({ n }));
  await Promise.all(writes);
  expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ n: 40 });
  expect(readdirSync(join(dir, 'deep'))).toEqual(['count.json']);
  expect(new KeptFile({ file, schema: Count, what: 'count', warn: (m) => said.push(m) }).read()).toEqual({ n: 40 });
  expect(said).toEqual([]);
});

test('a file that is not what the console writes is set aside with its contents and said in one line; the reader starts empty', async () => {
  const dir = await tempDir();
  const file = join(dir, 'count.json');
  writeFileSync(file, '{"n":"seven"}');
  const said: string[] = [];
  expect(new KeptFile({ file, schema: Count, what: 'count', warn: (m) => said.push(m) }).read()).toBeNull();
  const aside = readdirSync(dir).filter((n) => n.startsWith('count.json.unreadable-'));
  expect(aside).toHaveLength(1);
  expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe('{"n":"seven"}');
  expect(said).toEqual(['count set aside: its contents are not what the console writes']);
});

test('every file the console keeps for itself (snoozes, activity, mentions, recent tickets) removes what a write cut short left beside it, and nothing else', async () => {
  const dir = await tempDir();
  const names = ['snoozed.json', 'activity.json', 'mentions.json', 'tickets.json'];
  mkdirSync(dir, { recursive: true });
  for (const name of names) writeFileSync(join(dir, `${name}.0badc0de.tmp`), '{"half":');
  writeFileSync(join(dir, 'other.json.0badc0de.tmp'), 'not ours');

  const quiet = () => undefined;
  new SnoozeStore(join(dir, 'snoozed.json'), quiet);
  new ActivityStore(join(dir, 'activity.json'), quiet);
  await new MentionWatch({
    file: join(dir, 'mentions.json'),
    me: () => null,
    read: async () => [],
    minGapMs: () => 60_000,
    onChange: quiet,
    log: quiet,
  }).load();
  expect(await new TicketCache(join(dir, 'tickets.json'), quiet).recent()).toEqual([]);

  expect(readdirSync(dir).sort()).toEqual(['other.json.0badc0de.tmp']);
});

test('a write that finishes after its workspace was signed out of does not make its folder again: it says it was not saved; a setting there is dropped', async () => {
  const dir = await tempDir();
  const workspace = join(dir, 'workspaces', 'w1');
  makeFolder(workspace);
  const said: string[] = [];
  const tickets = new TicketCache(join(workspace, 'accounts', 'a', 'supervisor', 'tickets.json'), (m) => said.push(m));
  const settings = storeIn(workspace, { get: () => undefined, set: () => said.push('set'), delete: () => said.push('deleted') });
  removeFolder(workspace);
  await tickets.put('T-1', { id: 1, key: 'T-1' } as never);
  settings.set('queueWidth', 400);
  settings.delete('queueWidth');
  expect(existsSync(workspace)).toBe(false);
  expect(said).toEqual([`ticket cache not saved: ${workspace} was removed (signed out): not written there.`]);

  // Added again, it is the console's again.
  makeFolder(workspace);
  await tickets.put('T-2', { id: 2, key: 'T-2' } as never);
  settings.set('queueWidth', 400);
  expect(readdirSync(join(workspace, 'accounts', 'a', 'supervisor'))).toEqual(['tickets.json']);
  expect(said.slice(1)).toEqual(['set']);
});
