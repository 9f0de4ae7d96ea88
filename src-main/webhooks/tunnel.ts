/**
 * Runs the tunnel program that exposes the loopback listener to the service: detects
 * cloudflared or ngrok, builds the command (always with the host-header option the listener's
 * Host check needs), spawns it without a shell, reads the public URL from its output and reports
 * its state. Plain Node, no Electron.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import type { WebhookLogger } from './types';

export type TunnelProvider = 'cloudflared' | 'ngrok';

export type TunnelState =
  | { status: 'stopped' }
  | { status: 'starting' }
  | { status: 'running'; url: string }
  | { status: 'failed'; reason: string };

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
  env?: NodeJS.ProcessEnv;
  log?: WebhookLogger;
}

export interface TunnelRunner {
  readonly state: TunnelState;
  /** Called on every change; returns the unsubscribe function. */
  onState(listener: (s: TunnelState) => void): () => void;
  /** Ends the program (SIGTERM, then SIGKILL after a grace period) and resolves once it exited. */
  stop(): Promise<void>;
}

const PROVIDERS: readonly TunnelProvider[] = ['cloudflared', 'ngrok'];
const KILL_GRACE_MS = 3000;
const KEPT_LINES = 20;
const MAX_LINE = 8 * 1024;

/** Finds an executable on PATH the way a shell would, without running one. */
export async function findOnPath(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<string | undefined> {
  const dirs = (env.PATH ?? env.Path ?? '').split(delimiter).filter((d) => d !== '' && isAbsolute(d));
  const exts = platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').filter(Boolean) : [''];
  for (const dir of dirs) {
    for (const ext of exts) {
      const candidate = join(dir, name + ext);
      try {
        await access(candidate, platform === 'win32' ? constants.F_OK : constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/** The tunnel programs found on PATH, cloudflared first. */
export async function detectTunnels(
  env: NodeJS.ProcessEnv = process.env,
): Promise<Array<{ provider: TunnelProvider; path: string }>> {
  const found: Array<{ provider: TunnelProvider; path: string }> = [];
  for (const provider of PROVIDERS) {
    const path = await findOnPath(provider, env);
    if (path) found.push({ provider, path });
  }
  return found;
}

/**
 * The command for a provider. Both forward to 127.0.0.1 (never "localhost", which may resolve
 * to ::1 where nothing listens) and rewrite the Host header to it.
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
  return {
    provider,
    command: executable,
    args: ['http', target, '--host-header=rewrite', '--log=stdout', '--log-format=logfmt'],
  };
}

/**
 * A user's command line split into program and arguments without a shell: whitespace
 * separates, single and double quotes group, backslash escapes outside single quotes.
 * `{port}` is replaced by the listener's port.
 */
export function parseCommandLine(line: string, port: number): TunnelCommand {
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
  const [command, ...args] = words.map((w) => w.replaceAll('{port}', String(port)));
  if (!command) throw new Error('The tunnel command is empty.');
  return { provider: 'custom', command, args };
}

const URL_PATTERNS: Record<TunnelProvider | 'custom', RegExp> = {
  // cloudflared also prints links to its terms and docs: only the quick-tunnel host counts.
  cloudflared: /https:\/\/[a-z0-9-]+\.trycloudflare\.com\b/i,
  ngrok: /\burl=(https:\/\/[^\s"]+)|"url":"(https:\/\/[^"]+)"/,
  custom: /https:\/\/[^\s"'<>|]+/,
};

/** The public URL in one line of a tunnel program's output, if there is one. */
export function findPublicUrl(line: string, provider: TunnelProvider | 'custom', pattern?: RegExp): string | undefined {
  const m = (pattern ?? URL_PATTERNS[provider]).exec(line);
  if (!m) return undefined;
  const url = m.slice(1).find((g) => g !== undefined) ?? m[0];
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
  const log = o.log;
  const listeners = new Set<(s: TunnelState) => void>();
  const lastLines: string[] = [];
  let state: TunnelState = { status: 'starting' };
  let stopping = false;
  let exited = false;

  const setState = (s: TunnelState) => {
    state = s;
    log?.info('Tunnel state changed.', s);
    for (const l of listeners) {
      try {
        l(s);
      } catch (e) {
        log?.error('A tunnel state listener failed.', { error: String(e) });
      }
    }
  };
  const lastLine = () => {
    const l = lastLines.at(-1);
    return l ? `: ${l}` : '.';
  };

  let child: ChildProcess;
  try {
    child = spawn(command.command, command.args, {
      shell: false,
      windowsHide: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: o.env ?? process.env,
    });
  } catch (e) {
    // spawn throws synchronously for malformed arguments; it reports a missing program as 'error'.
    state = { status: 'failed', reason: `The tunnel command could not start (${String(e)}).` };
    return { get state() { return state; }, onState: () => () => undefined, stop: async () => undefined };
  }

  const exitedPromise = new Promise<void>((resolve) => {
    child.once('close', () => resolve());
    child.once('error', () => {
      if (child.pid === undefined) resolve();
    });
  });

  const startTimer = setTimeout(() => {
    if (state.status !== 'starting') return;
    setState({ status: 'failed', reason: `No public URL from the tunnel within ${Math.round((o.startTimeoutMs ?? 30_000) / 1000)} s${lastLine()}` });
    kill();
  }, o.startTimeoutMs ?? 30_000);

  const onLine = (line: string) => {
    const text = line.trim();
    if (!text) return;
    lastLines.push(text.slice(0, 500));
    if (lastLines.length > KEPT_LINES) lastLines.shift();
    if (state.status !== 'starting') return;
    const url = findPublicUrl(text, command.provider, o.urlPattern);
    if (url) {
      clearTimeout(startTimer);
      setState({ status: 'running', url });
    }
  };
  eachLine(child.stdout, onLine);
  eachLine(child.stderr, onLine);

  child.once('error', (e: NodeJS.ErrnoException) => {
    clearTimeout(startTimer);
    if (stopping) return;
    const reason =
      e.code === 'ENOENT'
        ? `${command.command} was not found; install it or set the tunnel command in Settings.`
        : `The tunnel command could not start (${e.code ?? e.message}).`;
    setState({ status: 'failed', reason });
  });
  child.once('close', (code, signal) => {
    exited = true;
    clearTimeout(startTimer);
    if (stopping) {
      setState({ status: 'stopped' });
      return;
    }
    if (state.status === 'failed') return;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    setState({
      status: 'failed',
      reason:
        state.status === 'running'
          ? `The tunnel stopped unexpectedly (${how})${lastLine()}`
          : `The tunnel command exited (${how}) before giving a public URL${lastLine()}`,
    });
  });

  let killTimer: NodeJS.Timeout | undefined;
  function kill(): void {
    if (exited || child.pid === undefined) return;
    child.kill('SIGTERM');
    killTimer ??= setTimeout(() => {
      if (!exited) child.kill('SIGKILL');
    }, KILL_GRACE_MS);
    killTimer.unref();
  }

  return {
    get state() {
      return state;
    },
    onState(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async stop() {
      if (!stopping) {
        stopping = true;
        clearTimeout(startTimer);
        kill();
      }
      await exitedPromise;
      clearTimeout(killTimer);
      if (state.status !== 'stopped' && state.status !== 'failed') setState({ status: 'stopped' });
    },
  };
}
