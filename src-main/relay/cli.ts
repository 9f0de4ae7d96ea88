/**
 * `npm run relay -- <command> [flags]`: the team relay as a headless process.
 *
 *   serve        takes the service's deliveries and publishes them to JetStream
 *   register     registers the relay's public address with the service (the relay's one call)
 *   unregister   removes that registration
 *   nats-config  writes nats-server's users and permissions for an operation's relay and consoles
 *
 * Secrets are read from files or the environment, never from flags (flags show in `ps`).
 */
import { readFileSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { isAppError } from '../../src-shared/errors';
import { hookRegistry } from '../webhooks/registration';
import type { WebhookLogger } from '../webhooks/types';
import type { NatsCredentials } from './connection';
import { natsServerConfig, operationUsers, relayUser } from './permissions';
import { startRelay } from './relay';
import { RELAY_LIMITS } from './stream';
import { readRelayState, relayState, writeRelayState } from './state-file';

const USAGE = `Usage: npm run relay -- <command> [flags]

  serve --operation NAME --nats ADDRESS (--nats-user USER --nats-password-file FILE | --nats-token-file FILE)
        [--port 8787] [--state-dir DIR] [--public-host HOST[:PORT]] [--nats-ca FILE]
        [--replicas 1] [--max-age-hours 168] [--duplicate-window-hours 24] [--max-gib 8] [--json]
  register --service URL --token-file FILE --public-url URL [--state-dir DIR] [--groups messages,status,...]
  unregister --service URL --token-file FILE [--state-dir DIR]
  nats-config --operation NAME --console NAME [--console NAME ...] --out FILE [--relay-password-file FILE]

Environment instead of files: RELAY_NATS_PASSWORD, RELAY_NATS_TOKEN, SERVICE_TOKEN.
The state directory (default ./relay-state) keeps the relay's secrets and its registration.`;

const FLAGS = {
  operation: { type: 'string' },
  nats: { type: 'string' },
  'nats-user': { type: 'string' },
  'nats-password-file': { type: 'string' },
  'nats-token-file': { type: 'string' },
  'nats-ca': { type: 'string' },
  port: { type: 'string' },
  'state-dir': { type: 'string' },
  'public-host': { type: 'string' },
  replicas: { type: 'string' },
  'max-age-hours': { type: 'string' },
  'duplicate-window-hours': { type: 'string' },
  'max-gib': { type: 'string' },
  json: { type: 'boolean' },
  service: { type: 'string' },
  'token-file': { type: 'string' },
  'public-url': { type: 'string' },
  groups: { type: 'string' },
  console: { type: 'string', multiple: true },
  out: { type: 'string' },
  'relay-password-file': { type: 'string' },
  help: { type: 'boolean' },
} as const;

type Flags = ReturnType<typeof parseArgs<{ options: typeof FLAGS; allowPositionals: true }>>['values'];

class UsageError extends Error {}

function need(flags: Flags, name: keyof Flags): string {
  const v = flags[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required.`);
  return v;
}

function number(flags: Flags, name: keyof Flags, fallback: number, min: number): number {
  const v = flags[name];
  if (v === undefined) return fallback;
  const n = Number(v);
  if (typeof v !== 'string' || !Number.isFinite(n) || n < min) throw new UsageError(`--${name} needs a number of at least ${min}.`);
  return n;
}

/** A secret from its file (first line), else from the environment variable. */
function secret(flags: Flags, file: keyof Flags, env: string): string | undefined {
  const path = flags[file];
  if (typeof path === 'string') return readFileSync(path, 'utf8').split('\n', 1)[0]!.trim();
  return process.env[env] || undefined;
}

function natsCredentials(flags: Flags): NatsCredentials {
  const token = secret(flags, 'nats-token-file', 'RELAY_NATS_TOKEN');
  if (token) return { kind: 'token', token };
  const password = secret(flags, 'nats-password-file', 'RELAY_NATS_PASSWORD');
  if (!password) throw new UsageError('Give the NATS credentials: --nats-user with --nats-password-file, or --nats-token-file.');
  return {
    kind: 'user',
    user: typeof flags['nats-user'] === 'string' ? flags['nats-user'] : relayUser(need(flags, 'operation')),
    password,
  };
}

const stateDir = (flags: Flags) => (typeof flags['state-dir'] === 'string' ? flags['state-dir'] : 'relay-state');

const stderrLog: WebhookLogger = {
  info: (m, f) => console.error(`relay: ${m}${f ? ` ${JSON.stringify(f)}` : ''}`),
  warn: (m, f) => console.error(`relay: warning: ${m}${f ? ` ${JSON.stringify(f)}` : ''}`),
  error: (m, f) => console.error(`relay: error: ${m}${f ? ` ${JSON.stringify(f)}` : ''}`),
};

async function serve(flags: Flags): Promise<void> {
  const operation = need(flags, 'operation');
  const address = need(flags, 'nats');
  const state = await relayState(stateDir(flags));
  const hours = (name: keyof Flags, fallbackMs: number) => number(flags, name, fallbackMs / 3_600_000, 0.01) * 3_600_000;
  const limits = {
    maxAgeMs: hours('max-age-hours', RELAY_LIMITS.maxAgeMs),
    duplicateWindowMs: hours('duplicate-window-hours', RELAY_LIMITS.duplicateWindowMs),
    maxBytes: Math.round(number(flags, 'max-gib', RELAY_LIMITS.maxBytes / 1024 ** 3, 0.001) * 1024 ** 3),
    replicas: number(flags, 'replicas', RELAY_LIMITS.replicas, 1),
  };
  console.error(`relay: connecting to NATS at ${address} (waiting while it cannot be reached)`);
  const relay = await startRelay({
    operation,
    port: number(flags, 'port', 8787, 0),
    pathSecret: state.pathSecret,
    signingSecret: state.signingSecret,
    publicHost: typeof flags['public-host'] === 'string' ? flags['public-host'] : undefined,
    nats: { address, credentials: natsCredentials(flags), caFile: typeof flags['nats-ca'] === 'string' ? flags['nats-ca'] : undefined },
    limits,
    log: stderrLog,
  });
  if (flags.json) console.log(JSON.stringify({ port: relay.port, stream: relay.stream, operation }));
  else console.log(`relay: taking deliveries on 127.0.0.1:${relay.port} for ${operation}, stream ${relay.stream}`);
  const stop = () => {
    // Bounded: what was not answered by then, the service delivers again.
    setTimeout(() => process.exit(1), 10_000).unref();
    void relay.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

async function serviceAccess(flags: Flags) {
  const service = need(flags, 'service');
  const token = secret(flags, 'token-file', 'SERVICE_TOKEN');
  if (!token) throw new UsageError('Give the service token: --token-file FILE, or SERVICE_TOKEN.');
  const onWait = (until: Date) => console.log(`relay: the service asked us to wait until ${until.toISOString()}; trying again then.`);
  return { service, hooks: hookRegistry(service, token, { onWait }) };
}

async function register(flags: Flags): Promise<void> {
  const publicUrl = new URL(need(flags, 'public-url'));
  if (publicUrl.protocol !== 'https:' && publicUrl.hostname !== '127.0.0.1' && publicUrl.hostname !== 'localhost')
    throw new UsageError('The public URL must be https (the service sends customers\u2019 messages to it).');
  const { service, hooks } = await serviceAccess(flags);
  const dir = stateDir(flags);
  const state = await relayState(dir);
  // One registration per operation: the one made before is replaced, not doubled.
  if (state.hook && state.hook.service === service) await hooks.remove(state.hook.id).catch(() => undefined);
  const url = `${publicUrl.origin}${publicUrl.pathname.replace(/\/+$/, '')}/hooks/${state.pathSecret}`;
  const groups =
    typeof flags.groups === 'string'
      ? flags.groups
          .split(',')
          .map((g) => g.trim())
          .filter(Boolean)
      : undefined;
  const hook = await hooks.create({ url, secret: state.signingSecret, groups });
  await writeRelayState(dir, { ...state, hook: { id: hook.id, service, url } });
  console.log(`relay: registered with the service as webhook ${hook.id}, delivering to ${publicUrl.origin}`);
}

async function unregister(flags: Flags): Promise<void> {
  const { service, hooks } = await serviceAccess(flags);
  const dir = stateDir(flags);
  const state = await readRelayState(dir);
  if (!state?.hook || state.hook.service !== service) {
    console.log('relay: no registration with that service is recorded here.');
    return;
  }
  await hooks.remove(state.hook.id);
  await writeRelayState(dir, { ...state, hook: null });
  console.log(`relay: webhook ${state.hook.id} removed.`);
}

async function natsConfig(flags: Flags): Promise<void> {
  const operation = need(flags, 'operation');
  const consoles = (flags.console ?? []).map((name) => ({ name }));
  if (!consoles.length) throw new UsageError('Name at least one console: --console NAME.');
  const out = need(flags, 'out');
  const users = operationUsers(operation, consoles);
  await writeFile(out, natsServerConfig(users), { mode: 0o600 });
  await chmod(out, 0o600);
  const relayPasswordFile = flags['relay-password-file'];
  if (typeof relayPasswordFile === 'string') {
    await writeFile(relayPasswordFile, `${users[0]!.password}\n`, { mode: 0o600 });
    await chmod(relayPasswordFile, 0o600);
  }
  console.log(
    `relay: wrote ${users.length} NATS users to ${out} (passwords inside; keep it private): ${users.map((u) => u.user).join(', ')}`,
  );
}

const COMMANDS: Record<string, (flags: Flags) => Promise<void>> = { serve, register, unregister, 'nats-config': natsConfig };

try {
  const { values: flags, positionals } = parseArgs({ args: process.argv.slice(2), options: FLAGS, allowPositionals: true, strict: true });
  const command = COMMANDS[positionals[0] ?? ''];
  if (flags.help || !command || positionals.length !== 1) {
    console.log(USAGE);
    process.exit(flags.help ? 0 : 2);
  }
  await command(flags);
} catch (e) {
  // An operator reads this: the error's own words (NATS and file errors say what to fix).
  const message = isAppError(e) ? e.info.message : e instanceof Error ? e.message : String(e);
  console.error(`relay: ${message}`);
  process.exit(e instanceof UsageError ? 2 : 1);
}
