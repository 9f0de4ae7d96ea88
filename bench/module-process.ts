// One benchmark module in a process of its own: `npm run bench` (bench/run.ts) starts one per
// module, so a module's figures owe nothing to the heap, the compiled code or the leftover work of
// the modules measured before it, and are the same whether it runs alone or in the full run.
// Hands its rows (or why it failed) to the bench over the IPC channel, then exits.
import { join } from 'node:path';
import type { BenchRow } from './types';
import { errorText } from '../src-shared/error-text';

export type ModuleAnswer = { rows: BenchRow[] } | { error: string };

const name = process.argv[2] ?? '';
let answer: ModuleAnswer;
try {
  const mod = (await import(join(import.meta.dirname, `${name}.ts`))) as { run(): Promise<BenchRow[]> };
  answer = { rows: await mod.run() };
} catch (e) {
  answer = { error: errorText(e) };
}
await new Promise<void>((resolve) => {
  if (!process.send) return resolve();
  process.send(answer, () => resolve());
});
// As the one-process bench did at its end: what a module left running does not hold the run.
process.exit(0);
