/**
 * What each NATS user may do, and where it lives. An operation is a NATS account: its relay, its
 * operator's stream user and its consoles are users of that account, and nothing of another
 * account (its subjects, its JetStream API, its inboxes) is addressable from it, whatever the
 * permissions say. Inside the account the permissions narrow each user further: the relay
 * publishes its operation's events and reads its stream's state; the operator's user creates
 * and updates the stream; a console reads its operation's events through its own durable
 * consumer and nothing else. Everything not allowed is denied.
 */
import { randomBytes } from 'node:crypto';
import { hashSync } from 'bcryptjs';
import { MAX_MESSAGE_BYTES, RELAY_LIMITS } from './stream';
import { adminInbox, checkName, consoleInbox, operationSubjects, relayInbox, streamName } from './subjects';

export interface Permissions {
  publish: { allow: string[] };
  subscribe: { allow: string[] };
}

/**
 * The relay publishes events and reads its stream's state, nothing more: it cannot create or
 * update the stream, so it cannot widen what the stream captures or add a republish rule.
 */
export function relayPermissions(operation: string): Permissions {
  return {
    publish: { allow: [operationSubjects(operation), `$JS.API.STREAM.INFO.${streamName(operation)}`] },
    subscribe: { allow: [`${relayInbox(operation)}.>`] },
  };
}

/** The operator's user for `npm run relay -- stream`: creates the stream and brings it to its limits. */
export function adminPermissions(operation: string): Permissions {
  const stream = streamName(operation);
  return {
    publish: {
      allow: [`$JS.API.STREAM.INFO.${stream}`, `$JS.API.STREAM.CREATE.${stream}`, `$JS.API.STREAM.UPDATE.${stream}`],
    },
    subscribe: { allow: [`${adminInbox(operation)}.>`] },
  };
}

/**
 * A console's consumer is named after the console, and it can only be created filtered to its
 * operation's subjects (JetStream's create subject carries the filter, which the server checks
 * against the request).
 */
export function consolePermissions(operation: string, console: string): Permissions {
  const stream = streamName(operation);
  return {
    publish: {
      allow: [
        `$JS.API.CONSUMER.CREATE.${stream}.${console}.${operationSubjects(operation)}`,
        `$JS.API.CONSUMER.INFO.${stream}.${console}`,
        `$JS.API.CONSUMER.MSG.NEXT.${stream}.${console}`,
        `$JS.API.CONSUMER.DELETE.${stream}.${console}`,
        `$JS.ACK.${stream}.${console}.>`,
      ],
    },
    subscribe: { allow: [`${consoleInbox(operation, console)}.>`] },
  };
}

export interface NatsUser {
  user: string;
  /** In clear: for the user's own secret file. The configuration holds its bcrypt hash only. */
  password: string;
  permissions: Permissions;
}

/**
 * User names: `relay-<operation>`, `admin-<operation>` and `<console>@<operation>` (no
 * operation name holds "@", so none collide). Unique per server, as nats-server requires across
 * its accounts.
 */
export const relayUser = (operation: string) => `relay-${operation}`;
export const adminUser = (operation: string) => `admin-${operation}`;
export const consoleUser = (operation: string, console: string) => `${console}@${operation}`;

/** The operation's NATS account. */
export const accountName = (operation: string) => `OP_${checkName('operation', operation)}`;

const newPassword = () => randomBytes(24).toString('base64url');

/** The relay's user, the operator's stream user and one per console, each with a fresh random password unless given. */
export function operationUsers(
  operation: string,
  consoles: ReadonlyArray<{ name: string; password?: string }>,
  given: { relay?: string; admin?: string } = {},
): NatsUser[] {
  return [
    { user: relayUser(operation), password: given.relay ?? newPassword(), permissions: relayPermissions(operation) },
    { user: adminUser(operation), password: given.admin ?? newPassword(), permissions: adminPermissions(operation) },
    ...consoles.map((c) => ({
      user: consoleUser(operation, checkName('console', c.name)),
      password: c.password ?? newPassword(),
      permissions: consolePermissions(operation, c.name),
    })),
  ];
}

/** What the operation's account may hold in JetStream: its one stream, at its size, on every replica. */
export interface AccountLimits {
  maxBytes: number;
  replicas: number;
}

/**
 * bcrypt's cost for the configuration's hashes: nats-server's own `passwd` tool's default. The
 * passwords are 192 random bits, so the cost guards a weak one set by hand more than these.
 */
export const BCRYPT_COST = 11;

/**
 * One operation's account, as nats-server configuration (its format reads JSON values): an entry
 * of the server's `accounts {}` block, to be included there (`accounts { include nats-acme.conf }`),
 * one include per operation, so several operations add accounts side by side and none replaces
 * another's users. JetStream is on for the account with limits: one stream, its size on disk
 * (times its replicas), a consumer per console, no memory storage.
 */
export function natsAccountConfig(
  operation: string,
  users: readonly NatsUser[],
  limits: AccountLimits = RELAY_LIMITS,
  cost = BCRYPT_COST,
): string {
  const consoles = users.filter((u) => u.user.endsWith(`@${operation}`)).length;
  const jetstream = { max_mem: 0, max_file: limits.maxBytes * limits.replicas, max_streams: 1, max_consumers: Math.max(1, consoles) };
  const lines = users.map(
    (u) => `    ${JSON.stringify({ user: u.user, password: hashSync(u.password, cost), permissions: u.permissions })}`,
  );
  return [
    `# The NATS account of operation ${operation}: include it inside the server's accounts {} block.`,
    `${JSON.stringify(accountName(operation))}: {`,
    `  jetstream: ${JSON.stringify(jetstream)}`,
    `  users: [`,
    lines.join(',\n'),
    `  ]`,
    `}`,
    '',
  ].join('\n');
}

/**
 * The server's own file: JetStream, a payload limit that fits the relay's largest event (the
 * server's default, 1 MiB, is the body limit alone), and one include per operation's account.
 */
export function natsServerConfig(accountFiles: readonly string[]): string {
  const includes = accountFiles.map((f) => `  include ${JSON.stringify(f)}`).join('\n');
  return `max_payload: ${MAX_MESSAGE_BYTES}\njetstream: enabled\naccounts {\n${includes}\n}\n`;
}
