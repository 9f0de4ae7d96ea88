import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collector: (() => void) | null = null;

/** The collector, found the first time one is needed (a new context costs a few ms of a start). */
function findCollector(): () => void {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    if (typeof gc === 'function') return () => void (gc as () => void)();
  } catch {
    // A runtime that refuses the flag collects on its own schedule.
  }
  return () => undefined;
}

/**
 * Runs the garbage collector now, where the process can (a no-op where it cannot).
 *
 * Why: an answer the console stops reading because it is over its limit leaves up to that limit
 * in dead buffers (the socket's reads), which V8 frees only when it next collects, and V8 paces its
 * collections by the JavaScript heap, not by these outside bytes. A service that keeps sending
 * oversized answers would hold several limits' worth of them at once; collecting as each such
 * answer is dropped keeps the process's memory within one limit of idle, whatever is sent.
 *
 * `--expose-gc` set at run time reaches contexts made after it, hence the new context; the flag
 * changes nothing else (it only adds the `gc` function).
 */
export function collectNow(): void {
  collector ??= findCollector();
  collector();
}
