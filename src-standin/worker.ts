/**
 * The stand-in in a worker thread (`startStandinWorker`): its HTTP server, store and simulator
 * run here, so its slowest query never holds the console's own thread. Commands from the parent
 * are the `Standin` calls that are not HTTP.
 */
// The priority first: the stand-in's modules load after it (imported below, not with this file).
import './worker-priority';
import { parentPort, workerData } from 'node:worker_threads';
import type { StandinOptions } from './index';
import type { WorkerAnswer } from './worker-protocol';
import { errorText } from '../src-shared/error-text';

const port = parentPort;
if (!port) throw new Error('src-standin/worker.ts runs as a worker thread only.');
const post = (a: WorkerAnswer): void => port.postMessage(a);

try {
  const [{ startStandin }, { WorkerCommandSchema }] = await Promise.all([import('./index'), import('./worker-protocol')]);
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
        (e: unknown) => post({ type: 'reply', id: c.id, error: errorText(e) }),
      )
      .finally(() => {
        // Once closed nothing else holds the thread: letting the port go ends it.
        if (c.op === 'close') port.close();
      });
  });
  post({ type: 'ready', baseUrl: sb.baseUrl, tokens: sb.tokens, demoAgent: sb.demoAgent, demoSupervisor: sb.demoSupervisor });
} catch (e) {
  post({ type: 'failed', message: errorText(e) });
  port.close();
}
