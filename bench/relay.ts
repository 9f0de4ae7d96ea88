/**
 * The team relay at the size of an operation: one relay (its own process, as `npm run relay --
 * serve` runs it), one nats-server with JetStream on file storage, and 200 simulated consoles in
 * this process, each with its own connection, credentials and durable consumer, applying each
 * event (a recorder in place of the sync) and acknowledging it after. The service is a worker
 * thread, so the consoles' work never delays its sending.
 *
 * - Event from the service's delivery to applied in each console (p50, p99): signed deliveries
 *   posted to the relay at a steady rate, as the service sends them (same id and bytes on every
 *   attempt, retried with backoff). Baseline: a bare JetStream publish-to-consume on the same
 *   server, same rate and count, to as many plain consumers (which acknowledge on receipt).
 *   Budget: p99 at most 3 times the bare p99, and every event applied once by every console.
 * - Events lost, and applied twice, across a relay killed outright (SIGKILL) and started again,
 *   and across a nats-server restart, both while the service delivers: 0.
 * - For sizing (README, "A larger operation"): how much of the delay is the relay's (delivery to
 *   stored), and one relay's ingest rate against bare JetStream publishes.
 *
 * Every loop and wait is bounded and stops by itself.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { startRelaySource, type RelaySource } from '../src-main/relay/console-source';
import { relayUser } from '../src-main/relay/permissions';
import { eventSubject, operationSubjects, streamName } from '../src-main/relay/subjects';
import { signedHeaders } from '../test/support/webhooks';
import { startNats, testUsers, type NatsServer } from '../test/support/nats';
import { asConsole, asRelay, spawnRelay, type RelayProcess } from '../test/support/relay';
import { freePort } from '../test/support/sshd';
import { percentile } from './support';
import type { BenchRow } from './types';

const CONSOLES = Number(process.env.BENCH_RELAY_CONSOLES ?? 200);
const RATE = Number(process.env.BENCH_RELAY_RATE ?? 20);
const EVENTS = Number(process.env.BENCH_RELAY_EVENTS ?? 200);
const BURST = Number(process.env.BENCH_RELAY_BURST ?? 3_000);
/** The relay's path (HTTP, signature, a second process, the console's consumer) against bare JetStream's. */
const BUDGET_P99_RATIO = 3;
/** How long stragglers may take after the last send before they count as lost. */
const DRAIN_MS = 60_000;
const CONNECTIONS = 16;
const ROLE = 'relay-bench-service';

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const names = Array.from({ length: CONSOLES }, (_, i) => `c${String(i).padStart(3, '0')}`);
const bodyOf = (id: string, sentAt: number) =>
  JSON.stringify({ id, group: 'messages', type: 'message.created', occurredAt: new Date(sentAt).toISOString(), data: { sentAt } });

interface ServiceTask {
  role: typeof ROLE;
  /** paced: `count` at `rate`/s; burst: `count` with 16 in flight. */
  mode: 'paced' | 'burst';
  /** relay: signed deliveries to `url`; bare: JetStream publishes as the bare operation's relay user. */
  to: { kind: 'relay'; url: string; secret: string } | { kind: 'bare'; address: string; password: string };
  prefix: string;
  count: number;
  rate: number;
}
interface ServiceResult {
  /** Send to stored (the relay's 200, or JetStream's acknowledgement), first attempts. */
  stored: number[];
  gaveUp: number;
  elapsedMs: number;
}

/**
 * The service's side, in its worker thread: a delivery answered 2xx is done; anything else is
 * sent again with the same id and bytes, from 100 ms doubling to 5 s, 20 attempts at most.
 */
async function serve(task: ServiceTask): Promise<ServiceResult> {
  const stored: number[] = [];
  let gaveUp = 0;
  let send: (id: string) => Promise<void>;
  let close: () => Promise<void>;
  if (task.to.kind === 'relay') {
    const { url, secret } = task.to;
    const target = new URL(url);
    const pool = new Pool(target.origin, { connections: CONNECTIONS });
    close = () => pool.close();
    send = async (id) => {
      const sentAt = now();
      const body = bodyOf(id, sentAt);
      for (let attempt = 0; attempt < 20; attempt++) {
        if (attempt) await sleep(Math.min(5_000, 100 * 2 ** (attempt - 1)));
        const ts = Math.floor(Date.now() / 1000);
        try {
          const headers = { 'content-type': 'application/json', ...signedHeaders(secret, id, body, ts) };
          const res = await pool.request({
            method: 'POST',
            path: target.pathname,
            body,
            headers,
            headersTimeout: 5_000,
            bodyTimeout: 5_000,
          });
          await res.body.dump();
          if (res.statusCode >= 200 && res.statusCode < 300) {
            if (attempt === 0) stored.push(now() - sentAt);
            return;
          }
        } catch {
          // refused or cut: the next attempt
        }
      }
      gaveUp++;
    };
  } else {
    const nc = await asRelay(task.to.address, 'bare', task.to.password);
    const js = jetstream(nc, { checkAPI: false });
    close = () => nc.close();
    send = async (id) => {
      const sentAt = now();
      await js.publish(eventSubject('bare', 'messages'), bodyOf(id, sentAt), { msgID: id });
      stored.push(now() - sentAt);
    };
  }
  const started = now();
  const pending = new Set<Promise<void>>();
  try {
    for (let i = 0; i < task.count;) {
      // Paced: what is due by now (catching up when a timer fired late); burst: 16 in flight.
      const due = task.mode === 'paced' ? Math.min(task.count, Math.floor(((now() - started) / 1000) * task.rate) + 1) : task.count;
      for (; i < due && (task.mode === 'paced' || pending.size < CONNECTIONS); i++) {
        const p: Promise<void> = send(`${task.prefix}_${i}`).finally(() => pending.delete(p));
        pending.add(p);
      }
      if (task.mode === 'paced') await sleep(5);
      else if (pending.size) await Promise.race(pending);
    }
    await Promise.all(pending);
  } finally {
    await close();
  }
  return { stored, gaveUp, elapsedMs: now() - started };
}

if (!isMainThread && (workerData as ServiceTask | undefined)?.role === ROLE) {
  void serve(workerData as ServiceTask).then((r) => parentPort!.postMessage(r));
}

async function service(task: Omit<ServiceTask, 'role'>): Promise<ServiceResult> {
  // This module again, in a worker thread: the TypeScript loader reaches workers on Node 24.
  const worker = new Worker(new URL(import.meta.url), { workerData: { role: ROLE, ...task } satisfies ServiceTask });
  try {
    return await new Promise<ServiceResult>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the service thread exited (${code})`)));
    });
  } finally {
    await worker.terminate();
  }
}

/** What the consoles applied: per console, how many times each id; and each application's latency. */
class Ledger {
  readonly byConsole = new Map<string, Map<string, number>>();
  latencies: number[] = [];
  record(console: string, id: string, sentAt: number | undefined): void {
    let ids = this.byConsole.get(console);
    if (!ids) this.byConsole.set(console, (ids = new Map<string, number>()));
    ids.set(id, (ids.get(id) ?? 0) + 1);
    if (sentAt !== undefined) this.latencies.push(now() - sentAt);
  }
  /** (console, event) pairs missing and applied more than once, for the ids given. */
  tally(ids: readonly string[]): { missing: number; twice: number } {
    let missing = 0;
    let twice = 0;
    for (const name of names) {
      const got = this.byConsole.get(name);
      for (const id of ids) {
        const n = got?.get(id) ?? 0;
        if (n === 0) missing++;
        else if (n > 1) twice += n - 1;
      }
    }
    return { missing, twice };
  }
  async settle(ids: readonly string[]): Promise<{ missing: number; twice: number }> {
    const until = now() + DRAIN_MS;
    while (now() < until && this.tally(ids).missing > 0) await sleep(100);
    // A moment more for anything that would come twice.
    await sleep(500);
    return this.tally(ids);
  }
}

/** Bare JetStream: the same count at the same rate published straight to a stream, read by plain consumers. */
async function bareBaseline(nats: NatsServer, password: (user: string) => string): Promise<{ latencies: number[]; lost: number }> {
  // The bare stream is made with the bench's, by the operator's step (startNats).
  const readers: NatsConnection[] = [];
  const latencies: number[] = [];
  let received = 0;
  try {
    for (const name of names) {
      const nc = await asConsole(nats.address, 'bare', name, password(`${name}@bare`));
      readers.push(nc);
      const jsm = await jetstreamManager(nc, { checkAPI: false });
      await jsm.consumers.add(streamName('bare'), {
        durable_name: name,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.New,
        filter_subject: operationSubjects('bare'),
      });
      const consumer = await jetstream(nc, { checkAPI: false }).consumers.get(streamName('bare'), name);
      await consumer.consume({
        max_messages: 64,
        callback: (m) => {
          latencies.push(now() - m.json<{ data: { sentAt: number } }>().data.sentAt);
          received++;
          m.ack();
        },
      });
    }
    await service({
      mode: 'paced',
      to: { kind: 'bare', address: nats.address, password: password(relayUser('bare')) },
      prefix: 'bare',
      count: EVENTS,
      rate: RATE,
    });
    const until = now() + DRAIN_MS;
    while (now() < until && received < EVENTS * CONSOLES) await sleep(100);
    return { latencies, lost: EVENTS * CONSOLES - received };
  } finally {
    await Promise.all(readers.map((r) => r.close()));
  }
}

export async function run(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-relay-'));
  const accounts = testUsers({ bench: names, bare: names });
  const nats = await startNats(dir, { users: accounts.users });
  let relay: RelayProcess | null = null;
  const sources: RelaySource[] = [];
  const ledger = new Ledger();
  try {
    const port = await freePort();
    const startRelay = () =>
      spawnRelay({ dir, operation: 'bench', address: nats.address, password: accounts.password(relayUser('bench')), port });
    relay = await startRelay();
    const toRelay = { kind: 'relay' as const, url: relay.url, secret: relay.signingSecret };
    const barePassword = accounts.password(relayUser('bare'));

    const bare = await bareBaseline(nats, (user) => accounts.password(user));
    if (bare.lost) throw new Error(`the bare baseline lost ${bare.lost} of ${EVENTS * CONSOLES} deliveries`);
    // Before the consoles connect (they start from what comes after them).
    const burstRelay = await service({ mode: 'burst', to: toRelay, prefix: 'burst', count: BURST, rate: 0 });
    const burstBare = await service({
      mode: 'burst',
      to: { kind: 'bare', address: nats.address, password: barePassword },
      prefix: 'bare_burst',
      count: BURST,
      rate: 0,
    });
    if (burstRelay.gaveUp) throw new Error(`${burstRelay.gaveUp} deliveries of the burst were never taken`);

    for (const name of names) {
      sources.push(
        startRelaySource({
          address: nats.address,
          credentials: { kind: 'user', user: `${name}@bench`, password: accounts.password(`${name}@bench`) },
          operation: 'bench',
          console: name,
          retry: { baseMs: 500, maxMs: 500 },
          reconnectTimeWaitMs: 500,
          apply: async (e) => ledger.record(name, e.id, (e.event?.data as { sentAt?: number } | undefined)?.sentAt),
        }),
      );
    }
    const until = now() + 60_000;
    while (now() < until && sources.some((s) => s.state !== 'live')) await sleep(100);
    if (sources.some((s) => s.state !== 'live'))
      throw new Error(`${sources.filter((s) => s.state !== 'live').length} consoles did not connect`);

    /** A phase of EVENTS at RATE; `restart` runs a third of the way in, while the service keeps delivering. */
    const phase = async (prefix: string, restart?: () => Promise<void>) => {
      const ids = Array.from({ length: EVENTS }, (_, i) => `${prefix}_${i}`);
      let restarted: Promise<void> = Promise.resolve();
      const timer = restart
        ? setTimeout(
            () => {
              restarted = restart();
            },
            (EVENTS / RATE / 3) * 1000,
          )
        : undefined;
      const sent = await service({ mode: 'paced', to: toRelay, prefix, count: EVENTS, rate: RATE });
      clearTimeout(timer);
      await restarted;
      return { ...(await ledger.settle(ids)), sent };
    };

    const steady = await phase('steady');
    const latencies = ledger.latencies;
    ledger.latencies = [];
    const relayRestart = await phase('relay', async () => {
      await relay!.stop('SIGKILL');
      relay = await startRelay();
    });
    const natsRestart = await phase('nats', async () => {
      await nats.stop();
      await nats.start();
    });

    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const b50 = percentile(bare.latencies, 50);
    const b99 = percentile(bare.latencies, 99);
    const complete = steady.missing === 0 && steady.twice === 0 && steady.sent.gaveUp === 0;
    const zero = (figure: string, value: number): BenchRow => ({ figure, value, unit: 'events', budget: '0', holds: value === 0 });
    const relayRate = BURST / (burstRelay.elapsedMs / 1000);
    const bareRate = BURST / (burstBare.elapsedMs / 1000);
    return [
      { figure: `delivery to applied, ${CONSOLES} consoles, p50 at ${RATE}/s`, value: p50, unit: 'ms', baseline: b50, ratio: p50 / b50 },
      {
        figure: `delivery to applied, ${CONSOLES} consoles, p99 at ${RATE}/s`,
        value: p99,
        unit: 'ms',
        baseline: b99,
        ratio: p99 / b99,
        budget: `<= ${BUDGET_P99_RATIO} x bare, every event applied once`,
        holds: p99 / b99 <= BUDGET_P99_RATIO && complete,
      },
      { figure: `of which delivery to stored (the relay's 200), p99`, value: percentile(steady.sent.stored, 99), unit: 'ms' },
      zero('lost across a relay killed and restarted (console x event)', relayRestart.missing),
      zero('applied twice across a relay killed and restarted', relayRestart.twice),
      zero('lost across a nats-server restart (console x event)', natsRestart.missing),
      zero('applied twice across a nats-server restart', natsRestart.twice),
      {
        figure: `one relay's ingest, ${CONNECTIONS} in flight`,
        value: relayRate,
        unit: 'deliveries/s',
        baseline: bareRate,
        ratio: relayRate / bareRate,
      },
    ];
  } finally {
    await Promise.all(sources.map((s) => s.close()));
    await relay?.stop();
    await nats.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

// Run directly: npx tsx bench/relay.ts
if (isMainThread && import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await run()) console.log(JSON.stringify(row));
}
