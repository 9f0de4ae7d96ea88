import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { natsServerConfig, operationUsers, type NatsUser } from '../../src-main/relay/permissions';
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
  /** Stops it (SIGTERM) and waits until it exited. */
  stop(): Promise<void>;
  /** Runs it again on the same port, store and configuration. */
  start(): Promise<void>;
}

/** Users and permissions, one token for everyone, or a configuration as written elsewhere. */
export type NatsAuth = { users: readonly NatsUser[] } | { token: string } | { config: string };

function configText(auth: NatsAuth): string {
  if ('users' in auth) return natsServerConfig(auth.users);
  if ('token' in auth) return `authorization { token: ${JSON.stringify(auth.token)} }\n`;
  return auth.config;
}

/**
 * A nats-server with JetStream on a free loopback port, its store and configuration in `dir`:
 * the users and permissions `operationUsers` makes (the same text `npm run relay -- nats-config`
 * writes), or one token for everyone.
 */
export async function startNats(dir: string, auth: NatsAuth): Promise<NatsServer> {
  const storeDir = join(dir, 'store');
  await mkdir(storeDir, { recursive: true });
  const config = join(dir, 'nats.conf');
  await writeFile(config, configText(auth), { mode: 0o600 });
  const port = await freePort();
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  const launch = async () => {
    const c = spawn(NATS_SERVER, ['-js', '-sd', storeDir, '-p', String(port), '-a', '127.0.0.1', '-c', config], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child = c;
    exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    const gone = exited;
    let log = '';
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
    async stop() {
      if (child?.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
    start: launch,
  };
}

/** Users for operations, each a relay and its consoles, with fixed test passwords. */
export function testUsers(operations: Record<string, readonly string[]>): { users: NatsUser[]; password(user: string): string } {
  const users = Object.entries(operations).flatMap(([operation, consoles]) =>
    operationUsers(
      operation,
      consoles.map((name) => ({ name, password: `pw-${name}-${operation}` })),
      `pw-relay-${operation}`,
    ),
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
