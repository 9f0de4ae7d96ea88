// Names both transports use. Kept free of imports: the sandboxed preload bundles this alone.
export const IPC_INVOKE = 'console:invoke';
export const IPC_EVENT = 'console:event';
export const WEB_BRIDGE_PATH = '/bridge/';
export const WEB_EVENTS_PATH = '/bridge-events';
/** The Electron window's origin: content is served from this custom protocol only. */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = 'app://console';
/** The web transport's header naming the workspace a bridge call is for. */
export const WORKSPACE_HEADER = 'x-console-workspace';
/** A workspace id as the transports accept it (the bridge schema's `WorkspaceIdSchema`, without zod). */
export const isWorkspaceId = (v: unknown): v is string => typeof v === 'string' && /^[a-z0-9-]{1,40}$/.test(v);
