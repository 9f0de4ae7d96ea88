// Names both transports use. Kept free of imports: the sandboxed preload bundles this alone.
export const IPC_INVOKE = 'console:invoke';
export const IPC_EVENT = 'console:event';
export const WEB_BRIDGE_PATH = '/bridge/';
export const WEB_EVENTS_PATH = '/bridge-events';
/** The Electron window's origin: content is served from this custom protocol only. */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = 'app://console';
