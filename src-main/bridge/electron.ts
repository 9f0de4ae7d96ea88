import { IPC_EVENT, IPC_INVOKE } from '../../src-shared/bridge';
import { isWorkspaceId } from '../../src-shared/ipc';
import { dispatch, type EventHub, type Router, type BridgeLog } from './table';
import { isTrustedSender } from './sender';

/** The parts of Electron's ipcMain and its events we use: passed in, never imported here. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}
export interface IpcEventLike {
  senderFrame: { url: string; parent: unknown } | null;
}
export interface WebContentsLike {
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
}

/**
 * The Electron transport: the only place that calls `ipcMain.handle`. Every call is checked for
 * its sender (our origin, main frame) before the channel's schema and handler see it.
 */
export function registerIpcBridge(o: {
  ipcMain: IpcMainLike;
  route: Router;
  events: EventHub;
  appOrigin: string;
  target: () => WebContentsLike | null;
  log?: BridgeLog;
}): () => void {
  o.ipcMain.handle(IPC_INVOKE, async (event, channel, input, workspaceId) => {
    const frame = event.senderFrame;
    if (!isTrustedSender({ frameUrl: frame?.url ?? null, isMainFrame: !!frame && frame.parent === null }, o.appOrigin)) {
      o.log?.warn('bridge call from an untrusted sender refused', { frame: frame?.url ?? null });
      return { error: { kind: 'Forbidden', message: 'This frame may not use the console bridge.' } };
    }
    if (workspaceId != null && !isWorkspaceId(workspaceId)) return { error: { kind: 'Invalid', message: 'Unknown workspace.' } };
    return dispatch(o.route(workspaceId ?? null), channel, input, o.log);
  });
  const unsubscribe = o.events.subscribe((name, payload, workspaceId) => {
    const wc = o.target();
    if (wc && !wc.isDestroyed()) wc.send(IPC_EVENT, name, payload, workspaceId ?? null);
  });
  return () => {
    unsubscribe();
    o.ipcMain.removeHandler(IPC_INVOKE);
  };
}
