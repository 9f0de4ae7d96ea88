/**
 * The stand-in is background work for the console: on Linux a priority set from a thread applies
 * to that thread only, so the worker's thread yields the CPU to the console's own thread (and to
 * the page) when they are busy. Imported first by the worker, so its own start (loading its
 * modules, reading its data) already runs at that priority. Elsewhere a priority would lower the
 * whole process, so it is left alone.
 */
import { setPriority } from 'node:os';

const WORKER_NICE = 10;

if (process.platform === 'linux') {
  try {
    setPriority(WORKER_NICE);
  } catch {
    /* not permitted here: run at the normal priority */
  }
}
