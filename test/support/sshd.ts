import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { processes } from './processes';

/** Where Debian's OpenSSH puts its programs (`.ci/run` installs them). */
export const SSHD = '/usr/sbin/sshd';
export const SSH = '/usr/bin/ssh';
const SSH_KEYGEN = '/usr/bin/ssh-keygen';

/** Why a real ssh tunnel cannot run here, or null when it can. */
export function sshMissing(): string | null {
  for (const p of [SSHD, SSH, SSH_KEYGEN])
    if (!existsSync(p)) return `${p} is not installed (Debian: apt install openssh-server openssh-client)`;
  if (process.getuid?.() !== 0) return 'the throwaway sshd runs as root (it logs in as root with a temporary key)';
  return null;
}

/** A port nothing listens on right now (on 127.0.0.1). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Sshd {
  port: number;
  /** The client key sshd accepts. */
  key: string;
  /**
   * `ssh -N ... -R 127.0.0.1:FAR:127.0.0.1:{port}`, as a custom tunnel command line (`{port}` is
   * the console's placeholder for the listener's port). FAR 0 lets sshd choose a port.
   */
  command(farPort: number, listenerPort?: number | '{port}'): string;
  /** The ssh clients using this sshd's key (their process ids). */
  clients(): Promise<number[]>;
  /** sshd's processes serving connections (its children). */
  sessions(): Promise<number[]>;
  /** Stops listening (connections already open keep their own processes). */
  stop(): Promise<void>;
  /** Listens again on the same port with the same keys. */
  start(): Promise<void>;
}

/**
 * A throwaway OpenSSH server on a free loopback port: temporary host and client keys, its own
 * config (no PAM, forwarding on), in the foreground with its log on stderr.
 */
export async function startSshd(dir: string): Promise<Sshd> {
  const hostKey = join(dir, 'host_key');
  const key = join(dir, 'client_key');
  for (const k of [hostKey, key]) {
    const r = spawnSync(SSH_KEYGEN, ['-q', '-t', 'ed25519', '-N', '', '-f', k]);
    if (r.status !== 0) throw new Error(`ssh-keygen failed: ${r.stderr.toString()}`);
  }
  await writeFile(join(dir, 'authorized_keys'), await readFile(`${key}.pub`));
  // sshd refuses to start without its privilege separation directory (normally made by systemd).
  await mkdir('/run/sshd', { recursive: true, mode: 0o755 });
  const port = await freePort();
  const config = join(dir, 'sshd_config');
  await writeFile(
    config,
    [
      'ListenAddress 127.0.0.1',
      `Port ${port}`,
      `HostKey ${hostKey}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      'UsePAM no',
      'StrictModes no',
      'AllowTcpForwarding yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'ClientAliveInterval 5',
      '',
    ].join('\n'),
  );
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  const launch = async () => {
    const c = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = c;
    let log = '';
    c.stderr.setEncoding('utf8');
    exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    const gone = exited;
    // Ready once it says it listens; bounded by the test's timeout, and by its exit.
    await new Promise<void>((resolve, reject) => {
      c.stderr.on('data', (chunk: string) => {
        log = (log + chunk).slice(-4000);
        if (log.includes('Server listening')) resolve();
      });
      void gone.then(() => reject(new Error(`sshd exited: ${log}`)));
    });
  };
  await launch();
  const knownHosts = join(dir, 'known_hosts');
  return {
    port,
    key,
    command(farPort, listenerPort = '{port}') {
      return [
        SSH,
        '-N',
        '-o',
        'BatchMode=yes',
        '-o',
        'StrictHostKeyChecking=no',
        '-o',
        `UserKnownHostsFile=${knownHosts}`,
        '-o',
        'ExitOnForwardFailure=yes',
        '-i',
        key,
        '-p',
        String(port),
        '-R',
        `127.0.0.1:${farPort}:127.0.0.1:${listenerPort}`,
        'root@127.0.0.1',
      ].join(' ');
    },
    async clients() {
      return processes(async (pid) => {
        const [program, ...args] = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
        return program === SSH && args.includes(key);
      });
    },
    async sessions() {
      return processes(async (pid) => {
        // The parent's pid is the 4th field of stat, after the command in parentheses.
        const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
        return child !== null && Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === child.pid;
      });
    },
    async stop() {
      child?.kill('SIGTERM');
      await exited;
    },
    start: launch,
  };
}
