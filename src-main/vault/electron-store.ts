import { ipcMain } from 'electron';
import ElectronStore from 'electron-store';
import type { KeyValueStore } from './types';

/**
 * The key-value store inside Electron: electron-store, which is conf with Electron's defaults, so
 * it writes the same file in the same place as `createConfStore` (the plain-Node host) for one
 * profile. Private to this user, like the conf store.
 */
export function createElectronStore(dir: string, name: string): KeyValueStore {
  const store = new ElectronStore<Record<string, unknown>>({ name, cwd: dir, configFileMode: 0o600 });
  // electron-store answers a raw ipcMain channel for renderers that open a store themselves. The
  // page never does (it reaches the main process only through the bridge): the channel is closed.
  ipcMain.removeAllListeners('electron-store-get-data');
  return {
    get: (key) => store.get(key),
    set: (key, value) => store.set(key, value),
    delete: (key) => store.delete(key),
  };
}
