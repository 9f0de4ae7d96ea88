import { isDeepStrictEqual } from 'node:util';
import type { KeyValueStore } from './types';

/** What conf and electron-store (conf with Electron's defaults) both offer. */
interface StoreFile {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  has(key: string): boolean;
  delete(key: string): void;
}

/**
 * The key-value store over either backend. Both rewrite and sync their whole file on every change
 * asked for, even one that changes nothing; the console sets what it remembers (who is signed in,
 * which workspace) each time it opens one, at every start. So a value equal to the stored one is
 * not written again, and a key that is not there is not deleted again.
 */
export function keyValueStore(file: StoreFile): KeyValueStore {
  return {
    get: (key) => file.get(key),
    set: (key, value) => {
      if (!isDeepStrictEqual(file.get(key), value)) file.set(key, value);
    },
    delete: (key) => {
      if (file.has(key)) file.delete(key);
    },
  };
}
