/**
 * Runs the tunnel program that exposes the loopback listener to the service: detects
 * cloudflared, ngrok or ssh, builds the command (with the host-header option where the program
 * has one), spawns it without a shell, learns the public URL (from its output, or from the
 * user's URL template for a custom command) and reports its state. Plain Node, no Electron.
 * Restarts and self-checks are tunnel-supervisor.ts's job.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import type { WebhookLogger } from './types';
import { fillPlaceholders } from '../../src-shared/template';

export type TunnelProvider = 'cloudflared' | 'ngrok' | 'ssh';

export type TunnelState =
  | { status: 'stopped' }
  | { status: 'starting' }
  /** The public URL is known (the program may still need a moment before it forwards). */
  | { status: 'running'; url: string }
  /** `retry` is false when starting again cannot help (the program is missing). */
  | { status: 'failed'; reason: string; retry: boolean };

export interface TunnelCommand {
  provider: TunnelProvider | 'custom';
  command: string;
  args: string[];
}

export interface TunnelOptions {
  command: TunnelCommand;
  /** Default 30 s: quick tunnels can take a while to register. */
  startTimeoutMs?: number;
  /** For custom commands: how to find the URL (default: the first https:// URL printed). */
  urlPattern?: RegExp;
  /**
   * For custom commands: the public URL, instead of reading one from the output. `{remotePort}`
   * is filled from OpenSSH's "Allocated port N for remote forward" line (`-R 0:...`); without it
   * the URL is known as soon as the program runs.
   */
  urlTemplate?: string;
  env?: NodeJS.ProcessEnv;
  log?: WebhookLogger;
}

export interface TunnelRunner {
  readonly state: TunnelState;
  /** The program's process id while it runs. */
  readonly pid: number | undefined;
  /** Called on every change; returns the unsubscribe function. */
  onState(listener: (s: TunnelState) => void): () => void;
  /** Ends the program (SIGTERM, then SIGKILL after a grace period) and resolves once it exited. */
  stop(): Promise<void>;
}

const PROVIDERS: readonly TunnelProvider[] = ['cloudflared', 'ngrok', 'ssh'];

export type InstallPlatform = 'linux' | 'darwin' | 'win32';

/** The program each built-in provider runs, and how to install it, per OS. */
export const TUNNEL_PROGRAMS: Record<TunnelProvider, { program: string; install: Record<InstallPlatform, string> }> = {
  cloudflared: {
    program: 'cloudflared',
    install: {
      linux: "Add Cloudflare's package repository (pkg.cloudflare.com), then: sudo apt install cloudflared",
      darwin: 'brew install cloudflared',
      win32: 'winget install --id Cloudflare.cloudflared',
    },
  },
  ngrok: {
    program: 'ngrok',
    install: {
      linux: 'sudo snap install ngrok, then: ngrok config add-authtoken <token>',
      darwin: 'brew install ngrok, then: ngrok config add-authtoken <token>',
      win32: 'choco install ngrok, then: ngrok config add-authtoken <token>',
    },
  },
  ssh: {
    program: 'ssh',
    install: {
      linux: 'sudo apt install openssh-client',
      darwin: 'Included with macOS.',
      win32: 'Settings > System > Optional features > OpenSSH Client.',
    },
  },
};

/** The one-line install hint for this OS (Linux's for other Unixes). */
export function installHint(provider: TunnelProvider, platform: NodeJS.Platform = process.platform): string {
  const os: InstallPlatform = platform === 'darwin' || platform === 'win32' ? platform : 'linux';
  return TUNNEL_PROGRAMS[provider].install[os];
}
const KILL_GRACE_MS = 3000;
const KEPT_LINES = 20;
const MAX_LINE = 8 * 1024;

/**
 * Finds an executable on PATH the way a shell would, without running one: the first directory in
 * PATH's order that holds it. Every place is asked at once (a status shown at launch waits for
 * the answer, and one look after another costs a turn of the thread pool each).
 */
export async function findOnPath(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<string | undefined> {
  const dirs = (env.PATH ?? env.Path ?? '').split(delimiter).filter((d) => d !== '' && isAbsolute(d));
  const exts = platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').filter(Boolean) : [''];
  const candidates = dirs.flatMap((dir) => exts.map((ext) => join(dir, name + ext)));
  const mode = platform === 'win32' ? constants.F_OK : constants.X_OK;
  const found = await Promise.all(
    candidates.map((candidate) =>
      access(candidate, mode).then(
        () => true,
        () => false,
      ),
    ),
  );
  return candidates[found.indexOf(true)];
}

/** The tunnel programs found on PATH, cloudflared first, ssh last. */
export async function detectTunnels(env: NodeJS.ProcessEnv = process.env): Promise<Array<{ provider: TunnelProvider; path: string }>> {
  const paths = await Promise.all(PROVIDERS.map((provider) => findOnPath(TUNNEL_PROGRAMS[provider].program, env)));
  return PROVIDERS.flatMap((provider, i) => (paths[i] ? [{ provider, path: paths[i] }] : []));
}

/**
 * The command for a provider. Each forwards to 127.0.0.1 (never "localhost", which may resolve
 * to ::1 where nothing listens). cloudflared and ngrok rewrite the Host header to it; ssh cannot,
 * so the listener is told the tunnel's host instead. ssh uses localhost.run, which needs no
 * account and prints an https URL; it keeps a session open (stdin stays a pipe) to print it.
 */
export function buildTunnelCommand(provider: TunnelProvider, port: number, executable: string = provider): TunnelCommand {
  const target = `127.0.0.1:${port}`;
  if (provider === 'cloudflared') {
    return {
      provider,
      command: executable,
      args: ['tunnel', '--no-autoupdate', '--url', `http://${target}`, '--http-host-header', target],
    };
  }
  if (provider === 'ssh') {
    return {
      provider,
      command: executable,
      args: [
        '-T',
        '-o',
        'BatchMode=yes',
        '-o',
        'ExitOnForwardFailure=yes',
        '-o',
        'ServerAliveInterval=15',
        '-o',
        'ServerAliveCountMax=2',
        '-o',
        'StrictHostKeyChecking=accept-new',
        '-R',
        `80:${target}`,
        'nokey@localhost.run',
      ],
    };
  }
  return {
    provider,
    command: executable,
    args: ['http', target, '--host-header=rewrite', '--log=stdout', '--log-format=logfmt'],
  };
}

/**
 * A user's command line split into program and arguments without a shell: whitespace
 * separates, single and double quotes group, backslash escapes outside single quotes.
 * `{port}` is replaced by the listener's port (or left as given, for showing the command).
 */
export function parseCommandLine(line: string, port: number | string): TunnelCommand {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new Error('The tunnel command has an unclosed quote.');
  if (inWord) words.push(word);
  const [command, ...args] = words.map((w) => fillPlaceholders(w, { port: String(port) }));
  if (!command) throw new Error('The tunnel command is empty.');
  return { provider: 'custom', command, args };
}

const URL_PATTERNS: Record<TunnelProvider | 'custom', RegExp> = {
  // cloudflared also prints links to its terms and docs: only the quick-tunnel host counts.
  cloudflared: /https:\/\/[a-z0-9-]+\.trycloudflare\.com\b/i,
  ngrok: /\burl=(https:\/\/[^\s"]+)|"url":"(https:\/\/[^"]+)"/,
  ssh: /https:\/\/[a-z0-9-]+\.lhr\.life\b/i,
  custom: /https:\/\/[^\s"'<>|]+/,
};

/** The public URL in one line of a tunnel program's output, if there is one. */
export function findPublicUrl(line: string, provider: TunnelProvider | 'custom', pattern?: RegExp): string | undefined {
  const m = (pattern ?? URL_PATTERNS[provider]).exec(line);
  if (!m) return undefined;
  const url = m.slice(1).find((g) => g !== undefined) ?? m[0];
  return url.replace(/\/+$/, '');
}

const ALLOCATED_RE = /\bAllocated port (\d{1,5}) for remote forward\b/;

/**
 * A custom command's URL template filled in: `{remotePort}` is the port named in `line`
 * (OpenSSH's allocation message); undefined while that is unknown. `{port}` is the caller's.
 */
export function fillUrlTemplate(template: string, line?: string): string | undefined {
  let url = template;
  if (url.includes('{remotePort}')) {
    const m = line === undefined ? null : ALLOCATED_RE.exec(line);
    if (!m) return undefined;
    url = fillPlaceholders(url, { remotePort: m[1]! });
  }
  return url.replace(/\/+$/, '');
}

/** Calls `onLine` for each complete line of a stream; very long lines are cut. */
function eachLine(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  if (!stream) return;
  let partial = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const parts = (partial + chunk).split(/\r?\n/);
    partial = parts.pop() ?? '';
    if (partial.length > MAX_LINE) {
      parts.push(partial.slice(0, MAX_LINE));
      partial = '';
    }
    for (const p of parts) onLine(p);
  });
  stream.on('end', () => {
    if (partial) onLine(partial);
    partial = '';
  });
}

/** Starts the tunnel program; its progress is reported through `state` and `onState`. */
export function startTunnel(o: TunnelOptions): TunnelRunner {
  const { command } = o;
  let child: ChildProcess;
  try {
    child = spawn(command.command, command.args, {
      shell: false,
      windowsHide: true,
      // ssh ends its session at the end of its input: keep stdin open (and empty) instead.
      stdio: [command.provider === 'ssh' ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      env: o.env ?? process.env,
    });
  } catch (e) {
    // spawn throws synchronously for malformed arguments; it reports a missing program as 'error'.
    const state: TunnelState = { status: 'failed', reason: `The tunnel command could not start (${String(e)}).`, retry: false };
    return { state, pid: undefined, onState: () => () => undefined, stop: async () => undefined };
  }
  return new TunnelRun(o, child);
}

/** One run of a tunnel program: its process, its last lines of output and its state. */
class TunnelRun implements TunnelRunner {
  readonly #o: TunnelOptions;
  readonly #child: ChildProcess;
  readonly #listeners = new Set<(s: TunnelState) => void>();
  readonly #lastLines: string[] = [];
  #state: TunnelState = { status: 'starting' };
  #stopping = false;
  #exited = false;
  readonly #exitedPromise: Promise<void>;
  readonly #startTimer: NodeJS.Timeout;
  #killTimer: NodeJS.Timeout | undefined;

  constructor(o: TunnelOptions, child: ChildProcess) {
    this.#o = o;
    this.#child = child;
    this.#exitedPromise = new Promise<void>((resolve) => {
      child.once('close', () => resolve());
      child.once('error', () => {
        if (child.pid === undefined) resolve();
      });
    });
    const startTimeoutMs = o.startTimeoutMs ?? 30_000;
    this.#startTimer = setTimeout(() => {
      if (this.#state.status !== 'starting') return;
      this.#setState({
        status: 'failed',
        reason: `No public URL from the tunnel within ${Math.round(startTimeoutMs / 1000)} s${this.#lastLine()}`,
        retry: true,
      });
      this.#kill();
    }, startTimeoutMs);
    child.once('spawn', () => {
      const fixed = o.urlTemplate === undefined ? undefined : fillUrlTemplate(o.urlTemplate);
      if (fixed && this.#state.status === 'starting') this.#running(fixed);
    });
    eachLine(child.stdout, (line) => this.#onLine(line));
    eachLine(child.stderr, (line) => this.#onLine(line));
    child.once('error', (e: NodeJS.ErrnoException) => this.#onError(e));
    child.once('close', (code, signal) => this.#onClose(code, signal));
  }

  #setState(s: TunnelState): void {
    this.#state = s;
    this.#o.log?.info('Tunnel state changed.', s);
    for (const l of this.#listeners) {
      try {
        l(s);
      } catch (e) {
        this.#o.log?.error('A tunnel state listener failed.', { error: String(e) });
      }
    }
  }

  #lastLine(): string {
    const l = this.#lastLines.at(-1);
    return l ? `: ${l}` : '.';
  }

  #onLine(line: string): void {
    const text = line.trim();
    if (!text) return;
    this.#lastLines.push(text.slice(0, 500));
    if (this.#lastLines.length > KEPT_LINES) this.#lastLines.shift();
    if (this.#state.status !== 'starting') return;
    const o = this.#o;
    const url = o.urlTemplate === undefined ? findPublicUrl(text, o.command.provider, o.urlPattern) : fillUrlTemplate(o.urlTemplate, text);
    if (url) this.#running(url);
  }

  #running(url: string): void {
    clearTimeout(this.#startTimer);
    this.#setState({ status: 'running', url });
  }

  #onError(e: NodeJS.ErrnoException): void {
    clearTimeout(this.#startTimer);
    if (this.#stopping) return;
    const reason =
      e.code === 'ENOENT'
        ? `${this.#o.command.command} was not found; install it or set the tunnel command in Settings.`
        : `The tunnel command could not start (${e.code ?? e.message}).`;
    this.#setState({ status: 'failed', reason, retry: false });
  }

  #onClose(code: number | null, signal: NodeJS.Signals | null): void {
    this.#exited = true;
    clearTimeout(this.#startTimer);
    if (this.#stopping) {
      this.#setState({ status: 'stopped' });
      return;
    }
    if (this.#state.status === 'failed') return;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    this.#setState({
      status: 'failed',
      reason:
        this.#state.status === 'running'
          ? `The tunnel stopped unexpectedly (${how})${this.#lastLine()}`
          : `The tunnel command exited (${how}) before giving a public URL${this.#lastLine()}`,
      retry: true,
    });
  }

  #kill(): void {
    const child = this.#child;
    if (this.#exited || child.pid === undefined) return;
    child.kill('SIGTERM');
    this.#killTimer ??= setTimeout(() => {
      if (!this.#exited) child.kill('SIGKILL');
    }, KILL_GRACE_MS);
    this.#killTimer.unref();
  }

  get state(): TunnelState {
    return this.#state;
  }

  get pid(): number | undefined {
    return this.#exited ? undefined : this.#child.pid;
  }

  onState(listener: (s: TunnelState) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async stop(): Promise<void> {
    if (!this.#stopping) {
      this.#stopping = true;
      clearTimeout(this.#startTimer);
      this.#kill();
    }
    await this.#exitedPromise;
    clearTimeout(this.#killTimer);
    if (this.#state.status !== 'stopped' && this.#state.status !== 'failed') this.#setState({ status: 'stopped' });
  }
}
