import { join } from 'node:path';
import { ConnectivityMonitor, OfflineCache } from '../../cache';
import type { Feature, FeatureContext } from '../context';

export interface OfflineFeature extends Feature<'offline'> {
  /** The copies of the queue and the threads, served when the service cannot be reached. */
  readonly cache: OfflineCache;
  readonly monitor: ConnectivityMonitor;
  /** Called each time the service answers again after being unreachable. */
  onBack(listener: () => void): () => void;
}

/** Who the copies belong to: the workspace and the attendant (null when signed out). */
export function scopeOf(ctx: FeatureContext): string | null {
  if (!ctx.hasWorkspace()) return null;
  const ws = ctx.settings.get('workspace');
  const where = ws?.kind === 'remote' ? ws.baseUrl : (ws?.kind ?? 'unknown');
  return `${where}|${ctx.me()?.userName ?? ''}`;
}

/**
 * Offline tolerance: one connectivity monitor every feature reports to, and the on-disk copies
 * (`<workspace folder>/offline-cache`) the queue, thread and notes features serve while it says offline.
 */
export function createOfflineFeature(ctx: FeatureContext): OfflineFeature {
  const log = (message: string, detail?: unknown) => ctx.log.warn(message, { detail: detail instanceof Error ? detail.message : detail });
  const cache = new OfflineCache({ dir: join(ctx.profileDir, 'offline-cache'), log });
  const monitor = new ConnectivityMonitor({
    // The cheapest call any role may make (the same one that checks a token at sign-in).
    probe: async (signal) => {
      await ctx.client().resource('userSession').list({ conditions: [], sort: false, page: 0, size: 1 }, { signal });
    },
    canProbe: () => ctx.hasWorkspace(),
    log,
  });
  const backListeners = new Set<() => void>();
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
  ctx.onWorkspaceChange(async () => {
    wasOffline = false;
    monitor.reset();
    // Signed out: every copy goes (personal data); another account: the other account's go.
    await cache.setScope(scopeOf(ctx));
  });

  return {
    cache,
    monitor,
    onBack(listener) {
      backListeners.add(listener);
      return () => backListeners.delete(listener);
    },
    handlers: {
      'offline:status': async () => monitor.status(),
      'offline:retry': () => monitor.probeNow(),
    },
    async start() {
      await cache.load();
      monitor.start();
    },
    async stop() {
      monitor.stop();
      await cache.flush();
    },
  };
}
