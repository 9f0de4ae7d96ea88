// Development and tests only: loads the TypeScript worker through tsx, which a worker thread
// does not inherit from its parent. The built console starts out/main/standin-worker.js instead.
import { workerData } from 'node:worker_threads';

const { tsImport } = await import('tsx/esm/api');
await tsImport(workerData.entry, import.meta.url);
