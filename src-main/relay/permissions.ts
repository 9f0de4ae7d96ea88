/**
 * What each NATS user may do, as nats-server's `authorization` block: a relay publishes its
 * operation's events and keeps its stream; a console reads its operation's events through its
 * own durable consumer and nothing else. Everything not allowed is denied, so a console cannot
 * read another operation's stream, another console's consumer or inbox, nor fetch stored
 * messages by sequence.
 */
import { randomBytes } from 'node:crypto';
import { MAX_MESSAGE_BYTES } from './stream';
import { consoleInbox, operationSubjects, relayInbox, streamName } from './subjects';

export interface Permissions {
  publish: { allow: string[] };
  subscribe: { allow: string[] };
}

export function relayPermissions(operation: string): Permissions {
  const stream = streamName(operation);
  return {
    publish: {
      allow: [
        operationSubjects(operation),
        `$JS.API.STREAM.INFO.${stream}`,
        `$JS.API.STREAM.CREATE.${stream}`,
        `$JS.API.STREAM.UPDATE.${stream}`,
      ],
    },
    subscribe: { allow: [`${relayInbox(operation)}.>`] },
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
  password: string;
  permissions: Permissions;
}

/** User names: `relay-<operation>` and `<console>@<operation>` (no name holds "@", so none collide). */
export const relayUser = (operation: string) => `relay-${operation}`;
export const consoleUser = (operation: string, console: string) => `${console}@${operation}`;

const newPassword = () => randomBytes(24).toString('base64url');

/** The relay's user and one per console, each with a fresh random password unless given. */
export function operationUsers(
  operation: string,
  consoles: ReadonlyArray<{ name: string; password?: string }>,
  relayPassword?: string,
): NatsUser[] {
  return [
    { user: relayUser(operation), password: relayPassword ?? newPassword(), permissions: relayPermissions(operation) },
    ...consoles.map((c) => ({
      user: consoleUser(operation, c.name),
      password: c.password ?? newPassword(),
      permissions: consolePermissions(operation, c.name),
    })),
  ];
}

/**
 * nats-server configuration text (its format reads JSON values), to be included from the
 * server's main file: the users with their permissions, and a payload limit that fits the
 * relay's largest event (the server's default, 1 MiB, is the body limit alone). It holds the
 * passwords: keep it private (0600).
 */
export function natsServerConfig(users: readonly NatsUser[]): string {
  const lines = users.map((u) => `    ${JSON.stringify(u)}`);
  return `max_payload: ${MAX_MESSAGE_BYTES}\nauthorization {\n  users: [\n${lines.join(',\n')}\n  ]\n}\n`;
}
