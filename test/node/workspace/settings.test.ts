import { test, expect } from '@playwright/test';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSettings, layeredSettings } from '../../../src-main/settings';
import { adoptSingleWorkspace, workspaceDir } from '../../../src-main/workspaces/registry';
import { createConfStore } from '../../../src-main/vault/conf-store';
import { tempDirs } from '../../support/temp-dirs';

const freshDir = tempDirs('settings-');
let dir: string;
test.beforeEach(async () => {
  dir = await freshDir();
});

function open() {
  const warnings: Array<{ message: string; key: unknown }> = [];
  const store = createConfStore(dir, 'settings');
  const settings = createSettings(store, { warn: (message, fields) => warnings.push({ message, key: fields?.['key'] }) });
  return { store, settings, warnings };
}

test('a setting never written reads as its default, and a written one reads back after reopening', () => {
  const first = open();
  expect(first.settings.get('webhookPort')).toBe(0);
  expect(first.settings.get('webhookSigning')).toBe(true);
  expect(first.settings.get('workspace')).toBeNull();
  first.settings.set('webhookPort', 8_123);
  first.settings.set('workspace', { kind: 'remote', baseUrl: 'http://127.0.0.1:9/' });
  const again = open();
  expect(again.settings.get('webhookPort')).toBe(8_123);
  expect(again.settings.get('workspace')).toEqual({ kind: 'remote', baseUrl: 'http://127.0.0.1:9/' });
  expect(again.warnings).toEqual([]);
});

test('a value equal to the stored one is not written again; a changed one is, and reads back', () => {
  const { settings } = open();
  const file = join(dir, 'settings.json');
  const user = { userName: 'ana', name: 'Ana' };
  settings.set('user', user);
  settings.set('webhookPort', 8_123);
  // The store replaces its file on each write (a new file renamed over the old): a write shows as a new inode.
  const written = statSync(file, { bigint: true });
  settings.set('user', { ...user });
  settings.set('webhookPort', 8_123);
  settings.delete('pauseReason');
  expect(statSync(file, { bigint: true }).ino).toBe(written.ino);
  expect(statSync(file, { bigint: true }).mtimeNs).toBe(written.mtimeNs);

  settings.set('user', { ...user, name: 'Ana Paula' });
  expect(statSync(file, { bigint: true }).ino).not.toBe(written.ino);
  expect(open().settings.get('user')).toEqual({ userName: 'ana', name: 'Ana Paula' });
});

test('a bad value on disk falls back to the default and is logged once, naming the key', () => {
  const { store } = open();
  store.set('webhookPort', 'eighty');
  store.set('keyBindings', { reply: 42 });
  const { settings, warnings } = open();
  expect(settings.get('webhookPort')).toBe(0);
  expect(settings.get('webhookPort')).toBe(0);
  expect(settings.get('keyBindings')).toEqual({});
  expect(warnings.map((w) => w.key)).toEqual(['webhookPort', 'keyBindings']);
  // Deleting it brings the default back without a warning.
  settings.delete('webhookPort');
  expect(settings.get('webhookPort')).toBe(0);
  expect(warnings).toHaveLength(2);
});

test('a value that does not fit its schema is refused before it reaches the disk', () => {
  const { settings, store } = open();
  expect(() => settings.set('webhookPort', 70_000)).toThrow();
  expect(store.get('webhookPort')).toBeUndefined();
});

test("a workspace's settings are its own; the console's (shortcuts, its workspaces) are shared", () => {
  const consoleWide = createSettings(createConfStore(dir, 'settings'), { warn: () => undefined });
  const one = layeredSettings(consoleWide, createSettings(createConfStore(join(dir, 'one'), 'settings'), { warn: () => undefined }));
  const two = layeredSettings(consoleWide, createSettings(createConfStore(join(dir, 'two'), 'settings'), { warn: () => undefined }));
  one.set('webhookPort', 8_001);
  one.set('voice', { enabled: true, language: 'pt-BR' });
  one.set('keyBindings', { 'queue.next': 'Alt+J' });
  expect([two.get('webhookPort'), two.get('voice'), two.get('keyBindings')]).toEqual([0, null, { 'queue.next': 'Alt+J' }]);
  expect(consoleWide.get('webhookPort')).toBe(0);
});

test('a profile with one workspace at its root: its files and settings move into its folder, the console keeps its own, and a second run changes nothing', () => {
  const raw = createConfStore(dir, 'settings');
  const settings = createSettings(raw, { warn: () => undefined });
  settings.set('workspace', { kind: 'remote', baseUrl: 'https://vilaserena.com.br' });
  settings.set('webhookSigning', false);
  settings.set('knowledgeBase', 'faq_pt');
  settings.set('keyBindings', { 'queue.next': 'Alt+J' });
  mkdirSync(join(dir, 'outbox', 'notes'), { recursive: true });
  writeFileSync(join(dir, 'outbox', 'notes', 'n.json'), '{}');
  const adopt = () =>
    adoptSingleWorkspace({
      profileDir: dir,
      settings,
      openStore: (name, at) => createConfStore(at, name),
      raw,
      log: { info: () => undefined, warn: () => undefined },
    });
  adopt();
  const [entry] = settings.get('workspaces');
  expect(entry).toMatchObject({ workspace: { kind: 'remote', baseUrl: 'https://vilaserena.com.br' }, color: 0 });
  expect(settings.get('activeWorkspace')).toBe(entry!.id);
  const own = createSettings(createConfStore(workspaceDir(dir, entry!.id), 'settings'), { warn: () => undefined });
  expect([own.get('webhookSigning'), own.get('knowledgeBase'), own.get('webhookPort')]).toEqual([false, 'faq_pt', 0]);
  expect([settings.get('workspace'), raw.get('webhookSigning'), raw.get('knowledgeBase'), settings.get('keyBindings')]).toEqual([
    null,
    undefined,
    undefined,
    { 'queue.next': 'Alt+J' },
  ]);
  expect(readFileSync(join(workspaceDir(dir, entry!.id), 'outbox', 'notes', 'n.json'), 'utf8')).toBe('{}');
  expect(existsSync(join(dir, 'outbox'))).toBe(false);
  adopt();
  expect(settings.get('workspaces')).toEqual([entry]);
});
