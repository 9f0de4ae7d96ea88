import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import type { LiveStatus } from '../../src-shared/bridge/attendance';
import { isAppError, toErrorInfo } from '../../src-shared/errors';
import { V2 } from '../../src-shared/paths';
import type { WebhookEvent } from '../../src-shared/webhook';
import { newPathSecret, startWebhookListener, type WebhookListener } from '../webhooks';
import type { HandlerTable } from '../bridge/table';
import type { FeatureContext } from './context';

type LiveChannel = 'live:status' | 'live:setRunning' | 'live:resync';

export interface LiveFeature {
  handlers: Pick<HandlerTable, LiveChannel>;
  /** The running listener, if any (for an event-log view). */
  readonly listener: WebhookListener | null;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface LiveDeps {
  /** Each accepted event with a known envelope, in order. */
  onEvent(e: WebhookEvent): void;
  /** A gap may have happened (listener (re)started, machine woke up): read everything forward. */
  onResync(): Promise<void>;
}

const PORT_SETTING = 'webhookPort';
const PAUSED_SETTING = 'liveUpdatesPaused';
const SECRET_PATH = 'webhook:path';
const SECRET_SIGNING = 'webhook:signing';
/** A safety net under the events: open threads and the queue are read forward this often. */
const POLL_MS = 30_000;
/** A tick arriving this late means the machine slept (or the process was frozen). */
const TICK_MS = 5_000;
const SLEEP_GAP_MS = 20_000;

const HookSchema = z.object({ id: z.number().int(), url: z.string() }).loose();
const HookListSchema = z.object({ results: z.array(HookSchema) }).loose();

/**
 * Live updates: runs the loopback webhook listener while a workspace is open, registers it with
 * the demo workspace's stand-in, and feeds its events to the sync engine as hints. A listener
 * restart, a wake from sleep and a periodic tick all trigger a resync from the high-water marks.
 */
export function createLiveFeature(ctx: FeatureContext, deps: LiveDeps): LiveFeature {
  let listener: WebhookListener | null = null;
  let hookId: number | null = null;
  let state: LiveStatus['state'] = 'idle';
  let detail: string | null = null;
  let lastEventAt: number | null = null;
  let lastResyncAt: number | null = null;
  let accepted = 0;
  let poll: ReturnType<typeof setInterval> | null = null;
  let tick: ReturnType<typeof setInterval> | null = null;
  let lastTick = Date.now();
  let changing: Promise<void> = Promise.resolve();

  const status = (): LiveStatus => ({
    state,
    url: listener?.url ?? null,
    signed: listener?.signatureMode === 'required',
    registered: hookId !== null,
    detail,
    lastEventAt,
    lastResyncAt,
    accepted,
  });
  let statusTimer: ReturnType<typeof setTimeout> | null = null;
  const pushStatus = () => {
    // Coalesced: a burst of events updates the indicator once.
    if (statusTimer) return;
    statusTimer = setTimeout(() => {
      statusTimer = null;
      ctx.events.emit('live:status', status());
    }, 16);
    statusTimer.unref?.();
  };

  function secret(name: string, make: () => string): string {
    const existing = ctx.vault.get(name);
    if (existing) return existing;
    const value = make();
    try {
      ctx.vault.put(name, value);
    } catch {
      // Without a keyring the secret lives for this run; the demo hook is registered again anyway.
      ctx.vault.put(name, value, { persist: false });
    }
    ctx.registerSecret(value);
    return value;
  }

  async function hookCall(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
    const sb = ctx.sandbox();
    const token = ctx.vault.get('token');
    if (!sb || !token) return null;
    const res = await fetch(`${sb.baseUrl}${V2}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(5_000),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`hook ${method} answered ${res.status}`);
    return text ? JSON.parse(text) : null;
  }

  const isDemo = () => (ctx.settings.get('workspace') as { kind?: string } | undefined)?.kind === 'demo' && ctx.sandbox() !== null;

  async function register(l: WebhookListener, signingSecret: string): Promise<void> {
    if (!isDemo()) return;
    // Hooks of an earlier run of this console (the demo workspace keeps its data) are dead ends.
    const listed = HookListSchema.safeParse(await hookCall('GET', '/hook'));
    if (listed.success) {
      for (const h of listed.data.results) {
        if (h.url.startsWith('http://127.0.0.1:') && h.url.includes('/hooks/')) await hookCall('DELETE', `/hook/${h.id}`).catch(() => undefined);
      }
    }
    const made = HookSchema.safeParse(await hookCall('POST', '/hook', { url: l.url, secret: signingSecret }));
    hookId = made.success ? made.data.id : null;
  }

  async function unregister(): Promise<void> {
    if (hookId === null) return;
    const id = hookId;
    hookId = null;
    await hookCall('DELETE', `/hook/${id}`).catch(() => undefined);
  }

  async function resync(): Promise<void> {
    try {
      await deps.onResync();
      lastResyncAt = Date.now();
    } catch (e) {
      ctx.log.warn('resync failed', { error: e instanceof Error ? e.message : String(e) });
    }
    pushStatus();
  }

  async function open(): Promise<void> {
    if (listener || !ctx.hasWorkspace()) return;
    const stored = ctx.settings.get(PORT_SETTING);
    const port = typeof stored === 'number' && Number.isInteger(stored) ? stored : 0;
    const pathSecret = secret(SECRET_PATH, newPathSecret);
    const signingSecret = secret(SECRET_SIGNING, () => `whsec_${randomBytes(32).toString('base64')}`);
    try {
      listener = await startWebhookListener({
        port,
        pathSecret,
        signingSecret,
        stateDir: join(ctx.profileDir, 'webhooks'),
        log: ctx.log,
        onEvent: (e) => {
          accepted++;
          lastEventAt = Date.now();
          if (e.event && e.known) deps.onEvent(e.event);
          pushStatus();
        },
      });
      state = 'running';
      detail = null;
    } catch (e) {
      state = 'failed';
      detail = toErrorInfo(e).message;
      pushStatus();
      return;
    }
    try {
      await register(listener, signingSecret);
    } catch (e) {
      detail = `Live updates could not be registered with the demo workspace (${e instanceof Error ? e.message : String(e)}).`;
    }
    pushStatus();
    // Whatever happened while no listener ran is read now, from each high-water mark.
    await resync();
  }

  async function close(): Promise<void> {
    await unregister();
    const l = listener;
    listener = null;
    await l?.close();
  }

  const serial = (f: () => Promise<void>): Promise<void> => {
    changing = changing.then(f, f);
    return changing;
  };

  ctx.onWorkspaceChange(() =>
    serial(async () => {
      await close();
      state = 'idle';
      if (ctx.hasWorkspace() && ctx.settings.get(PAUSED_SETTING) !== true) await open();
      else if (ctx.hasWorkspace()) state = 'stopped';
      pushStatus();
    }),
  );

  return {
    get listener() {
      return listener;
    },
    handlers: {
      'live:status': async () => status(),
      'live:setRunning': async ({ running }) => {
        await serial(async () => {
          ctx.settings.set(PAUSED_SETTING, !running);
          if (running) await open();
          else {
            await close();
            state = 'stopped';
          }
        });
        pushStatus();
        return status();
      },
      'live:resync': async () => {
        await resync();
        return status();
      },
    },
    async start() {
      lastTick = Date.now();
      poll = setInterval(() => {
        if (listener) void resync();
      }, POLL_MS);
      poll.unref?.();
      tick = setInterval(() => {
        const now = Date.now();
        const gap = now - lastTick;
        lastTick = now;
        if (gap > SLEEP_GAP_MS && ctx.hasWorkspace()) void resync();
      }, TICK_MS);
      tick.unref?.();
    },
    async stop() {
      if (poll) clearInterval(poll);
      if (tick) clearInterval(tick);
      if (statusTimer) clearTimeout(statusTimer);
      await serial(close).catch((e: unknown) => {
        if (!isAppError(e)) ctx.log.warn('live: close failed', { error: e instanceof Error ? e.message : String(e) });
      });
    },
  };
}
