import { AppError } from '../../../src-shared/errors';
import type { TunnelSetting } from '../../settings';
import {
  buildTunnelCommand,
  checkThroughTunnel,
  detectTunnels,
  parseCommandLine,
  startTunnel,
  superviseTunnel,
  type SupervisedTunnelState,
  type TunnelCommand,
  type TunnelProvider,
  type TunnelSupervisor,
} from '../../webhooks';
import type { FeatureContext } from '../context';
import { errorText } from '../../../src-shared/error-text';
import { fillPlaceholders } from '../../../src-shared/template';
import type { LiveFeature } from '../live';

export const TUNNEL_SETTING = 'webhookTunnel';

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
 * The tunnel that exposes the listener to the service, as the user controls it: which programs
 * are installed, the running supervisor and the port it forwards to. Once the user started it,
 * it follows the listener (restarts on a new port, stops with it). Changes run one at a time.
 */
export class TunnelControl {
  readonly #ctx: FeatureContext;
  readonly #live: LiveFeature;
  readonly #env: NodeJS.ProcessEnv;
  readonly #checkEveryMs: number | undefined;
  readonly #onChange: () => void;
  /** Tunnel programs found on PATH. */
  available: Array<{ provider: TunnelProvider; path: string }> = [];
  #runner: TunnelSupervisor | null = null;
  #runnerPort: number | null = null;
  #state: SupervisedTunnelState = { status: 'stopped' };
  /** The user started the tunnel: it follows the listener (restarts on a new port, stops with it). */
  #wanted = false;
  #changing: Promise<void> = Promise.resolve();
  readonly #offs: Array<() => void>;

  constructor(o: {
    ctx: FeatureContext;
    live: LiveFeature;
    env: NodeJS.ProcessEnv;
    checkEveryMs?: number | undefined;
    onChange: () => void;
  }) {
    this.#ctx = o.ctx;
    this.#live = o.live;
    this.#env = o.env;
    this.#checkEveryMs = o.checkEveryMs;
    this.#onChange = o.onChange;
    this.#offs = [
      o.live.onChange(() => {
        this.#onChange();
        if (this.#wanted && (this.#live.listener?.port ?? null) !== this.#runnerPort) void this.#followListener();
      }),
      // After sleep the tunnel's connection is most likely dead: start it again rather than wait for a check.
      o.live.onWake(() => this.#runner?.wake()),
    ];
  }

  get state(): SupervisedTunnelState {
    return this.#state;
  }

  setting(): TunnelSetting {
    return this.#ctx.settings.get(TUNNEL_SETTING);
  }

  async refreshAvailable(): Promise<void> {
    try {
      this.available = await detectTunnels(this.#env);
    } catch {
      this.available = [];
    }
  }

  #commandFor(setting: TunnelSetting, port: number): TunnelCommand {
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
    const found = this.available.find((a) => a.provider === setting.provider);
    if (!found) {
      throw new AppError({
        kind: 'NotFound',
        message: `${setting.provider} was not found on PATH. Install it, or choose "Custom command" and enter how to run it.`,
      });
    }
    return buildTunnelCommand(setting.provider, port, found.path);
  }

  /** `local`: register the listener's local address again (not when the workspace or the console closes). */
  async #stopRunner(local = true): Promise<void> {
    const r = this.#runner;
    this.#runner = null;
    this.#runnerPort = null;
    if (r) {
      await r.stop();
      this.#live.listener?.allowHost(null);
      // Nothing forwards to the tunnel's address any more.
      if (local) await this.#live.setPublicUrl(null);
    }
    this.#state = { status: 'stopped' };
  }

  async #runTunnel(port: number): Promise<void> {
    await this.#stopRunner();
    const setting = this.setting();
    if (setting.provider !== 'custom') await this.refreshAvailable();
    const command = this.#commandFor(setting, port);
    const urlTemplate =
      setting.provider === 'custom' && setting.urlTemplate ? fillPlaceholders(setting.urlTemplate, { port: String(port) }) : undefined;
    const live = this.#live;
    const log = this.#ctx.log;
    const r = superviseTunnel({
      start: () => startTunnel({ command, env: this.#env, log, ...(urlTemplate ? { urlTemplate } : {}) }),
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
      ...(this.#checkEveryMs ? { checkEveryMs: this.#checkEveryMs } : {}),
      log,
    });
    this.#runner = r;
    this.#runnerPort = port;
    this.#state = r.state;
    r.onState((s) => {
      if (this.#runner !== r) return;
      this.#state = s;
      this.#onChange();
    });
    this.#onChange();
  }

  #serial(f: () => Promise<void>): Promise<void> {
    this.#changing = this.#changing.then(f, f);
    return this.#changing;
  }

  /** Keeps a wanted tunnel pointed at the listener's current port. */
  #followListener(): Promise<void> {
    return this.#serial(async () => {
      const port = this.#live.listener?.port ?? null;
      if (!this.#wanted) return;
      if (port === null) {
        if (this.#runner) await this.#stopRunner();
        this.#onChange();
      } else if (!this.#runner || this.#runnerPort !== port) {
        await this.#runTunnel(port).catch((e: unknown) => {
          this.#state = { status: 'failed', reason: errorText(e) };
          this.#onChange();
        });
      }
    });
  }

  /** Saves the user's choice of tunnel (checked first); a running tunnel stops, the user starts the new one. */
  async choose(c: { provider: TunnelSetting['provider']; command: string; urlTemplate?: string | undefined }): Promise<void> {
    const custom = c.provider === 'custom';
    const previous = this.setting();
    const next: TunnelSetting = {
      provider: c.provider,
      command: custom ? c.command.trim() : '',
      urlTemplate: custom ? (c.urlTemplate ?? '').trim() : '',
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
      this.#commandFor(next, 1);
      checkUrlTemplate(next.urlTemplate);
      // The same command line as the one confirmed stays confirmed.
      if (previous.confirmed === next.command) next.confirmed = next.command;
    }
    await this.#serial(async () => {
      this.#ctx.settings.set(TUNNEL_SETTING, next);
      // A running tunnel was started from the previous choice: stop it; the user starts the new one.
      this.#wanted = false;
      await this.#stopRunner();
    });
  }

  /** The user starts the tunnel (`confirm`: the custom command they confirmed). */
  async start(confirm: string | undefined): Promise<void> {
    await this.#serial(async () => {
      const port = this.#live.listener?.port;
      if (port === undefined) {
        throw new AppError({
          kind: 'Unavailable',
          message: 'The listener is not running, so there is nothing to expose. Start live updates first.',
        });
      }
      const setting = this.setting();
      if (setting.provider === 'custom' && setting.confirmed !== setting.command) {
        if (confirm !== setting.command) {
          throw new AppError({
            kind: 'Invalid',
            field: 'command',
            message: 'Confirm the tunnel command before it runs: it changed since it was last confirmed.',
          });
        }
        this.#ctx.settings.set(TUNNEL_SETTING, { ...setting, confirmed: setting.command });
      }
      await this.#runTunnel(port);
      this.#wanted = true;
    });
  }

  /** The user stops the tunnel. */
  async stop(): Promise<void> {
    await this.#serial(async () => {
      this.#wanted = false;
      await this.#stopRunner();
    });
  }

  /** The workspace or the console closes: the tunnel stops, the local address is not registered again. */
  async dispose(): Promise<void> {
    for (const off of this.#offs) off();
    this.#wanted = false;
    await this.#serial(() => this.#stopRunner(false)).catch(() => undefined);
  }
}
