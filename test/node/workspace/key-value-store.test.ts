import { expect, test } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConfStore } from '../../../src-main/vault/conf-store';
import { keyValueStore } from '../../../src-main/vault/key-value';
import { tempDirs } from '../../support/temp-dirs';

const tempDir = tempDirs('key-value-');

/** A store file that counts what is asked of it. */
function countingFile(start: Record<string, unknown> = {}) {
  const data = new Map(Object.entries(start));
  const asked = { get: 0, set: 0, delete: 0 };
  return {
    asked,
    data,
    file: {
      get: (k: string) => (asked.get++, structuredClone(data.get(k))),
      set: (k: string, v: unknown) => (asked.set++, data.set(k, structuredClone(v))),
      has: (k: string) => data.has(k),
      delete: (k: string) => (asked.delete++, data.delete(k)),
    },
  };
}

test('a setting is read from its file once, then from memory; what a caller changes in what it got is not stored', () => {
  const { asked, file } = countingFile({ zone: '-03:00', workspaces: [{ id: 'w1' }] });
  const store = keyValueStore(file);
  for (let i = 0; i < 1000; i++) expect(store.get('zone')).toBe('-03:00');
  expect(asked.get).toBe(1);
  const list = store.get('workspaces') as Array<{ id: string }>;
  list.push({ id: 'w2' });
  expect(store.get('workspaces')).toEqual([{ id: 'w1' }]);
});

test('a value is written once when it changes, never when it is the same; a deleted key reads as absent and is not deleted twice', () => {
  const { asked, data, file } = countingFile({ zone: '-03:00' });
  const store = keyValueStore(file);
  store.set('zone', '-03:00');
  expect(asked.set).toBe(0);
  const value = { port: 4100 };
  store.set('live', value);
  value.port = 1;
  expect(store.get('live')).toEqual({ port: 4100 });
  expect(data.get('live')).toEqual({ port: 4100 });
  store.set('live', { port: 4100 });
  expect(asked.set).toBe(1);
  store.delete('zone');
  store.delete('zone');
  store.delete('never-set');
  expect(asked.delete).toBe(1);
  expect(store.get('zone')).toBeUndefined();
});

test('through the plain-Node backend: what is set is in the file, and a new store over it reads it back', async () => {
  const dir = await tempDir();
  const store = createConfStore(dir, 'settings');
  store.set('zone', 'America/Sao_Paulo');
  store.set('queueWidth', 420);
  store.delete('queueWidth');
  expect(existsSync(join(dir, 'settings.json'))).toBe(true);
  expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))).toEqual({ zone: 'America/Sao_Paulo' });
  expect(createConfStore(dir, 'settings').get('zone')).toBe('America/Sao_Paulo');
});
