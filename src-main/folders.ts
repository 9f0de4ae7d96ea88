import { mkdirSync, rmSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { KeyValueStore } from './vault/types';

/**
 * The folders the console removed on purpose (a workspace signed out of, an account nobody could
 * name). What a stopped part of it still finishes afterwards (a delayed write, a late answer
 * kept, a setting) must not bring such a folder back with the data of whoever left: a removed
 * folder stays removed until the console makes it again (`makeFolder`).
 */
const removed = new Set<string>();

/** Removes `dir` and all it holds, and keeps it removed. */
export function removeFolder(dir: string): void {
  removed.add(resolve(dir));
  rmSync(dir, { recursive: true, force: true });
}

/** Makes `dir` (private to this user), also one removed before: it is the console's again. */
export function makeFolder(dir: string): void {
  const full = resolve(dir);
  for (const r of removed) if (r === full || full.startsWith(r + sep)) removed.delete(r);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** The removed folder `path` lies in (or is); null when it lies in none. */
export function removedFolderOf(path: string): string | null {
  const full = resolve(path);
  for (const r of removed) if (full === r || full.startsWith(r + sep)) return r;
  return null;
}

/** A store kept in `dir`: once the folder is removed, what is set or deleted there is dropped. */
export function storeIn(dir: string, store: KeyValueStore): KeyValueStore {
  return {
    get: (key) => store.get(key),
    set: (key, value) => {
      if (!removedFolderOf(dir)) store.set(key, value);
    },
    delete: (key) => {
      if (!removedFolderOf(dir)) store.delete(key);
    },
  };
}
