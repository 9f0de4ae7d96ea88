export { OfflineCache, type CachedThread, type OfflineCacheOptions } from './offline-cache';
export { ConnectivityMonitor, isNetworkError, isNetworkKind, type ConnectivityOptions } from './connectivity';
