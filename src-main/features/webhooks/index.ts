import {
  BUILT_IN_TUNNELS,
  EVENT_LOG_ROWS,
  PUSHED_RAW_CHARS,
  type EventRow,
  type ListenerStatus,
} from '../../../src-shared/bridge/webhooks';
import { AppError } from '../../../src-shared/errors';
import { redactJsonText } from '../../../src-shared/secret-fields';
import type { TunnelSetting } from '../../settings';
import {
  buildTunnelCommand,
  checkThroughTunnel,
  detectTunnels,
  installHint,
  parseCommandLine,
  startTunnel,
  superviseTunnel,
  TUNNEL_PROGRAMS,
  type EventLogEntry,
  type ReceivedEvent,
  type SupervisedTunnelState,
  type TunnelCommand,
  type TunnelProvider,
  type TunnelSupervisor,
} from '../../webhooks';
import type { Feature, FeatureContext } from '../context';
import type { LiveFeature } from '../live';
import { errorText } from '../../../src-shared/error-text';
import { fillPlaceholders } from '../../../src-shared/template';

export type WebhooksFeature = Feature<'webhooks'>;

export interface WebhooksOptions {
  /** Where tunnel programs are looked up and what they run with (tests pass their own). */
  env?: NodeJS.ProcessEnv;
  /** Between the tunnel's self-checks while live (default 10 s). */
  tunnelCheckEveryMs?: number;
}

const TUNNEL_SETTING = 'webhookTunnel';
/** Main-side coalescing of pushes to the renderer: about one frame. */
const PUSH_MS = 16;

/** A body for the event log's view: its secret fields hidden (as the bridge hides them in records), then cut to `max`. */
function cut(received: string, max: number | undefined): { raw: string; cut: boolean } {
  const raw = redactJsonText(received);
  return max !== undefined && raw.length > max ? { raw: raw.slice(0, max), cut: true } : { raw, cut: false };
}

function rowOfReceived(e: ReceivedEvent): EventRow {
  return {
    id: e.id,
    receivedAt: e.receivedAt,
    signature: e.signature,
    known: e.known,
    group: e.event?.group ?? null,
    type: e.event?.type ?? null,
    occurredAt: e.event?.occurredAt ?? null,
    ...cut(e.raw, PUSHED_RAW_CHARS),
  };
}

function rowOfEntry(e: EventLogEntry, max?: number): EventRow {
  const body = cut(e.raw, max);
  return {
    id: e.id,
    receivedAt: e.receivedAt,
    signature: e.signature,
    known: e.known,
    group: e.group ?? null,
    type: e.type ?? null,
    occurredAt: e.occurredAt ?? null,
    raw: body.raw,
    cut: body.cut || e.truncated === true,
  };
}

/**
 * What the tunnel would run, program and arguments (no shell): a custom command for the user to
 * confirm (with `{port}` filled in once the listener runs), a built-in one once its program and
 * the port are known.
 */
function previewOf(t: TunnelSetting, port: number | null, path: string | undefined): { program: string; args: string[] } | null {
  try {
    if (t.provider === 'custom') {
      if (!t.command) return null;
      const c = parseCommandLine(t.command, port ?? '{port}');
      return { program: c.command, args: c.args };
    }
    if (t.provider === 'none' || port === null || !path) return null;
    const c = buildTunnelCommand(t.provider, port, path);
    return { program: c.command, args: c.args };
  } catch {
    return null;
  }
}

/** A custom command's URL template: an http(s) URL once its placeholders are filled. */
function checkUrlTemplate(template: string): void {
  if (!template) return;
  let ok: boolean;
  try {
    const u = new URL(fillPlaceholders(template, { port: '1', remotePort: '1' }));
    ok = (u.protocol === 'http:' || u.protocol === 'https:') && u.search === '' && u.hash === '';
  } catch {
    ok = false;
  }
  if (!ok) {
    throw new AppError({
      kind: 'Invalid',
      field: 'urlTemplate',
      message: 'The public URL must be an http or https address, for example http://127.0.0.1:{remotePort}',
    });
  }
}

/**
 * The webhook listener as the user manages it: its settings (through live.ts, which runs it),
 * the tunnel that exposes it to the service, and its event log, pushed to the renderer in
 * batches of about one frame.
 */
export function createWebhooksFeature(ctx: FeatureContext, live: LiveFeature, o: WebhooksOptions = {}): WebhooksFeature {
  const env = o.env ?? process.env;
  let available: Array<{ provider: TunnelProvider; path: string }> = [];
  let runner: TunnelSupervisor | null = null;
  let runnerPort: number | null = null;
  let tunnelState: SupervisedTunnelState = { status: 'stopped' };
  /** The user started the tunnel: it follows the listener (restarts on a new port, stops with it). */
  let tunnelWanted = false;
  let tunnelChange: Promise<void> = Promise.resolve();

  const tunnelSetting = (): TunnelSetting => ctx.settings.get(TUNNEL_SETTING);

  const status = (): ListenerStatus => {
    const l = live.listener;
    const t = tunnelSetting();
    const r = live.refusals();
    const t0 = tunnelState;
    const url = t0.status === 'running' || t0.status === 'starting' ? (t0.url ?? null) : null;
    return {
      state: live.state,
      detail: live.detail,
      localUrl: l?.url ?? null,
      port: l?.port ?? null,
      portSetting: live.portSetting,
      path: l?.path ?? null,
      signing: live.signing,
      registered: live.registered,
      demo: ctx.isDemo(),
      counts: live.counts(),
      refusals: r.byReason,
      lastRefusal: r.last,
      tunnel: {
        provider: t.provider,
        command: t.command,
        urlTemplate: t.urlTemplate,
        confirmed: t.provider !== 'custom' || t.confirmed === t.command,
        preview: previewOf(t, l?.port ?? null, available.find((a) => a.provider === t.provider)?.path),
        programs: BUILT_IN_TUNNELS.map((p) => ({
          provider: p,
          program: TUNNEL_PROGRAMS[p].program,
          path: available.find((a) => a.provider === p)?.path ?? null,
          install: installHint(p),
        })),
        status: t0.status,
        url,
        reason: t0.status === 'failed' || t0.status === 'restarting' ? t0.reason : null,
        retryAt: t0.status === 'restarting' ? t0.at : null,
        checkedAt: t0.status === 'running' ? t0.checkedAt : null,
        // Only once a self-check came back through it: the address that is known to work.
        publicUrl: t0.status === 'running' && l ? `${t0.url}${l.path}` : null,
      },
    };
  };

  let statusTimer: ReturnType<typeof setTimeout> | null = null;
  const pushStatus = () => {
    if (statusTimer) return;
    // Already coalesced by live.ts (~100 ms); this only merges a tunnel change into the same push.
    statusTimer = setTimeout(() => {
      statusTimer = null;
      ctx.events.emit('webhooks:status', status());
    }, PUSH_MS);
    statusTimer.unref?.();
  };

  // New events reach the renderer in batches, at most one per ~16 ms: a burst of a thousand a
  // second costs ~60 pushes. The first event after a quiet spell goes at once (next turn).
  let pending: EventRow[] = [];
  let rowsTimer: ReturnType<typeof setTimeout> | null = null;
  let lastFlush = 0;
  const flushRows = () => {
    rowsTimer = null;
    lastFlush = performance.now();
    const entries = pending;
    pending = [];
    if (entries.length) ctx.events.emit('webhooks:events', { entries });
  };
  const offReceived = live.onReceived((e) => {
    pending.push(rowOfReceived(e));
    // The renderer keeps as many rows as the log: older ones of a huge burst would be dropped there anyway.
    if (pending.length > EVENT_LOG_ROWS * 2) pending = pending.slice(-EVENT_LOG_ROWS);
    if (!rowsTimer) {
      rowsTimer = setTimeout(flushRows, Math.max(0, PUSH_MS - (performance.now() - lastFlush)));
      rowsTimer.unref?.();
    }
  });

  async function refreshAvailable(): Promise<void> {
    try {
      available = await detectTunnels(env);
    } catch {
      available = [];
    }
  }

  function commandFor(setting: TunnelSetting, port: number): TunnelCommand {
    if (setting.provider === 'custom') {
      try {
        return parseCommandLine(setting.command, port);
      } catch (e) {
        throw new AppError({
          kind: 'Invalid',
          field: 'command',
          message: e instanceof Error ? e.message : 'The tunnel command could not be read.',
        });
      }
    }
    if (setting.provider === 'none')
      throw new AppError({ kind: 'Invalid', field: 'provider', message: 'Choose a tunnel program or enter a command first.' });
    const found = available.find((a) => a.provider === setting.provider);
    if (!found) {
      throw new AppError({
        kind: 'NotFound',
        message: `${setting.provider} was not found on PATH. Install it, or choose "Custom command" and enter how to run it.`,
      });
    }
    return buildTunnelCommand(setting.provider, port, found.path);
  }

  /** `local`: register the listener's local address again (not when the workspace or the console closes). */
  async function stopRunner(local = true): Promise<void> {
    const r = runner;
    runner = null;
    runnerPort = null;
    if (r) {
      await r.stop();
      live.listener?.allowHost(null);
      // Nothing forwards to the tunnel's address any more.
      if (local) await live.setPublicUrl(null);
    }
    tunnelState = { status: 'stopped' };
  }

  async function runTunnel(port: number): Promise<void> {
    await stopRunner();
    const setting = tunnelSetting();
    if (setting.provider !== 'custom') await refreshAvailable();
    const command = commandFor(setting, port);
    const urlTemplate =
      setting.provider === 'custom' && setting.urlTemplate ? fillPlaceholders(setting.urlTemplate, { port: String(port) }) : undefined;
    const r = superviseTunnel({
      start: () => startTunnel({ command, env, log: ctx.log, ...(urlTemplate ? { urlTemplate } : {}) }),
      check: async (url) => {
        const l = live.listener;
        if (!l) return 'The listener is not running.';
        // ssh cannot rewrite Host: requests arrive naming the tunnel's host, which is ours.
        l.allowHost(new URL(url).host);
        return checkThroughTunnel(`${url}${l.path}`, live.signingSecret);
      },
      onLive: async (url) => {
        const l = live.listener;
        if (l) await live.setPublicUrl(`${url}${l.path}`);
      },
      ...(o.tunnelCheckEveryMs ? { checkEveryMs: o.tunnelCheckEveryMs } : {}),
      log: ctx.log,
    });
    runner = r;
    runnerPort = port;
    tunnelState = r.state;
    r.onState((s) => {
      if (runner !== r) return;
      tunnelState = s;
      pushStatus();
    });
    pushStatus();
  }

  const serialTunnel = (f: () => Promise<void>): Promise<void> => {
    tunnelChange = tunnelChange.then(f, f);
    return tunnelChange;
  };

  /** Keeps a wanted tunnel pointed at the listener's current port. */
  const followListener = () =>
    serialTunnel(async () => {
      const port = live.listener?.port ?? null;
      if (!tunnelWanted) return;
      if (port === null) {
        if (runner) await stopRunner();
        pushStatus();
      } else if (!runner || runnerPort !== port) {
        await runTunnel(port).catch((e: unknown) => {
          tunnelState = { status: 'failed', reason: errorText(e) };
          pushStatus();
        });
      }
    });

  const offChange = live.onChange(() => {
    pushStatus();
    if (tunnelWanted && (live.listener?.port ?? null) !== runnerPort) void followListener();
  });
  // After sleep the tunnel's connection is most likely dead: start it again rather than wait for a check.
  const offWake = live.onWake(() => runner?.wake());

  return {
    handlers: {
      'webhooks:status': async () => {
        await refreshAvailable();
        return status();
      },
      'webhooks:setPort': async ({ port }) => {
        await live.setPort(port);
        return status();
      },
      'webhooks:setSigning': async ({ enabled }) => {
        const newSecret = await live.setSigning(enabled);
        return { status: status(), newSecret };
      },
      'webhooks:newSecret': async () => {
        const newSecret = await live.setSigning(true);
        return { status: status(), newSecret };
      },
      'webhooks:setTunnel': async ({ provider, command, urlTemplate }) => {
        const custom = provider === 'custom';
        const previous = tunnelSetting();
        const next: TunnelSetting = {
          provider: provider,
          command: custom ? command.trim() : '',
          urlTemplate: custom ? (urlTemplate ?? '').trim() : '',
          confirmed: null,
        };
        if (custom && !next.command) {
          throw new AppError({
            kind: 'Invalid',
            field: 'command',
            message: 'Enter the tunnel command, for example: cloudflared tunnel --url http://127.0.0.1:{port}',
          });
        }
        if (custom) {
          commandFor(next, 1);
          checkUrlTemplate(next.urlTemplate);
          // The same command line as the one confirmed stays confirmed.
          if (previous.confirmed === next.command) next.confirmed = next.command;
        }
        await serialTunnel(async () => {
          ctx.settings.set(TUNNEL_SETTING, next);
          // A running tunnel was started from the previous choice: stop it; the user starts the new one.
          tunnelWanted = false;
          await stopRunner();
        });
        return status();
      },
      'webhooks:startTunnel': async ({ confirm }) => {
        await serialTunnel(async () => {
          const port = live.listener?.port;
          if (port === undefined) {
            throw new AppError({
              kind: 'Unavailable',
              message: 'The listener is not running, so there is nothing to expose. Start live updates first.',
            });
          }
          const setting = tunnelSetting();
          if (setting.provider === 'custom' && setting.confirmed !== setting.command) {
            if (confirm !== setting.command) {
              throw new AppError({
                kind: 'Invalid',
                field: 'command',
                message: 'Confirm the tunnel command before it runs: it changed since it was last confirmed.',
              });
            }
            ctx.settings.set(TUNNEL_SETTING, { ...setting, confirmed: setting.command });
          }
          await runTunnel(port);
          tunnelWanted = true;
        });
        return status();
      },
      'webhooks:stopTunnel': async () => {
        await serialTunnel(async () => {
          tunnelWanted = false;
          await stopRunner();
        });
        return status();
      },
      'webhooks:log': async (filter) => {
        const f = {
          ...(filter.group ? { group: filter.group } : {}),
          ...(filter.type ? { type: filter.type } : {}),
          ...(filter.text ? { text: filter.text } : {}),
          limit: filter.limit ?? EVENT_LOG_ROWS,
        };
        return { entries: live.eventLog(f).map((e) => rowOfEntry(e, PUSHED_RAW_CHARS)) };
      },
      'webhooks:entry': async ({ id }) => {
        const found = live.eventLog().find((e) => e.id === id);
        return { entry: found ? rowOfEntry(found) : null };
      },
    },
    async start() {
      await refreshAvailable();
    },
    async stop() {
      offReceived();
      offChange();
      offWake();
      if (statusTimer) clearTimeout(statusTimer);
      if (rowsTimer) clearTimeout(rowsTimer);
      tunnelWanted = false;
      await serialTunnel(() => stopRunner(false)).catch(() => undefined);
    },
  };
}
