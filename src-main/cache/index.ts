export { OfflineCache, type CachedThread, type OfflineCacheOptions } from './offline-cache';
export { ConnectivityMonitor, isNetworkError, type ConnectivityOptions } from './connectivity';
