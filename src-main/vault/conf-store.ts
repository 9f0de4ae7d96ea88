import Conf from 'conf';
import type { KeyValueStore } from './types';

/** conf-backed store for plain Node (electron-store is built on conf but needs Electron). */
export function createConfStore(dir: string, name: string): KeyValueStore {
  // The vault's store holds the sealed token, settings hold who is signed in: private to this user.
  const conf = new Conf<Record<string, unknown>>({ cwd: dir, configName: name, projectName: 'agent-console', configFileMode: 0o600 });
  return {
    get: (key) => conf.get(key),
    set: (key, value) => conf.set(key, value),
    delete: (key) => conf.delete(key),
  };
}
