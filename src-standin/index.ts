/**
 * The service stand-in: the whole service interface as a local HTTP server on 127.0.0.1, with
 * seeded demo data, a customer simulator, webhooks and fault injection (README.md here).
 */
import type { Server } from 'node:http';
import { createServer } from '../src-shared/node-http';
import type { AddressInfo } from 'node:net';
import { AiMount } from './ai-mount';
import { Faults } from './faults';
import { mediaDescription } from './media';
import { MediaFetcher } from './media-fetch';
import type { Actor } from './api-error';
import { Model } from './model';
import { scalarText } from './scalar';
import { seedStore, SUPERVISOR_USER_NAME } from './seed';
import { createReading, type ReadingName } from './reading';
import { createRequestHandler, type ServerDeps } from './server';
import { Simulator } from './simulator';
import { Store } from './store';
import { WebhookHub } from './webhooks';

export interface StandinOptions {
  port?: number;
  /**
   * Listen with SO_REUSEPORT: the port is taken over from a holder that keeps it open the same
   * way (the console's demo, which knows its address before its stand-in starts).
   */
  reusePort?: boolean;
  /** When set, everything saved survives a restart; else in memory. */
  dataDir?: string;
  /** Seeded sessions, default 200 (benchmarks pass 100_000). */
  sessions?: number;
  /** Customer simulator on/off (default off). */
  simulator?: boolean | { intervalMs?: number };
  /** Deterministic seed (default fixed). */
  seed?: number;
  /** Seeded dates are laid out backwards from this instant (default: now, to the minute). */
  anchorTime?: string | number;
  /** Webhook delivery retries (default 6 attempts, 250 ms doubling, 5 s per attempt). */
  webhookRetry?: { attempts?: number; baseDelayMs?: number; timeoutMs?: number };
  /** Which reading of the interface's untyped fields goes on the wire (README: readings); default 'default'. */
  reading?: ReadingName;
  /** The IANA zone whose wall time the local-time reading writes (default America/Sao_Paulo). */
  zone?: string;
}

/**
 * A running stand-in, in this thread (`startStandin`) or in a worker (`startStandinWorker`, what
 * the console's demo uses): the calls that change it settle once the change is in effect.
 */
export interface Standin {
  baseUrl: string;
  tokens: { agent: string; supervisor: string; admin: string };
  demoAgent: { userName: string; id: number; name: string };
  /** The supervisor the demo workspace can be seen as (the supervisor token's user). */
  demoSupervisor: { userName: string; id: number; name: string };
  faults: { set(rules: FaultRule[]): Promise<void>; clear(): Promise<void> };
  simulator: { start(): Promise<void>; stop(): Promise<void>; step(): Promise<void> };
  close(): Promise<void>;
}

export type { FaultRule } from './faults';
import type { FaultRule } from './faults';

export const DEFAULT_SEED = 20240611;

type Identity = Pick<Standin, 'tokens' | 'demoAgent'>;

/** The data folder's records and tokens when it holds some; else a fresh seed, written there. */
async function loadOrSeed(store: Store, opts: StandinOptions, seed: number): Promise<Identity> {
  if (await store.load()) {
    const meta = store.getExtra('standin') as (Identity & { seed: number }) | undefined;
    if (!meta) throw new Error(`${opts.dataDir} holds data without its standin metadata.`);
    return { tokens: meta.tokens, demoAgent: meta.demoAgent };
  }
  const anchorMs = opts.anchorTime !== undefined ? new Date(opts.anchorTime).getTime() : Math.floor(Date.now() / 60_000) * 60_000;
  if (Number.isNaN(anchorMs)) throw new Error(`anchorTime ${String(opts.anchorTime)} is not a date.`);
  const { tokens, demoAgent } = seedStore(store, { seed, sessions: opts.sessions ?? 200, anchorMs });
  store.setExtra('standin', { tokens, demoAgent, seed });
  store.markAllDirty();
  await store.flush();
  return { tokens, demoAgent };
}

function demoSupervisorOf(store: Store): Standin['demoSupervisor'] {
  const rec = [...store.c.user.values()].find((u) => u.userName === SUPERVISOR_USER_NAME);
  if (!rec) throw new Error(`The stand-in's data has no ${SUPERVISOR_USER_NAME}.`);
  return { userName: String(rec.userName), id: Number(rec.id), name: String(rec.name) };
}

/** What answers requests: the model over the store, webhooks, the AI mount, the simulator, the media fetcher, faults. */
function createServices(store: Store, opts: StandinOptions, seed: number): Omit<ServerDeps, 'reading'> {
  const hub = new WebhookHub(store, {
    attempts: opts.webhookRetry?.attempts ?? 6,
    baseDelayMs: opts.webhookRetry?.baseDelayMs ?? 250,
    timeoutMs: opts.webhookRetry?.timeoutMs ?? 5000,
  });
  const ai = new AiMount({
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    describeMedia: mediaDescription,
    cannedTexts: () =>
      [
        ...[...store.c.messageBundleGroup.values()].map((m) => scalarText(m.text) ?? ''),
        ...[...store.c.chatSuggestion.values()].map((s) => scalarText(s.suggestion) ?? ''),
      ].filter((t) => t.length > 0),
  });
  const model = new Model(store, (group, type, data) => hub.emit(group, type, data), ai.ner);
  const fetcher = new MediaFetcher((messageId) => model.markUndelivered(messageId));
  model.onAgentMessage = (m, o) => fetcher.take(m, o);
  const admin = model.userByName('admin');
  if (!admin) throw new Error('The stand-in data has no admin user.');
  const system: Actor = { user: admin, userName: 'system', role: 'admin' };
  const simOpts = typeof opts.simulator === 'object' ? opts.simulator : {};
  const simulator = new Simulator(model, system, seed, simOpts.intervalMs);
  return { model, hub, ai, simulator, fetcher, faults: new Faults(seed) };
}

/** Listens on loopback; resolves with the port. */
async function listen(server: Server, opts: StandinOptions): Promise<number> {
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: opts.port ?? 0, host: '127.0.0.1', ...(opts.reusePort ? { reusePort: true } : {}) }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

export async function startStandin(opts: StandinOptions = {}): Promise<Standin> {
  const seed = opts.seed ?? DEFAULT_SEED;
  const store = new Store(opts.dataDir);
  const { tokens, demoAgent } = await loadOrSeed(store, opts, seed);
  const demoSupervisor = demoSupervisorOf(store);
  const services = createServices(store, opts, seed);
  const { model, hub, ai, simulator, fetcher, faults } = services;
  const reading = createReading(opts.reading ?? 'default', model, opts.zone ? { zone: opts.zone } : {});
  const server: Server = createServer(createRequestHandler({ ...services, reading }));
  const port = await listen(server, opts);
  if (opts.simulator) simulator.start();

  let closing: Promise<void> | null = null;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    tokens,
    demoAgent,
    demoSupervisor,
    faults: {
      set: async (rules) => faults.set(rules),
      clear: async () => faults.clear(),
    },
    simulator: { start: async () => simulator.start(), stop: async () => simulator.stop(), step: () => simulator.step() },
    close() {
      closing ??= (async () => {
        simulator.stop();
        hub.close();
        await fetcher.close();
        await ai.close().catch(() => undefined);
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await store.close();
      })();
      return closing;
    },
  };
}
