import Conf from 'conf';
import type { KeyValueStore } from './types';

/**
 * The console's one key-value store, in Electron and in the plain-Node host alike: the same
 * file in the same place whichever of them opens a profile. (electron-store, which wraps conf
 * for Electron, was not kept: it adds nothing the console uses and answers a raw ipcMain
 * channel of its own, outside the bridge.)
 */
export function createConfStore(dir: string, name: string): KeyValueStore {
  // The vault's store holds the sealed token, settings hold who is signed in: private to this user.
  const conf = new Conf<Record<string, unknown>>({ cwd: dir, configName: name, projectName: 'agent-console', configFileMode: 0o600 });
  return {
    get: (key) => conf.get(key),
    set: (key, value) => conf.set(key, value),
    delete: (key) => conf.delete(key),
  };
}
