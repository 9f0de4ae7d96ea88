import { test, expect } from '@playwright/test';
import { createSettings } from '../../../src-main/settings';
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
