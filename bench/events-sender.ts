/**
 * The service's side of bench/events-latency.ts, in a thread of its own: signed events posted to
 * a console's listener at a steady rate. The thread warms itself up first, sending to a bare
 * server of its own (a cold sender sent late at the start of a burst, and its lateness counted
 * as the console's), then says "ready" and sends each phase it is given.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort } from 'node:worker_threads';
import { Pool } from 'undici';
import { signedHeaders } from '../test/support/webhooks';

const CONNECTIONS = 8;

const now = () => performance.timeOrigin + performance.now();

export interface PhaseSpec {
  origin: string;
  path: string;
  secret: string;
  prefix: string;
  rate: number;
  count: number;
  sessionId: number;
  /** 'messages': a known event (the sync engine reads the queue on it); another group: logged only. */
  group: string;
}
export interface Phase {
  sent: Array<[string, number]>;
  elapsedMs: number;
  failures: number;
}
/**
 * Sends `count` events at `rate` per second (catching up when a timer fires late), bounded in
 * time. Runs in a worker thread: the sender is the service, not part of the console's event loop.
 */
async function sendPhase(o: PhaseSpec): Promise<Phase> {
  const pool = new Pool(o.origin, { connections: CONNECTIONS, pipelining: 1 });
  const sent: Array<[string, number]> = [];
  const inFlight = new Set<Promise<void>>();
  const started = now();
  const deadline = started + (o.count / o.rate) * 1000 + 10_000;
  let i = 0;
  let failures = 0;
  try {
    while (i < o.count && now() < deadline) {
      const due = Math.min(o.count, Math.floor(((now() - started) / 1000) * o.rate) + 1);
      for (; i < due; i++) {
        const id = `${o.prefix}_${i}`;
        const at = now();
        const body = JSON.stringify({
          id,
          group: o.group,
          type: o.group === 'messages' ? 'message.created' : 'bench.tick',
          occurredAt: new Date(at).toISOString(),
          data: { sessionId: o.sessionId, sentAt: at, message: { id: 900_000_000 + i, message: `bench ${i}`, fromUser: true } },
        });
        const ts = Math.floor(at / 1000);
        sent.push([id, at]);
        const p: Promise<void> = pool
          .request({
            method: 'POST',
            path: o.path,
            body,
            headers: { 'content-type': 'application/json', ...signedHeaders(o.secret, id, body, ts) },
          })
          .then(async (res) => {
            await res.body.dump();
            if (res.statusCode !== 200) failures++;
          })
          .catch(() => void failures++)
          .finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    await Promise.all(inFlight);
  } finally {
    await pool.close();
  }
  return { sent, elapsedMs: now() - started, failures: failures + (o.count - i) };
}

/** Sends a burst to a bare server in this thread, so the sending code is compiled and warm. */
async function warmUp(): Promise<void> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('{}'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { port } = server.address() as AddressInfo;
    const spec = { origin: `http://127.0.0.1:${port}`, path: '/', secret: 'warm-up', rate: 2_000, sessionId: 1 };
    await sendPhase({ ...spec, prefix: 'warm', count: 3_000, group: 'messages' });
  } finally {
    await new Promise((r) => server.close(r));
  }
}

if (parentPort) {
  const port = parentPort;
  void warmUp().then(() => {
    // Phases one after another, each answered with what was sent and when.
    port.on('message', (spec: PhaseSpec) => void sendPhase(spec).then((r) => port.postMessage(r)));
    port.postMessage('ready');
  });
}
