import Conf from 'conf';
import { keyValueStore } from './key-value';
import type { KeyValueStore } from './types';

/**
 * The key-value store of the plain-Node host (electron-store cannot be imported outside
 * Electron; `src-main/index.ts` opens Electron's): the same file in the same place whichever of
 * them opens a profile.
 */
export function createConfStore(dir: string, name: string): KeyValueStore {
  // The vault's store holds the sealed token, settings hold who is signed in: private to this user.
  const conf = new Conf<Record<string, unknown>>({ cwd: dir, configName: name, projectName: 'agent-console', configFileMode: 0o600 });
  return keyValueStore(conf);
}
