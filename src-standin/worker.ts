/**
 * The stand-in in a worker thread (`startStandinWorker`): its HTTP server, store and simulator
 * run here, so its slowest query never holds the console's own thread. Commands from the parent
 * are the `Standin` calls that are not HTTP.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { startStandin, type StandinOptions } from './index';
import { WorkerCommandSchema, type WorkerAnswer } from './worker-protocol';

const WORKER_NICE = 10;

const port = parentPort;
if (!port) throw new Error('src-standin/worker.ts runs as a worker thread only.');

// The stand-in is background work for the console: on Linux a priority set from a thread applies
// to that thread only, so this one yields the CPU to the console's own thread when both are busy.
// (Elsewhere it would lower the whole process, so it is left alone.)
if (process.platform === 'linux') {
  try {
    setPriority(WORKER_NICE);
  } catch {
    /* not permitted here: run at the normal priority */
  }
}
const post = (a: WorkerAnswer): void => port.postMessage(a);

try {
  const sb = await startStandin((workerData as { options: StandinOptions }).options);
  port.on('message', (raw: unknown) => {
    const parsed = WorkerCommandSchema.safeParse(raw);
    if (!parsed.success) return;
    const c = parsed.data;
    const run = async (): Promise<void> => {
      switch (c.op) {
        case 'faults.set':
          return sb.faults.set(c.rules);
        case 'faults.clear':
          return sb.faults.clear();
        case 'simulator.start':
          return sb.simulator.start();
        case 'simulator.stop':
          return sb.simulator.stop();
        case 'simulator.step':
          return sb.simulator.step();
        case 'close':
          return sb.close();
      }
    };
    void run()
      .then(
        () => post({ type: 'reply', id: c.id }),
        (e: unknown) => post({ type: 'reply', id: c.id, error: e instanceof Error ? e.message : String(e) }),
      )
      .finally(() => {
        // Once closed nothing else holds the thread: letting the port go ends it.
        if (c.op === 'close') port.close();
      });
  });
  post({ type: 'ready', baseUrl: sb.baseUrl, tokens: sb.tokens, demoAgent: sb.demoAgent, demoSupervisor: sb.demoSupervisor });
} catch (e) {
  post({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
  port.close();
}
