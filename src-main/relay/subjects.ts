/**
 * Names on the NATS side of the team relay, spelled once for the relay, the consoles and the
 * server's permissions. One stream per operation (a service account's events), `RELAY_<operation>`,
 * holding the subjects `relay.<operation>.<group>`: a console's permissions name its operation's
 * stream, so it can read nothing of another's.
 */
import { RELAY_NAME_RE } from '../../src-shared/bridge/live';
import { WEBHOOK_GROUPS } from '../../src-shared/webhook';

/**
 * Operation and console names become subject tokens and stream and consumer names: letters,
 * digits, "-" and "_" only (no ".", "*", ">" or spaces, which NATS reads as syntax).
 */
export const NAME_RE = RELAY_NAME_RE;

export function checkName(what: 'operation' | 'console', name: string): string {
  if (!NAME_RE.test(name)) throw new Error(`The ${what} name "${name}" must be 1 to 64 letters, digits, "-" or "_".`);
  return name;
}

export const streamName = (operation: string) => `RELAY_${checkName('operation', operation)}`;

/** Every event of an operation: what its consoles' consumers filter on. */
export const operationSubjects = (operation: string) => `relay.${checkName('operation', operation)}.>`;

const GROUPS: ReadonlySet<string> = new Set(WEBHOOK_GROUPS);
/** Where an event of a group the interface does not name goes (its body is kept as received). */
export const OTHER_GROUP = 'other';

/** The subject an event is published on: by operation and event group (interface §6). */
export function eventSubject(operation: string, group: string | undefined): string {
  return `relay.${checkName('operation', operation)}.${group !== undefined && GROUPS.has(group) ? group : OTHER_GROUP}`;
}

/**
 * A console's replies arrive on its own inbox prefix, and it may subscribe to nothing else: a
 * shared `_INBOX.>` would let one console read the messages pulled by another.
 */
export const consoleInbox = (operation: string, console: string) =>
  `_INBOX.${checkName('operation', operation)}.c.${checkName('console', console)}`;

export const relayInbox = (operation: string) => `_INBOX.${checkName('operation', operation)}.relay`;

/** The header JetStream deduplicates on: the delivery's id (Standard Webhooks `webhook-id`). */
export const MSG_ID_HEADER = 'Nats-Msg-Id';

/** The operator's stream user's replies (`npm run relay -- stream`). */
export const adminInbox = (operation: string) => `_INBOX.${checkName('operation', operation)}.admin`;
