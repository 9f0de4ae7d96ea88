// The offline banner the attendance view shows; its store (lib/offline.svelte.ts) is shared by
// every feature that works offline.
export { default as OfflineBanner } from './OfflineBanner.svelte';
