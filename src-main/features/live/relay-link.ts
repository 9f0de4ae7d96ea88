/**
 * The team relay as a workspace's live source: the choice kept in the workspace's settings, its
 * password or token in the workspace's vault, and the console's durable consumer while the
 * workspace is open (src-main/relay/console-source.ts). Each event is handed to `deliver`, which
 * resolves once the sync applied it; only then is it acknowledged.
 */
import type { LiveSource, LiveSourceStatus, RelaySetting, RelayStatus } from '../../../src-shared/bridge/live';
import { AppError } from '../../../src-shared/errors';
import { parseNatsAddress, type NatsCredentials } from '../../relay/connection';
import type { RelaySource, RelaySourceOptions } from '../../relay/console-source';
import { EventRing } from '../../webhooks/event-log';
import { AppliedLog } from '../../relay/applied-log';
import { SEEN_MAX_AGE_MS } from '../../webhooks/seen-window';
import { join } from 'node:path';
import type { EventLogEntry, EventLogFilter, ReceivedEvent } from '../../webhooks/types';
import type { FeatureContext } from '../context';

const SOURCE_SETTING = 'liveSource';
/** The relay's password or token, in the workspace's vault beside the service token. */
export const RELAY_SECRET = 'relay:secret';

export function liveSource(ctx: FeatureContext): LiveSource {
  return ctx.settings.get(SOURCE_SETTING);
}

export function sourceStatus(ctx: FeatureContext): LiveSourceStatus {
  const source = liveSource(ctx);
  return { source, secretSaved: source.kind === 'relay' && ctx.vault.has(RELAY_SECRET) };
}

const sameLogin = (a: LiveSource, b: RelaySetting) => a.kind === 'relay' && a.relay.auth === b.auth && a.relay.user === b.user;

/**
 * Checks and keeps a new source. A relay's address must parse (TLS is then required off this
 * computer), a user/password login names its user, and a secret comes with it unless the one
 * kept belongs to the same login. Leaving the relay forgets its secret.
 */
export function saveSource(
  ctx: FeatureContext,
  source: LiveSource,
  secret: string | undefined,
  keep: (name: string, value: string) => void,
): void {
  const before = liveSource(ctx);
  if (source.kind === 'relay') {
    const r = source.relay;
    parseNatsAddress(r.address);
    if (r.auth === 'user' && !r.user.trim()) throw new AppError({ kind: 'Invalid', field: 'user', message: 'Give the NATS user name.' });
    const kept = sameLogin(before, r) && ctx.vault.has(RELAY_SECRET);
    if (!secret && !kept) {
      throw new AppError({
        kind: 'Invalid',
        field: 'secret',
        message: r.auth === 'user' ? 'Give the NATS password.' : 'Give the NATS token.',
      });
    }
    if (secret) {
      keep(RELAY_SECRET, secret);
      ctx.registerSecret(secret);
    }
    ctx.settings.set(SOURCE_SETTING, { kind: 'relay', relay: { ...r, user: r.auth === 'user' ? r.user.trim() : '' } });
    return;
  }
  ctx.vault.remove(RELAY_SECRET);
  ctx.settings.set(SOURCE_SETTING, source);
}

/** A name as part of a file name. */
const fileWord = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80);

export interface RelayLink {
  readonly status: RelayStatus;
  /** Events arrive (or the connection is being made): the poll may keep its slow pace. */
  readonly live: boolean;
  /** The events received from the relay in this run, newest first. */
  eventLog(filter?: EventLogFilter): EventLogEntry[];
  close(): Promise<void>;
}

/** Reads the relay for the open workspace; null (with the reason logged) when no secret is kept. */
export function openRelayLink(
  ctx: FeatureContext,
  setting: RelaySetting,
  o: { deliver(e: ReceivedEvent): Promise<void>; onChange(): void; onBack(): void },
): RelayLink | null {
  const secret = ctx.vault.get(RELAY_SECRET);
  if (!secret) {
    ctx.log.warn('live: the team relay has no password or token kept; give it again in the settings');
    return null;
  }
  ctx.registerSecret(secret);
  const credentials: NatsCredentials =
    setting.auth === 'user' ? { kind: 'user', user: setting.user, password: secret } : { kind: 'token', token: secret };
  const ring = new EventRing();
  // Applied ids on disk, per consumer: an event applied just before a crash is not applied again.
  const applied = new AppliedLog(
    join(ctx.profileDir, 'relay', `applied-${fileWord(setting.operation)}-${fileWord(setting.console)}.ndjson`),
    // The relay's duplicate window (`RELAY_LIMITS`, read from here: the NATS client loads lazily).
    SEEN_MAX_AGE_MS,
  );
  let wasLive = false;
  const log = {
    info: (m: string, f?: object) => ctx.log.info(m, f as Record<string, unknown> | undefined),
    warn: (m: string, f?: object) => ctx.log.warn(m, f as Record<string, unknown> | undefined),
    error: (m: string, f?: object) => ctx.log.error(m, f as Record<string, unknown> | undefined),
  };
  const options: RelaySourceOptions = {
    address: setting.address,
    credentials,
    operation: setting.operation,
    console: setting.console,
    log,
    applied,
    apply: (e) => {
      const { event: _parsed, ...row } = e;
      ring.add(row);
      return o.deliver(e);
    },
    onState: (state) => {
      // Back after a gap: what the stream does not hold (a console away past its retention) is read from the service.
      if (state === 'live' && wasLive) o.onBack();
      if (state === 'live') wasLive = true;
      o.onChange();
    },
  };
  // The NATS client is loaded only for a workspace that reads a relay (it is about 20 ms of a
  // start that does not need it); until it has loaded, the source is connecting.
  // A client that could not load (a broken install) leaves the relay unreachable: the poll keeps
  // its quick pace.
  let source: RelaySource | null = null;
  let unloadable = false;
  let closed = false;
  const started = import('../../relay/console-source').then(
    ({ startRelaySource }) => {
      if (!closed) source = startRelaySource(options);
    },
    (e: unknown) => {
      unloadable = true;
      ctx.log.error('live: the team relay client could not be loaded', { error: String(e) });
      o.onChange();
    },
  );
  return {
    get status(): RelayStatus {
      if (!source)
        return { state: unloadable ? 'unreachable' : 'connecting', reason: unloadable ? 'unreachable' : null, address: setting.address };
      const state = source.state === 'stopped' ? 'unreachable' : source.state;
      return { state, reason: source.reason, address: setting.address };
    },
    get live() {
      if (!source) return !unloadable;
      return source.state === 'live' || source.state === 'connecting';
    },
    eventLog: (filter) => ring.select(filter),
    close: async () => {
      closed = true;
      await started;
      await source?.close();
    },
  };
}
