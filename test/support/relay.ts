import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectOptions } from '../../src-main/relay/connection';
import { adminUser, consoleUser, relayUser } from '../../src-main/relay/permissions';
import { readRelayState } from '../../src-main/relay/state-file';
import { adminInbox, consoleInbox, operationSubjects, relayInbox, streamName } from '../../src-main/relay/subjects';
import { startRelay, type Relay } from '../../src-main/relay/relay';
import { hookRegistry } from '../../src-main/webhooks/registration';
import { startStandin, type Standin } from '../../src-standin/index';
import { startNats, type NatsServer, type testUsers } from './nats';
import { ROOT } from './root';
import { signedHeaders } from './webhooks';

/** A signed delivery as the service sends it: the same bytes and id on every attempt. */
export function delivery(secret: string, event: { id: string; group: string; type?: string; data?: unknown }) {
  const body = JSON.stringify({ type: 'message.created', occurredAt: new Date().toISOString(), data: {}, ...event });
  return {
    id: event.id,
    body,
    headers(now = Date.now()) {
      const ts = Math.floor(now / 1000);
      return { 'content-type': 'application/json', ...signedHeaders(secret, event.id, body, ts) };
    },
  };
}

/** Posts a delivery to a relay's address; answers the status and the body. */
export async function post(url: string, d: ReturnType<typeof delivery>): Promise<{ status: number; body: { status?: string } }> {
  const res = await fetch(url, { method: 'POST', headers: d.headers(), body: d.body });
  return { status: res.status, body: (await res.json()) as { status?: string } };
}

/** Connects as the operation's relay user (it may read its stream's state). */
export async function asRelay(address: string, operation: string, password: string): Promise<NatsConnection> {
  return connect(
    connectOptions(
      address,
      { kind: 'user', user: relayUser(operation), password },
      { name: 'test relay', inboxPrefix: relayInbox(operation) },
    ),
  );
}

/** Connects as the operation's operator's stream user (`npm run relay -- stream`). */
export async function asAdmin(address: string, operation: string, password: string): Promise<NatsConnection> {
  return connect(
    connectOptions(
      address,
      { kind: 'user', user: adminUser(operation), password },
      { name: 'test operator', inboxPrefix: adminInbox(operation) },
    ),
  );
}

/** How many messages the operation's stream holds; -1 while the server does not answer (it restarts). */
export async function storedCount(nc: NatsConnection, operation: string): Promise<number> {
  const jsm = await jetstreamManager(nc, { checkAPI: false, timeout: 1_000 });
  try {
    return (await jsm.streams.info(streamName(operation))).state.messages;
  } catch {
    return -1;
  }
}

/** Connects as a console of the operation. */
export function asConsole(address: string, operation: string, console: string, password: string): Promise<NatsConnection> {
  return connect(
    connectOptions(
      address,
      { kind: 'user', user: consoleUser(operation, console), password },
      { name: console, inboxPrefix: consoleInbox(operation, console) },
    ),
  );
}

/** Everything the console's durable consumer holds now (from the stream's start), acknowledged. */
export async function readAll(nc: NatsConnection, operation: string, console: string): Promise<JsMsg[]> {
  const jsm = await jetstreamManager(nc, { checkAPI: false });
  await jsm.consumers.add(streamName(operation), {
    durable_name: console,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: operationSubjects(operation),
  });
  const consumer = await jetstream(nc, { checkAPI: false }).consumers.get(streamName(operation), console);
  const got: JsMsg[] = [];
  for (;;) {
    const m = await consumer.next({ expires: 1000 });
    if (!m) return got;
    got.push(m);
    m.ack();
  }
}

/** The relay's command in this process's Node with tsx's loader: one process (tsx's own CLI would run it in a child). */
const relayCli = () => ['--import', 'tsx', join(ROOT, 'src-main', 'relay', 'cli.ts')];

/** Runs `npm run relay -- ...args` to its end (bounded: 60 s). */
export async function runRelayCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...relayCli(), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  return { code, stdout, stderr };
}

export interface RelayProcess {
  child: ChildProcess;
  port: number;
  /** http://127.0.0.1:PORT/hooks/<path secret> */
  url: string;
  signingSecret: string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * `npm run relay -- serve` as its own process (tsx, as the npm script runs it), with the relay's
 * password in a file; resolves once it printed its port.
 */
export async function spawnRelay(o: {
  dir: string;
  operation: string;
  address: string;
  password: string;
  port?: number;
}): Promise<RelayProcess> {
  const passwordFile = join(o.dir, 'nats-password');
  await writeFile(passwordFile, `${o.password}\n`, { mode: 0o600 });
  const args = [
    ...relayCli(),
    'serve',
    '--operation',
    o.operation,
    '--nats',
    o.address,
    '--nats-password-file',
    passwordFile,
    '--state-dir',
    join(o.dir, 'state'),
    '--port',
    String(o.port ?? 0),
    '--json',
  ];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<{ port: number }>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as { port: number });
    });
    void exited.then(() => reject(new Error(`the relay exited: ${err}`)));
  });
  const state = (await readRelayState(join(o.dir, 'state')))!;
  return {
    child,
    port: ready.port,
    url: `http://127.0.0.1:${ready.port}/hooks/${state.pathSecret}`,
    signingSecret: state.signingSecret,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** The parts every relay test starts: a nats-server, the stand-in, a relay of operation "vila", registered with the stand-in. */
export interface RelayStack {
  nats: NatsServer;
  sb: Standin;
  relay: Relay;
  close(): Promise<void>;
}

export async function startRelayStack(o: {
  dir: string;
  accounts: ReturnType<typeof testUsers>;
  signingSecret: string;
  pathSecret: string;
  groups: string[];
}): Promise<RelayStack> {
  const nats = await startNats(o.dir, { users: o.accounts.users });
  const sb = await startStandin({ port: 0, simulator: false, webhookRetry: { attempts: 12, baseDelayMs: 100, timeoutMs: 2_000 } });
  const relay = await startRelay({
    operation: 'vila',
    port: 0,
    pathSecret: o.pathSecret,
    signingSecret: o.signingSecret,
    nats: {
      address: nats.address,
      credentials: { kind: 'user', user: relayUser('vila'), password: o.accounts.password(relayUser('vila')) },
    },
  });
  await hookRegistry(sb.baseUrl, sb.tokens.admin).create({ url: relay.url, secret: o.signingSecret, groups: o.groups });
  return {
    nats,
    sb,
    relay,
    close: async () => {
      await relay.close();
      await sb.close();
      await nats.stop();
    },
  };
}
