export { OfflineCache, type CachedThread, type OfflineCacheOptions } from './offline-cache';
export { ConnectivityMonitor, type ConnectivityOptions } from './connectivity';
