import { EVENT_LOG_ROWS, PUSHED_RAW_CHARS } from '../../../src-shared/bridge/webhooks';
import type { Feature, FeatureContext } from '../context';
import type { LiveFeature } from '../live';
import { EventRowFeed, PUSH_MS, rowOfEntry } from './event-rows';
import { listenerStatus } from './status';
import { TunnelControl } from './tunnel-control';

export type WebhooksFeature = Feature<'webhooks'>;

export interface WebhooksOptions {
  /** Where tunnel programs are looked up and what they run with (tests pass their own). */
  env?: NodeJS.ProcessEnv;
  /** Between the tunnel's self-checks while live (default 10 s). */
  tunnelCheckEveryMs?: number;
}

/**
 * The listener's status pushed to the page: already coalesced by live.ts (~100 ms), this only
 * merges a tunnel change into the same push.
 */
class StatusPush {
  #timer: ReturnType<typeof setTimeout> | null = null;
  constructor(readonly emit: () => void) {}

  push(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.emit();
    }, PUSH_MS);
    this.#timer.unref?.();
  }

  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
  }
}

/**
 * The webhook listener as the user manages it: its settings (through live.ts, which runs it),
 * the tunnel that exposes it to the service, and its event log, pushed to the renderer in
 * batches of about one frame.
 */
export function createWebhooksFeature(ctx: FeatureContext, live: LiveFeature, o: WebhooksOptions = {}): WebhooksFeature {
  const rows = new EventRowFeed(live, ctx.events);
  const statusPush = new StatusPush(() => ctx.events.emit('webhooks:status', status()));
  const tunnel = new TunnelControl({
    ctx,
    live,
    env: o.env ?? process.env,
    checkEveryMs: o.tunnelCheckEveryMs,
    onChange: () => statusPush.push(),
  });
  const status = () => listenerStatus(ctx, live, tunnel);

  return {
    handlers: {
      'webhooks:status': async () => {
        await tunnel.refreshAvailable();
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
      'webhooks:setTunnel': async (choice) => {
        await tunnel.choose(choice);
        return status();
      },
      'webhooks:startTunnel': async ({ confirm }) => {
        await tunnel.start(confirm);
        return status();
      },
      'webhooks:stopTunnel': async () => {
        await tunnel.stop();
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
      await tunnel.refreshAvailable();
    },
    async stop() {
      rows.dispose();
      statusPush.dispose();
      await tunnel.dispose();
    },
  };
}
