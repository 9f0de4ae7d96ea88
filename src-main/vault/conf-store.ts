import Conf from 'conf';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyValueStore } from './key-value';
import type { KeyValueStore } from './types';
import { setAsideFile, whyUnreadable } from '../set-aside';

/**
 * The key-value store of the plain-Node host (electron-store cannot be imported outside
 * Electron; `src-main/index.ts` opens Electron's): the same file in the same place whichever of
 * them opens a profile.
 */
export function createConfStore(dir: string, name: string): KeyValueStore {
  // The vault's store holds the sealed token, settings hold who is signed in: private to this user.
  return keyValueStore(
    openReadable(
      join(dir, `${name}.json`),
      () => new Conf<Record<string, unknown>>({ cwd: dir, configName: name, projectName: 'agent-console', configFileMode: 0o600 }),
    ),
  );
}

/**
 * Opens a store file, setting it aside when it cannot be read (cut short, not JSON, not an
 * object, a directory in its place) and starting again without it: never fatal. Electron's store
 * opens through this too.
 */
export function openReadable<S>(file: string, open: () => S): S {
  const problem = problemOf(file);
  if (problem) setAsideFile(file, problem);
  try {
    return open();
  } catch (e) {
    // Read between the check and the open (another writer): set aside as well.
    setAsideFile(file, whyUnreadable(e));
    return open();
  }
}

/** Why a store file cannot be read as one; null when it can, or when there is none yet. */
function problemOf(file: string): string | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : whyUnreadable(e);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text.trim() === '' ? 'empty' : 'not readable as JSON';
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? null : 'not a settings object';
}
