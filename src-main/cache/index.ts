export { OfflineCache } from './offline-cache';
export { ConnectivityMonitor } from './connectivity';
