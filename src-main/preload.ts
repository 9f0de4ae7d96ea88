// The preload exposes the typed bridge and nothing else (contextIsolation + sandbox).
import { contextBridge, ipcRenderer } from 'electron';
import { IPC_EVENT, IPC_INVOKE } from '../src-shared/ipc';

contextBridge.exposeInMainWorld('consoleBridge', {
  invoke: (channel: string, input: unknown, workspaceId: string | null) => ipcRenderer.invoke(IPC_INVOKE, channel, input, workspaceId),
  subscribe: (listener: (name: string, payload: unknown, workspaceId: string | null) => void) => {
    const wrapped = (_event: unknown, name: string, payload: unknown, workspaceId: string | null) =>
      listener(name, payload, workspaceId ?? null);
    ipcRenderer.on(IPC_EVENT, wrapped);
    return () => ipcRenderer.removeListener(IPC_EVENT, wrapped);
  },
});
