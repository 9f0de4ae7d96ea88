import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { channels, type ChannelOutput } from '../../../src-shared/bridge';
import { isTemporary } from '../../../src-shared/error-kinds';
import { ConnectivityMonitor, OfflineCache } from '../../cache';
import type { Feature, FeatureContext } from '../context';
import { errorText } from '../../../src-shared/error-text';

/**
 * Answers of the service the page's first view needs and that seldom change; each channel is
 * also the event that brings the page a changed answer.
 */
export type KeptChannel = 'attendance:directory' | 'supervisor:rules';

export interface OfflineFeature extends Feature<'offline'> {
  /** The copies of the queue and the threads, served when the service cannot be reached. */
  readonly cache: OfflineCache;
  readonly monitor: ConnectivityMonitor;
  /** Called each time the service answers again after being unreachable. */
  onBack(listener: () => void): () => void;
  /**
   * `read` behind the answer kept from its last run. While the page starts (its first view not
   * shown yet) the kept answer is given, so that view calls nothing at the service, and `read`
   * runs once the view is shown: a different answer reaches the page as the event `channel`.
   * Otherwise `read` runs and its answer is kept; the kept one stands in while the service
   * cannot be reached.
   */
  kept<K extends KeptChannel>(channel: K, read: () => Promise<ChannelOutput<K>>): Promise<ChannelOutput<K>>;
  /** The console changed what the kept answer says (the attendant paused): the copy says it too. */
  amendKept<K extends KeptChannel>(channel: K, change: (kept: ChannelOutput<K>) => ChannelOutput<K>): void;
}

/** Who the copies belong to: the workspace and the attendant (null when signed out). */
export function scopeOf(ctx: FeatureContext): string | null {
  // Nobody identified yet keeps nothing: the next unidentified account would find it.
  if (!ctx.hasWorkspace() || !ctx.me()) return null;
  const ws = ctx.settings.get('workspace');
  const where = ws?.kind === 'remote' ? ws.baseUrl : (ws?.kind ?? 'unknown');
  return `${where}|${ctx.me()?.userName ?? ''}`;
}

/** The one connectivity monitor, probing the service with its cheapest call while someone is signed in. */
function probingMonitor(ctx: FeatureContext, log: (message: string, detail?: unknown) => void): ConnectivityMonitor {
  return new ConnectivityMonitor({
    // The cheapest call any role may make (the same one that checks a token at sign-in).
    probe: async (signal) => {
      // One attempt: the monitor paces its own probes (and waits out a Retry-After).
      await ctx.client().resource('userSession').list({ conditions: [], sort: false, page: 0, size: 1 }, { signal, attempts: 1 });
    },
    canProbe: () => ctx.hasWorkspace(),
    log,
  });
}

/** The page hears each change of connectivity; `backListeners` hear the service answer again after being offline. */
function announceBack(ctx: FeatureContext, monitor: ConnectivityMonitor, backListeners: Set<() => void>): void {
  let wasOffline = false;
  monitor.subscribe((c) => {
    ctx.events.emit('offline:status', c);
    if (c.state === 'offline') wasOffline = true;
    else if (wasOffline) {
      wasOffline = false;
      ctx.log.info('the service answers again');
      for (const l of backListeners) l();
    }
  });
}

/**
 * Offline tolerance: one connectivity monitor every feature reports to, and the on-disk copies
 * (`<workspace folder>/offline-cache`) the queue, thread and notes features serve while it says offline.
 */
export function createOfflineFeature(ctx: FeatureContext): OfflineFeature {
  const log = (message: string, detail?: unknown) => ctx.log.warn(message, { detail: detail instanceof Error ? detail.message : detail });
  const cache = new OfflineCache({ dir: join(ctx.profileDir, 'offline-cache'), log });
  const monitor = probingMonitor(ctx, log);
  const backListeners = new Set<() => void>();
  const refreshing = new Set<KeptChannel>();
  const keptCopy = <K extends KeptChannel>(channel: K): ChannelOutput<K> | null => {
    const k = cache.answer(channel);
    const parsed = k ? channels[channel].output.safeParse(k.value) : null;
    return parsed?.success ? (parsed.data as ChannelOutput<K>) : null;
  };
  const readAndKeep = async <K extends KeptChannel>(channel: K, read: () => Promise<ChannelOutput<K>>): Promise<ChannelOutput<K>> => {
    const value = await read();
    cache.keepAnswer(channel, value);
    return value;
  };
  announceBack(ctx, monitor, backListeners);

  return {
    cache,
    monitor,
    onBack(listener) {
      backListeners.add(listener);
      return () => backListeners.delete(listener);
    },
    amendKept(channel, change) {
      const copy = keptCopy(channel);
      if (copy) cache.keepAnswer(channel, change(copy));
    },
    async kept(channel, read) {
      const copy = keptCopy(channel);
      if (copy && !ctx.firstView.opened) {
        if (!refreshing.has(channel)) {
          refreshing.add(channel);
          void ctx.firstView.shown
            .then(() => readAndKeep(channel, read))
            .then((fresh) => {
              if (!isDeepStrictEqual(fresh, copy)) ctx.events.emit(channel, fresh);
            })
            .catch((e: unknown) => ctx.log.warn('a kept answer was not read again', { channel, error: errorText(e) }))
            .finally(() => refreshing.delete(channel));
        }
        return copy;
      }
      try {
        return await readAndKeep(channel, read);
      } catch (e) {
        if (copy && isTemporary(e)) return copy;
        throw e;
      }
    },
    handlers: {
      'offline:status': async () => monitor.status(),
      'offline:retry': () => monitor.probeNow(),
    },
    async start() {
      await cache.load();
      // Another account signed in: the copies kept for the one before go (personal data).
      if (ctx.hasWorkspace()) await cache.setScope(scopeOf(ctx));
      monitor.start();
    },
    async stop() {
      monitor.stop();
      await cache.flush();
    },
  };
}
