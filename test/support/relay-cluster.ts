/**
 * The README's sizing advice, run: a three-node JetStream cluster on loopback (three nats-server
 * processes, the operation's stream with three replicas), a relay, and consoles reading through
 * the product's own source (durable consumer, apply then acknowledge). A burst of signed
 * deliveries goes to the relay as the service sends them (16 in flight, each retried with the
 * same id and bytes until it is answered 2xx); a third of the way in, the node that leads the
 * stream is killed with SIGKILL. The consoles were connected to that very node, so they must
 * move to the others; once each has applied an event sent after the kill, the node is started
 * again. Shared by the node test (test/node/relay/cluster.test.ts) and the benchmark
 * (bench/relay-cluster.ts). Every wait is bounded.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { startRelaySource, type RelaySource } from '../../src-main/relay/console-source';
import { relayUser } from '../../src-main/relay/permissions';
import { startRelay, type Relay } from '../../src-main/relay/relay';
import { RELAY_LIMITS } from '../../src-main/relay/stream';
import { streamName } from '../../src-main/relay/subjects';
import { startNatsCluster, testUsers, type NatsServer } from './nats';
import { asRelay } from './relay';
import { signedHeaders } from './webhooks';

export interface ClusterBurstResult {
  events: number;
  consoles: number;
  /** The node killed: the stream's leader when the burst began. */
  killed: string;
  /** (console, event) pairs never applied. */
  lost: number;
  /** Applications past the first, over every console and event. */
  twice: number;
  /** From the SIGKILL until every console applied an event sent after it (through the other nodes). */
  recoverMs: number;
  /** Events each console applied while the killed node was down. */
  appliedWhileDown: number[];
  /** Deliveries the service gave up on (never answered 2xx in its attempts). */
  gaveUp: number;
  /** The stream's replicas once the node is back, each current. */
  replicasCurrent: number;
  elapsedMs: number;
}

const OPERATION = 'acme';
const SECRET = 'whsec_Y2x1c3Rlci1idXJzdC1zaWduaW5nLXNlY3JldA';
const IN_FLIGHT = 16;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ms: number, ok: () => boolean | Promise<boolean>): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(50);
  }
}

export async function clusterBurst(o: { dir: string; events?: number; consoles?: number }): Promise<ClusterBurstResult> {
  const events = o.events ?? 2_000;
  const names = Array.from({ length: o.consoles ?? 3 }, (_, i) => `c${i}`);
  const accounts = testUsers({ [OPERATION]: names });
  const nodes: NatsServer[] = await startNatsCluster(o.dir, accounts.users, { ...RELAY_LIMITS, maxBytes: 256 * 1024 ** 2, replicas: 3 });
  const sources: RelaySource[] = [];
  let relay: Relay | null = null;
  try {
    const probe = await asRelay(nodes[0]!.address, OPERATION, accounts.password(relayUser(OPERATION)));
    const jsm = await jetstreamManager(probe, { checkAPI: false });
    const leader = (await jsm.streams.info(streamName(OPERATION))).cluster?.leader;
    await probe.close();
    const victimIndex = nodes.findIndex((_, i) => `node${i}` === leader);
    if (victimIndex < 0) throw new Error(`no stream leader among the nodes (${leader})`);
    const victim = nodes[victimIndex]!;
    const other = nodes[(victimIndex + 1) % nodes.length]!;

    relay = await startRelay({
      operation: OPERATION,
      port: 0,
      pathSecret: 'cluster-burst-path-secret',
      signingSecret: SECRET,
      nats: {
        address: other.address,
        credentials: { kind: 'user', user: relayUser(OPERATION), password: accounts.password(relayUser(OPERATION)) },
      },
    });
    const applied = new Map<string, Map<string, number>>(names.map((n) => [n, new Map()]));
    /** When each console first applied an event sent after the kill. */
    const recovered = new Map<string, number>();
    const whileDown = new Map<string, number>(names.map((n) => [n, 0]));
    const sentAfterKill = new Set<string>();
    let killedAt = 0;
    let down = false;
    for (const name of names)
      sources.push(
        startRelaySource({
          address: victim.address,
          credentials: { kind: 'user', user: `${name}@${OPERATION}`, password: accounts.password(`${name}@${OPERATION}`) },
          operation: OPERATION,
          console: name,
          retry: { baseMs: 250, maxMs: 250 },
          reconnectTimeWaitMs: 250,
          apply: async (e) => {
            const ids = applied.get(name)!;
            ids.set(e.id, (ids.get(e.id) ?? 0) + 1);
            if (down) whileDown.set(name, whileDown.get(name)! + 1);
            if (sentAfterKill.has(e.id) && !recovered.has(name)) recovered.set(name, performance.now());
          },
        }),
      );
    await until('every console live', 20_000, () => sources.every((s) => s.state === 'live'));

    const url = new URL(relay.url);
    let stored = 0;
    let gaveUp = 0;
    const send = async (id: string) => {
      const body = JSON.stringify({ id, group: 'messages', type: 'message.created', occurredAt: new Date().toISOString(), data: {} });
      if (killedAt) sentAfterKill.add(id);
      for (let attempt = 0; attempt < 80; attempt++) {
        if (attempt) await sleep(Math.min(1_000, 50 * 2 ** attempt));
        try {
          const res = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...signedHeaders(SECRET, id, body) },
            body,
          });
          await res.arrayBuffer();
          if (res.ok) return void stored++;
        } catch {
          // refused or cut: the next attempt
        }
      }
      gaveUp++;
    };

    let restarted: Promise<void> | null = null;
    const killAndRestart = async () => {
      killedAt = performance.now();
      down = true;
      await victim.stop('SIGKILL');
      await until('every console applying again through the other nodes', 45_000, () => recovered.size === names.length);
      down = false;
      await victim.start();
    };
    const started = performance.now();
    const pending = new Set<Promise<void>>();
    for (let i = 0; i < events; i++) {
      if (!restarted && stored >= events / 3) restarted = killAndRestart();
      const p: Promise<void> = send(`evt_cluster_${i}`).finally(() => pending.delete(p));
      pending.add(p);
      if (pending.size >= IN_FLIGHT) await Promise.race(pending);
    }
    await Promise.all(pending);
    await restarted;
    const ids = Array.from({ length: events }, (_, i) => `evt_cluster_${i}`);
    const missing = () => names.reduce((n, name) => n + ids.filter((id) => !applied.get(name)!.has(id)).length, 0);
    await until('every console applied every event', 30_000, () => missing() === 0).catch(() => undefined);
    // A moment more for anything that would come twice.
    await sleep(1_000);
    const elapsedMs = performance.now() - started;

    // The node is back in the stream's replicas, caught up.
    let replicasCurrent = 0;
    const check = await asRelay(other.address, OPERATION, accounts.password(relayUser(OPERATION)));
    try {
      const m = await jetstreamManager(check, { checkAPI: false });
      await until('the killed node current again', 20_000, async () => {
        const c = (await m.streams.info(streamName(OPERATION))).cluster;
        replicasCurrent = 1 + (c?.replicas ?? []).filter((r) => r.current && !r.offline).length;
        return replicasCurrent === 3;
      }).catch(() => undefined);
    } finally {
      await check.close();
    }
    let twice = 0;
    for (const name of names) for (const n of applied.get(name)!.values()) twice += n - 1;
    return {
      events,
      consoles: names.length,
      killed: leader!,
      lost: missing(),
      twice,
      recoverMs: Math.max(...names.map((n) => (recovered.get(n) ?? Infinity) - killedAt)),
      appliedWhileDown: names.map((n) => whileDown.get(n)!),
      gaveUp,
      replicasCurrent,
      elapsedMs,
    };
  } finally {
    await Promise.all(sources.map((s) => s.close()));
    await relay?.close();
    await Promise.all(nodes.map((n) => n.stop()));
  }
}
