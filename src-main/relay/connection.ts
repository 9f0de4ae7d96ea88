/**
 * How the relay and the consoles reach NATS: the address as a user types it, the credentials
 * they connect with, and TLS whenever the server is not on this computer.
 */
import { isIPv4 } from 'node:net';
import type { NodeConnectionOptions } from '@nats-io/transport-node';
import { AppError } from '../../src-shared/errors';

/** One set per console (and one for each relay): a user and password, or a token. */
export type NatsCredentials = { kind: 'user'; user: string; password: string } | { kind: 'token'; token: string };

export interface NatsAddress {
  /** host:port as the client dials it. */
  server: string;
  host: string;
  port: number;
  /** TLS is required: asked for (`tls://`) or the server is not on this computer. */
  tls: boolean;
}

export const DEFAULT_NATS_PORT = 4222;

/** This computer: 127.0.0.0/8, ::1 and localhost. Anything else goes over TLS. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  return isIPv4(h) && h.startsWith('127.');
}

const invalid = (message: string) => new AppError({ kind: 'Invalid', field: 'address', message });

/** `nats://host:port`, `tls://host:port` or `host:port` (port 4222 when left out). */
export function parseNatsAddress(address: string): NatsAddress {
  const text = address.trim();
  const withScheme = /^[a-z]+:\/\//i.test(text) ? text : `nats://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw invalid(`"${address}" is not a NATS address; write it as nats://host:4222 or tls://host:4222.`);
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (scheme !== 'nats' && scheme !== 'tls') throw invalid(`A NATS address starts with nats:// or tls://, not ${scheme}://.`);
  if (url.username || url.password) throw invalid('Put the credentials in their own fields, not in the address.');
  if ((url.pathname && url.pathname !== '/') || url.search || url.hash)
    throw invalid('A NATS address is a host and a port, nothing after them.');
  const host = url.hostname;
  if (!host) throw invalid(`"${address}" names no host.`);
  const port = url.port ? Number(url.port) : DEFAULT_NATS_PORT;
  return { server: `${host}:${port}`, host: host.replace(/^\[|\]$/g, ''), port, tls: scheme === 'tls' || !isLoopbackHost(host) };
}

export function checkCredentials(c: NatsCredentials): NatsCredentials {
  if (c.kind === 'user') {
    if (!c.user.trim() || !c.password)
      throw new AppError({ kind: 'Invalid', field: 'credentials', message: 'Give the NATS user and its password.' });
  } else if (!c.token) throw new AppError({ kind: 'Invalid', field: 'credentials', message: 'Give the NATS token.' });
  return c;
}

/**
 * Options for `connect`: the server, the credentials and TLS (required, the server's certificate
 * checked against the system's authorities or `caFile`, whenever TLS is on). Reconnecting is the
 * client's own: it tries for ever, every `reconnectTimeWait`.
 */
export function connectOptions(
  address: string,
  credentials: NatsCredentials,
  o: { name: string; inboxPrefix: string; caFile?: string | undefined; reconnectTimeWait?: number },
): NodeConnectionOptions {
  const a = parseNatsAddress(address);
  const c = checkCredentials(credentials);
  return {
    servers: a.server,
    name: o.name,
    inboxPrefix: o.inboxPrefix,
    ...(c.kind === 'user' ? { user: c.user, pass: c.password } : { token: c.token }),
    ...(a.tls ? { tls: o.caFile ? { caFile: o.caFile } : {} } : {}),
    maxReconnectAttempts: -1,
    reconnectTimeWait: o.reconnectTimeWait ?? 1_000,
    timeout: 5_000,
    // A refused password stays refused: reconnecting with it only fills the server's log.
    ignoreAuthErrorAbort: false,
    // Otherwise every request captures a stack trace in advance, in case it times out.
    noAsyncTraces: true,
  };
}
