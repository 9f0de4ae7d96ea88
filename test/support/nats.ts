import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { connectOptions, type NatsCredentials } from '../../src-main/relay/connection';
import { adminUser, natsAccountConfig, natsServerConfig, operationUsers, type NatsUser } from '../../src-main/relay/permissions';
import { RELAY_LIMITS, ensureStream, type StreamLimits } from '../../src-main/relay/stream';
import { adminInbox } from '../../src-main/relay/subjects';
import { freePort } from './sshd';

/** Debian's NATS server (`scripts/setup.mjs` installs it with the tests' other packages). */
export const NATS_SERVER = '/usr/sbin/nats-server';

/** Why a real nats-server cannot run here, or null when it can. */
export function natsMissing(): string | null {
  return existsSync(NATS_SERVER) ? null : `${NATS_SERVER} is not installed (Debian: apt install nats-server)`;
}

export interface NatsServer {
  /** nats://127.0.0.1:PORT */
  readonly address: string;
  readonly port: number;
  /** Its JetStream store: kept across stop and start. */
  readonly storeDir: string;
  readonly pid: number | undefined;
  /** The end of its log (stderr). */
  log(): string;
  /** Stops it (SIGTERM, or the signal given) and waits until it exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Runs it again on the same port, store and configuration. */
  start(): Promise<void>;
}

/** A user of an operation's account. */
export type OperationUser = NatsUser & { operation: string };

/**
 * An account per operation with its users (and each operation's stream made by its operator's
 * user, with `streams` limits, unless false), one token for everyone, or a configuration as
 * written elsewhere.
 */
export type NatsAuth = { users: readonly OperationUser[]; streams?: StreamLimits | false } | { token: string } | { config: string };

/**
 * bcrypt's cost in the tests' configurations: the product's own (11) costs nats-server about
 * 0.2 s of CPU per connection, and the tests and benchmarks open hundreds; the hash is the same
 * kind, which is what they check.
 */
const TEST_BCRYPT_COST = 4;

function byOperation(users: readonly OperationUser[]): Map<string, OperationUser[]> {
  const map = new Map<string, OperationUser[]>();
  for (const u of users) map.set(u.operation, [...(map.get(u.operation) ?? []), u]);
  return map;
}

/** Writes the configuration in `dir` (an account file per operation, included by the server's file); answers the server's file. */
export async function writeNatsConfig(dir: string, auth: NatsAuth): Promise<string> {
  const config = join(dir, 'nats.conf');
  let text: string;
  if ('users' in auth) {
    const files: string[] = [];
    for (const [operation, users] of byOperation(auth.users)) {
      const file = `nats-${operation}.conf`;
      const limits = auth.streams || RELAY_LIMITS;
      await writeFile(join(dir, file), natsAccountConfig(operation, users, limits, TEST_BCRYPT_COST), { mode: 0o600 });
      files.push(file);
    }
    text = natsServerConfig(files);
  } else if ('token' in auth) text = `authorization { token: ${JSON.stringify(auth.token)} }\n`;
  else text = auth.config;
  await writeFile(config, text, { mode: 0o600 });
  return config;
}

/** The operator's step (`npm run relay -- stream`) for one operation, with the credentials given. */
export async function makeStream(
  address: string,
  credentials: NatsCredentials,
  operation: string,
  limits: StreamLimits = RELAY_LIMITS,
): Promise<void> {
  const nc = await connect(connectOptions(address, credentials, { name: 'test operator', inboxPrefix: adminInbox(operation) }));
  try {
    await ensureStream(await jetstreamManager(nc, { checkAPI: false }), operation, limits);
  } finally {
    await nc.close();
  }
}

/** The operator's step for each operation, as its admin user. */
export async function makeStreams(address: string, users: readonly OperationUser[], limits: StreamLimits = RELAY_LIMITS): Promise<void> {
  for (const [operation, list] of byOperation(users)) {
    const admin = list.find((u) => u.user === adminUser(operation));
    if (admin) await makeStream(address, { kind: 'user', user: admin.user, password: admin.password }, operation, limits);
  }
}

/** One nats-server process on `port`, started again with the same arguments by `start`. */
async function natsProcess(args: readonly string[], port: number, storeDir: string): Promise<NatsServer> {
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  let log = '';
  const launch = async () => {
    const c = spawn(NATS_SERVER, [...args, '-p', String(port), '-a', '127.0.0.1'], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = c;
    exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    const gone = exited;
    log = '';
    c.stderr.setEncoding('utf8');
    // Ready once it says so; bounded by the test's timeout, and by its exit.
    await new Promise<void>((resolve, reject) => {
      c.stderr.on('data', (chunk: string) => {
        log = (log + chunk).slice(-8000);
        if (log.includes('Server is ready')) resolve();
      });
      void gone.then(() => reject(new Error(`nats-server exited: ${log}`)));
    });
  };
  await launch();
  return {
    address: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    get pid() {
      return child?.pid;
    },
    log: () => log,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child?.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
    start: launch,
  };
}

/**
 * A nats-server with JetStream on a free loopback port, its store and configuration in `dir`:
 * an account per operation with the users and permissions `operationUsers` makes (the same text
 * `npm run relay -- nats-config` writes), or one token for everyone.
 */
export async function startNats(dir: string, auth: NatsAuth): Promise<NatsServer> {
  const storeDir = join(dir, 'store');
  await mkdir(storeDir, { recursive: true });
  const config = await writeNatsConfig(dir, auth);
  const server = await natsProcess(['-js', '-sd', storeDir, '-c', config], await freePort(), storeDir);
  if ('users' in auth && auth.streams !== false) await makeStreams(server.address, auth.users, auth.streams);
  return server;
}

/**
 * A three-node JetStream cluster on loopback (three nats-server processes, each its own store,
 * routes to the others), with an account per operation and each operation's stream made by the
 * operator's step with `limits` (replicas: 3).
 */
export async function startNatsCluster(
  dir: string,
  users: readonly OperationUser[],
  limits: StreamLimits,
  nodes = 3,
): Promise<NatsServer[]> {
  const auth = { users, streams: limits };
  const accounts = await writeNatsConfig(dir, auth);
  const ports = await Promise.all(Array.from({ length: nodes }, () => freePort()));
  const routes = await Promise.all(Array.from({ length: nodes }, () => freePort()));
  const servers = await Promise.all(
    ports.map(async (port, i) => {
      const storeDir = join(dir, `store-${i}`);
      await mkdir(storeDir, { recursive: true });
      const config = join(dir, `node-${i}.conf`);
      const others = routes.filter((_, j) => j !== i).map((r) => `nats-route://127.0.0.1:${r}`);
      const text = [
        `include ${JSON.stringify(basename(accounts))}`,
        `server_name: node${i}`,
        `cluster { name: relay, listen: "127.0.0.1:${routes[i]}", routes: ${JSON.stringify(others)} }`,
        '',
      ].join('\n');
      await writeFile(config, text, { mode: 0o600 });
      return natsProcess(['-js', '-sd', storeDir, '-c', config], port, storeDir);
    }),
  );
  // The cluster elects its JetStream leader after the processes are up: the operator's step waits for it (bounded).
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      await makeStreams(servers[0]!.address, users, limits);
      return servers;
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** Users for operations, each a relay, its operator's stream user and its consoles, with fixed test passwords. */
export function testUsers(operations: Record<string, readonly string[]>): { users: OperationUser[]; password(user: string): string } {
  const users = Object.entries(operations).flatMap(([operation, consoles]) =>
    operationUsers(
      operation,
      consoles.map((name) => ({ name, password: `pw-${name}-${operation}` })),
      { relay: `pw-relay-${operation}`, admin: `pw-admin-${operation}` },
    ).map((u) => ({ ...u, operation })),
  );
  return {
    users,
    password(user) {
      const u = users.find((x) => x.user === user);
      if (!u) throw new Error(`no NATS user ${user}`);
      return u.password;
    },
  };
}
