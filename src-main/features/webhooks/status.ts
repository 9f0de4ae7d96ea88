import { BUILT_IN_TUNNELS, type ListenerStatus } from '../../../src-shared/bridge/webhooks';
import type { TunnelSetting } from '../../settings';
import { buildTunnelCommand, installHint, parseCommandLine, TUNNEL_PROGRAMS, type WebhookListener } from '../../webhooks';
import type { FeatureContext } from '../context';
import type { LiveFeature } from '../live';
import type { TunnelControl } from './tunnel-control';

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

/** The tunnel's part of the listener's status: the user's choice, the programs found and how it runs. */
function tunnelStatus(tunnel: TunnelControl, l: WebhookListener | null): ListenerStatus['tunnel'] {
  const t = tunnel.setting();
  const t0 = tunnel.state;
  const available = tunnel.available;
  return {
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
    url: t0.status === 'running' || t0.status === 'starting' ? (t0.url ?? null) : null,
    reason: t0.status === 'failed' || t0.status === 'restarting' ? t0.reason : null,
    retryAt: t0.status === 'restarting' ? t0.at : null,
    checkedAt: t0.status === 'running' ? t0.checkedAt : null,
    // Only once a self-check came back through it: the address that is known to work.
    publicUrl: t0.status === 'running' && l ? `${t0.url}${l.path}` : null,
  };
}

/** The listener as the settings page shows it: its state, address, counts and tunnel. */
export function listenerStatus(ctx: FeatureContext, live: LiveFeature, tunnel: TunnelControl): ListenerStatus {
  const l = live.listener;
  const r = live.refusals();
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
    tunnel: tunnelStatus(tunnel, l),
  };
}
