import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import type { DemoPersona } from '../src-shared/bridge';
import type { Standin, StandinOptions } from '../src-standin/index';
import { startStandinWorker } from '../src-standin/worker-host';
import type { DemoLauncher } from './features/workspace';
import type { Logger } from './log';
import { errorText } from '../src-shared/error-text';

/** The demo workspace's stand-in: its data in the profile, the customer simulator on. */
export const demoStandinOptions = (profileDir: string): StandinOptions => ({
  port: 0,
  dataDir: join(profileDir, 'demo-workspace'),
  simulator: true,
});

/** Whom the demo workspace signs in as, seen as `as`: that person's token and name at the stand-in. */
export function demoPersona(sb: Standin, as: DemoPersona): { token: string; user: { userName: string; name: string } } {
  const who = as === 'supervisor' ? sb.demoSupervisor : sb.demoAgent;
  return { token: as === 'supervisor' ? sb.tokens.supervisor : sb.tokens.agent, user: { userName: who.userName, name: who.name } };
}

/**
 * A loopback port kept for the stand-in until it listens. Where the system shares a port
 * (SO_REUSEPORT), the holder keeps it open and the stand-in takes it over; elsewhere the port is
 * let go at once and asked for again, and another program may have taken it meanwhile.
 */
interface HeldPort {
  port: number;
  holder: Server | null;
}

async function listenOn(server: Server, reusePort: boolean): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1', ...(reusePort ? { reusePort } : {}) }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

const closed = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

async function holdPort(sharePort: boolean): Promise<HeldPort> {
  if (sharePort) {
    const holder = createServer();
    holder.unref();
    try {
      await listenOn(holder, true);
      return { port: (holder.address() as AddressInfo).port, holder };
    } catch {
      // No SO_REUSEPORT here.
    }
  }
  const probe = createServer();
  await listenOn(probe, false);
  const { port } = probe.address() as AddressInfo;
  await closed(probe);
  return { port, holder: null };
}

/**
 * The stand-in that serves the demo workspace, in a worker thread (so its slowest query never
 * holds the console's own thread). Its address is known before it runs (`address`), so the demo
 * workspace opens at once and the stand-in starts when something first needs it (`ensure`);
 * stopped when the demo is signed out of or the console closes.
 */
export class DemoStandin {
  #current: Standin | null = null;
  #starting: Promise<Standin> | null = null;
  #held: Promise<HeldPort> | null = null;
  readonly #profileDir: string;
  readonly #log: Logger;
  readonly #sharePort: boolean;

  /** `sharePort: false` keeps the port as a system without SO_REUSEPORT does (let go, asked for again). */
  constructor(profileDir: string, log: Logger, o: { sharePort?: boolean } = {}) {
    this.#profileDir = profileDir;
    this.#log = log;
    this.#sharePort = o.sharePort ?? true;
  }

  /** The running stand-in, if any. */
  get current(): Standin | null {
    return this.#current;
  }

  /** Where the stand-in answers: the running one's address, else the port kept for it. */
  async address(): Promise<string> {
    if (this.#current) return this.#current.baseUrl;
    if (this.#starting) return (await this.#starting).baseUrl;
    this.#held ??= holdPort(this.#sharePort);
    return `http://127.0.0.1:${(await this.#held).port}`;
  }

  /** The running stand-in, started first when none runs (on the port kept for it, if any). */
  ensure(): Promise<Standin> {
    if (this.#current) return Promise.resolve(this.#current);
    this.#starting ??= this.#start().finally(() => (this.#starting = null));
    return this.#starting;
  }

  async #start(): Promise<Standin> {
    const held = this.#held ? await this.#held.catch(() => null) : null;
    this.#held = null;
    const start = (port: number, reusePort: boolean) =>
      startStandinWorker(
        { ...demoStandinOptions(this.#profileDir), port, ...(reusePort ? { reusePort } : {}) },
        { onExit: (reason) => this.#log.error('demo workspace stopped', { reason }) },
      );
    let sb: Standin;
    try {
      sb = await start(held?.port ?? 0, held?.holder != null);
    } catch (e) {
      if (!held) throw e;
      // The kept port was taken by another program: the stand-in answers on another one.
      this.#log.warn('demo workspace moved to another port', { port: held.port, error: errorText(e) });
      sb = await start(0, false);
    } finally {
      if (held?.holder) await closed(held.holder);
    }
    this.#current = sb;
    this.#log.info('demo workspace started', { baseUrl: sb.baseUrl });
    return sb;
  }

  /** Stops the stand-in (the demo workspace was signed out of, or the console closes), and lets its kept port go. */
  async stop(): Promise<void> {
    const held = this.#held;
    this.#held = null;
    const starting = this.#starting;
    await starting?.catch(() => undefined);
    await this.#current?.close();
    this.#current = null;
    const h = await held?.catch(() => null);
    if (h?.holder) await closed(h.holder);
  }
}

/** What the workspace feature is given of the demo's stand-in (the root wires it; the feature never imports this file). */
export function demoLauncher(demo: DemoStandin): DemoLauncher {
  return {
    running: () => demo.current !== null,
    address: () => demo.address(),
    ensure: async () => {
      const sb = await demo.ensure();
      return { baseUrl: sb.baseUrl, persona: (as) => demoPersona(sb, as) };
    },
    stop: () => demo.stop(),
  };
}
