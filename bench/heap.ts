/**
 * Collects the garbage before a timed sample. The bench starts every module with --expose-gc
 * (bench/run.ts), so each sample pays for the garbage it makes itself, not for what earlier
 * samples left: without it, a collection owed to earlier rounds lands in whichever sample is
 * running, and a median flips between rounds that took one and rounds that did not.
 */
export function settleHeap(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('A bench module runs with --expose-gc: start it through npm run bench.');
  gc();
}
