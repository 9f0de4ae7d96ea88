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
 * The key-value store over either backend.
 * - Both read and parse their whole file again on every `get`; the console reads settings on hot
 *   paths (each webhook event reads the service's zone and the listener's settings). The profile
 *   is this console's alone (profile-lock.ts), so what it wrote is what the file holds: values are
 *   read from the file once and then from memory. A copy is handed out, so a caller changing
 *   what it got changes nothing stored.
 * - Both rewrite and sync their whole file on every change asked for, even one that changes
 *   nothing; the console sets what it remembers (who is signed in, which workspace) each time it
 *   opens one, at every start. So a value equal to the stored one is not written again, and a key
 *   that is not there is not deleted again.
 */
export function keyValueStore(file: StoreFile): KeyValueStore {
  const read = new Map<string, unknown>();
  const stored = (key: string): unknown => {
    if (!read.has(key)) read.set(key, file.get(key));
    return read.get(key);
  };
  const copy = (v: unknown): unknown => (v !== null && typeof v === 'object' ? structuredClone(v) : v);
  return {
    get: (key) => copy(stored(key)),
    set: (key, value) => {
      if (isDeepStrictEqual(stored(key), value)) return;
      file.set(key, value);
      read.set(key, copy(value));
    },
    delete: (key) => {
      if (stored(key) === undefined && !file.has(key)) return;
      file.delete(key);
      read.set(key, undefined);
    },
  };
}
