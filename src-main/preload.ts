// The preload exposes the typed bridge and nothing else (contextIsolation + sandbox).
import { contextBridge, ipcRenderer } from 'electron';
import { IPC_EVENT, IPC_INVOKE } from '../src-shared/ipc';

contextBridge.exposeInMainWorld('consoleBridge', {
  invoke: (channel: string, input: unknown) => ipcRenderer.invoke(IPC_INVOKE, channel, input),
  subscribe: (listener: (name: string, payload: unknown) => void) => {
    const wrapped = (_event: unknown, name: string, payload: unknown) => listener(name, payload);
    ipcRenderer.on(IPC_EVENT, wrapped);
    return () => ipcRenderer.removeListener(IPC_EVENT, wrapped);
  },
});
