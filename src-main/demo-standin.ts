import { join } from 'node:path';
import type { Standin, StandinOptions } from '../src-standin/index';
import { startStandinWorker } from '../src-standin/worker-host';
import type { Logger } from './log';

/** The demo workspace's stand-in: its data in the profile, the customer simulator on. */
export const demoStandinOptions = (profileDir: string): StandinOptions => ({
  port: 0,
  dataDir: join(profileDir, 'demo-workspace'),
  simulator: true,
});

/**
 * The stand-in that serves the demo workspace: started when that workspace first opens (in a
 * worker thread, so its slowest query never holds the console's own thread), stopped when it
 * is signed out of or the console closes.
 */
export class DemoStandin {
  #current: Standin | null = null;
  /** Started by the platform before the app (the profile remembers the demo workspace). */
  #early: Promise<Standin> | null;
  readonly #profileDir: string;
  readonly #log: Logger;

  constructor(profileDir: string, log: Logger, early?: Promise<Standin>) {
    this.#profileDir = profileDir;
    this.#log = log;
    this.#early = early ?? null;
  }

  /** The running stand-in, if any. */
  get current(): Standin | null {
    return this.#current;
  }

  /** The running stand-in, started first when none runs. */
  async ensure(): Promise<Standin> {
    if (!this.#current) {
      const early = this.#early;
      this.#early = null;
      this.#current = await (early ??
        startStandinWorker(demoStandinOptions(this.#profileDir), {
          onExit: (reason) => this.#log.error('demo workspace stopped', { reason }),
        }));
      this.#log.info('demo workspace started', { baseUrl: this.#current.baseUrl });
    }
    return this.#current;
  }

  /** Stops the stand-in (the demo workspace was signed out of). */
  async stop(): Promise<void> {
    await this.#current?.close();
    this.#current = null;
  }

  /** Stops it, and one started early but never used: still a thread to end. */
  async close(): Promise<void> {
    await this.stop();
    await this.#early?.then(
      (s) => s.close(),
      () => undefined,
    );
    this.#early = null;
  }
}
