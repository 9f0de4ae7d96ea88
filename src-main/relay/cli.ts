/**
 * `npm run relay -- <command> [flags]`: the team relay as a headless process.
 *
 *   serve        takes the service's deliveries and publishes them to JetStream
 *   register     registers the relay's public address with the service (the relay's one call)
 *   unregister   removes that registration
 *   nats-config  writes an operation's NATS account (its relay, its stream user and its consoles,
 *                passwords bcrypt-hashed) and each user's clear password to its own private file
 *   stream       the operator's step: creates the operation's stream, or brings it to its limits
 *
 * Secrets are read from files or the environment, never from flags (flags show in `ps`).
 */
import { constants, readFileSync } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { parseArgs } from 'node:util';
import { isAppError } from '../../src-shared/errors';
import { hookRegistry } from '../webhooks/registration';
import type { WebhookLogger } from '../webhooks/types';
import { connectOptions, type NatsCredentials } from './connection';
import { adminUser, natsAccountConfig, operationUsers, relayUser } from './permissions';
import { startRelay } from './relay';
import { RELAY_LIMITS, ensureStream } from './stream';
import { adminInbox } from './subjects';
import { readRelayState, relayState, writeRelayState } from './state-file';
import { errorText } from '../../src-shared/error-text';

const USAGE = `Usage: npm run relay -- <command> [flags]

  serve --operation NAME --nats ADDRESS (--nats-user USER --nats-password-file FILE | --nats-token-file FILE)
        [--port 8787] [--state-dir DIR] [--public-host HOST[:PORT]] [--nats-ca FILE] [--json]
  stream --operation NAME --nats ADDRESS (--nats-password-file FILE (admin-NAME's) | --nats-token-file FILE) [--nats-ca FILE]
        [--replicas 1] [--max-age-hours 168] [--duplicate-window-hours 24] [--max-gib 8]
  register --service URL --token-file FILE --public-url URL [--state-dir DIR] [--groups messages,status,...]
  unregister --service URL --token-file FILE [--state-dir DIR]
  nats-config --operation NAME --console NAME [--console NAME ...] --out FILE --secrets-dir DIR
        [--replicas 1] [--max-gib 8]

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
  'secrets-dir': { type: 'string' },
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

/** The stream's limits from the flags, the defaults otherwise. */
function streamLimits(flags: Flags) {
  const hours = (name: keyof Flags, fallbackMs: number) => number(flags, name, fallbackMs / 3_600_000, 0.01) * 3_600_000;
  return {
    maxAgeMs: hours('max-age-hours', RELAY_LIMITS.maxAgeMs),
    duplicateWindowMs: hours('duplicate-window-hours', RELAY_LIMITS.duplicateWindowMs),
    maxBytes: Math.round(number(flags, 'max-gib', RELAY_LIMITS.maxBytes / 1024 ** 3, 0.001) * 1024 ** 3),
    replicas: number(flags, 'replicas', RELAY_LIMITS.replicas, 1),
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
  for (const f of ['replicas', 'max-age-hours', 'duplicate-window-hours', 'max-gib'] as const)
    if (flags[f] !== undefined) throw new UsageError(`--${f} belongs to the operator's \`stream\` step, not to serve.`);
  const state = await relayState(stateDir(flags));
  console.error(`relay: connecting to NATS at ${address} (waiting while it cannot be reached)`);
  const relay = await startRelay({
    operation,
    port: number(flags, 'port', 8787, 0),
    pathSecret: state.pathSecret,
    signingSecret: state.signingSecret,
    publicHost: typeof flags['public-host'] === 'string' ? flags['public-host'] : undefined,
    nats: { address, credentials: natsCredentials(flags), caFile: typeof flags['nats-ca'] === 'string' ? flags['nats-ca'] : undefined },
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

/**
 * Writes a private file (0600) and never through a symbolic link: a link planted at the path
 * would otherwise carry the passwords to wherever it points.
 */
async function writePrivate(path: string, text: string): Promise<void> {
  let file;
  try {
    file = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP')
      throw new UsageError(`${path} is a symbolic link; give the path of a regular file (nothing is written through a link).`);
    throw e;
  }
  try {
    await file.chmod(0o600);
    await file.writeFile(text);
    await file.sync();
  } finally {
    await file.close();
  }
}

/** Refuses a path that is a symbolic link (a missing one is fine). */
async function notALink(path: string): Promise<void> {
  const st = await lstat(path).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return null;
    throw e;
  });
  if (st?.isSymbolicLink())
    throw new UsageError(`${path} is a symbolic link; give the path of a regular file (nothing is written through a link).`);
}

/** The folder of the users' clear passwords: created 0700, never a symbolic link. */
async function privateDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: 0o700 });
  const st = await lstat(path);
  if (st.isSymbolicLink()) throw new UsageError(`${path} is a symbolic link; give the path of a folder.`);
  if (!st.isDirectory()) throw new UsageError(`${path} is not a folder.`);
  const dir = await open(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  try {
    await dir.chmod(0o700);
  } finally {
    await dir.close();
  }
}

async function natsConfig(flags: Flags): Promise<void> {
  const operation = need(flags, 'operation');
  const consoles = (flags.console ?? []).map((name) => ({ name }));
  if (!consoles.length) throw new UsageError('Name at least one console: --console NAME.');
  const out = need(flags, 'out');
  const secrets = need(flags, 'secrets-dir');
  const { maxBytes, replicas } = streamLimits(flags);
  const users = operationUsers(operation, consoles);
  // Every path checked before anything is written: a refusal leaves the earlier files as they were.
  const secretFiles = users.map((u) => join(secrets, `${u.user}.pass`));
  for (const path of [out, ...secretFiles]) await notALink(path);
  // The secrets first: a configuration is never left whose passwords nobody has.
  await privateDir(secrets);
  for (const [i, u] of users.entries()) await writePrivate(secretFiles[i]!, `${u.password}\n`);
  await writePrivate(out, natsAccountConfig(operation, users, { maxBytes, replicas }));
  console.log(
    `relay: wrote the NATS account of ${operation} to ${out} (bcrypt hashes; include it inside the server's accounts {} block) ` +
      `and each user's password to ${secrets}/<user>.pass: ${users.map((u) => u.user).join(', ')}`,
  );
}

async function stream(flags: Flags): Promise<void> {
  const operation = need(flags, 'operation');
  const token = secret(flags, 'nats-token-file', 'RELAY_NATS_TOKEN');
  const password = secret(flags, 'nats-password-file', 'RELAY_NATS_PASSWORD');
  if (!token && !password) throw new UsageError(`Give ${adminUser(operation)}'s password: --nats-password-file FILE.`);
  const user = typeof flags['nats-user'] === 'string' ? flags['nats-user'] : adminUser(operation);
  const options = connectOptions(need(flags, 'nats'), token ? { kind: 'token', token } : { kind: 'user', user, password: password! }, {
    name: `relay stream ${operation}`,
    inboxPrefix: adminInbox(operation),
    caFile: typeof flags['nats-ca'] === 'string' ? flags['nats-ca'] : undefined,
  });
  const nc = await connect({ ...options, maxReconnectAttempts: 0 });
  try {
    const info = await ensureStream(await jetstreamManager(nc, { checkAPI: false }), operation, streamLimits(flags));
    console.log(
      `relay: stream ${info.config.name} holds ${info.config.subjects?.join(', ')}, ${info.config.num_replicas} replica(s), ` +
        `${info.state.messages} events stored`,
    );
  } finally {
    await nc.close();
  }
}

const COMMANDS: Record<string, (flags: Flags) => Promise<void>> = { serve, stream, register, unregister, 'nats-config': natsConfig };

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
  const message = isAppError(e) ? e.info.message : errorText(e);
  console.error(`relay: ${message}`);
  process.exit(e instanceof UsageError ? 2 : 1);
}
