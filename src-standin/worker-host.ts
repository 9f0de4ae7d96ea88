/**
 * Runs the stand-in in a worker thread behind the same `Standin` API, so the console's own
 * thread (its bridge, its webhook listener) never waits on the stand-in's work.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FaultRule, Standin, StandinOptions } from './index';
import { WorkerAnswerSchema, type WorkerAnswer, type WorkerCommand } from './worker-protocol';

/** Seeding a large data set takes a while; a command (but step, which is quick) answers at once. */
const START_TIMEOUT_MS = 120_000;
const COMMAND_TIMEOUT_MS = 30_000;

export interface WorkerStandinOptions {
  /** Told when the worker ends by itself (a crash), with why. */
  onExit?: (reason: string) => void;
}

/** The worker script: the bundle's own entry when built, else the TypeScript source through tsx. */
function workerScript(): { url: URL; entry: string | null } {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    return { url: new URL('./worker-boot.mjs', here), entry: new URL('./worker.ts', here).href };
  }
  // Built: this code sits in out/main or one of its chunk folders, next to standin-worker.js.
  for (const rel of ['./standin-worker.js', '../standin-worker.js']) {
    const url = new URL(rel, here);
    if (existsSync(fileURLToPath(url))) return { url, entry: null };
  }
  throw new Error('The stand-in worker (standin-worker.js) is missing from the build.');
}

type Started = Pick<Standin, 'baseUrl' | 'tokens' | 'demoAgent' | 'demoSupervisor'>;
type Op = WorkerCommand['op'];
type CommandAnswer = Extract<WorkerAnswer, { type: 'reply' }>;

/** The commands sent to the worker and not yet answered, each with its timer; and whether the worker ended. */
class Commands {
  readonly #pending = new Map<number, { resolve(): void; reject(e: Error): void; timer: NodeJS.Timeout }>();
  #nextId = 1;
  #ended: string | null = null;
  closing: Promise<void> | null = null;

  constructor(
    readonly worker: Worker,
    readonly onExit: ((reason: string) => void) | undefined,
  ) {}

  /** The worker ended: every command waiting fails with why; a crash (not a close) is told. */
  end(reason: string): void {
    if (this.#ended) return;
    this.#ended = reason;
    for (const p of this.#pending.values()) {
      clearTimeout(p.timer);
      p.reject(new Error(`The stand-in stopped: ${reason}`));
    }
    this.#pending.clear();
    if (!this.closing) this.onExit?.(reason);
  }

  answered(m: CommandAnswer): void {
    const p = this.#pending.get(m.id);
    if (!p) return;
    this.#pending.delete(m.id);
    clearTimeout(p.timer);
    if (m.error === undefined) p.resolve();
    else p.reject(new Error(m.error));
  }

  send(op: Op, extra: { rules?: FaultRule[] } = {}): Promise<void> {
    if (this.#ended) return Promise.reject(new Error(`The stand-in stopped: ${this.#ended}`));
    const id = this.#nextId++;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`The stand-in did not answer ${op} within ${COMMAND_TIMEOUT_MS / 1000} s.`));
      }, COMMAND_TIMEOUT_MS);
      this.#pending.set(id, { resolve, reject, timer });
      this.worker.postMessage({ id, op, ...extra });
    });
  }
}

/** Resolves when the worker says it is ready; rejects when it fails, crashes or takes too long. */
function whenReady(worker: Worker, commands: Commands): Promise<Started> {
  return new Promise<Started>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The stand-in did not start within ${START_TIMEOUT_MS / 1000} s.`)), START_TIMEOUT_MS);
    worker.on('message', (raw: unknown) => {
      const a = WorkerAnswerSchema.safeParse(raw);
      if (!a.success) return;
      const m = a.data;
      if (m.type === 'ready') {
        clearTimeout(timer);
        resolve({ baseUrl: m.baseUrl, tokens: m.tokens, demoAgent: m.demoAgent, demoSupervisor: m.demoSupervisor });
      } else if (m.type === 'failed') {
        clearTimeout(timer);
        reject(new Error(m.message));
      } else {
        commands.answered(m);
      }
    });
    worker.on('error', (e: Error) => {
      clearTimeout(timer);
      reject(e);
      commands.end(e.message);
    });
    worker.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The stand-in's worker exited with code ${code} before it was ready.`));
      commands.end(`its worker exited with code ${code}`);
    });
  });
}

export async function startStandinWorker(opts: StandinOptions = {}, o: WorkerStandinOptions = {}): Promise<Standin> {
  const script = workerScript();
  // Every option goes through as given (they are plain data).
  const worker = new Worker(script.url, { workerData: { options: opts, entry: script.entry } });
  const commands = new Commands(worker, o.onExit);
  let started: Started;
  try {
    started = await whenReady(worker, commands);
  } catch (e) {
    await worker.terminate();
    throw e;
  }
  const command = (op: Op, extra?: { rules?: FaultRule[] }): Promise<void> => commands.send(op, extra);
  return {
    ...started,
    faults: { set: (rules) => command('faults.set', { rules }), clear: () => command('faults.clear') },
    simulator: { start: () => command('simulator.start'), stop: () => command('simulator.stop'), step: () => command('simulator.step') },
    close() {
      commands.closing ??= (async () => {
        // The worker flushes its store before it answers; terminate only ends what is left.
        await command('close').catch(() => undefined);
        await worker.terminate();
      })();
      return commands.closing;
    },
  };
}
