import type { WebhookEvent } from '../../../src-shared/webhook';
import type { SyncEngine } from '../../sync/engine';
import type { Feature, FeatureContext } from '../context';
import type { NotesFeature } from '../notes';
import type { OfflineFeature } from '../offline';
import type { BadgeSlot } from './badge';
import { closeHandlers } from './close';
import { Composer, composerHandlers } from './composer';
import { DirectoryCache, directoryHandlers } from './directory';
import { ChatFiles, fileHandlers, type FileLender } from './files';
import { mediaHandlers, type LinkOpener } from './media';
import { News } from './news';
import type { QueueFeature } from './queue';
import { sessionHandlers } from './session-actions';
import { threadPage, type StampedMessage, type StampedSession } from './reads';
import { Replies } from './reply';
import { createThreads, threadHandlers } from './thread';
import { snoozeHandlers, type SnoozeStore } from './snooze';

export interface AttendanceFeature {
  handlers: Feature<'attendance'>['handlers'];
  /** A webhook event (a hint): what it names is read again from the service; resolves once read, rejects when it could not be. */
  onEvent(e: WebhookEvent): Promise<void>;
  /** After a gap: every open session from its high-water mark, and the queue from its own. */
  resync(): Promise<{ found: number; errors: unknown[] }>;
  readonly sync: SyncEngine<StampedMessage, StampedSession>;
  start?(): Promise<void>;
  stop(): Promise<void>;
}

export interface AttendanceDeps {
  queue: QueueFeature;
  notes: NotesFeature;
  offline: OfflineFeature;
  /** The attention badge the platform shows (the dock or taskbar count). */
  badge: BadgeSlot;
  /** The system browser, for links in messages. */
  openLink: LinkOpener;
  /** The attendant's snoozed sessions (the queue reads them too). */
  snooze: SnoozeStore;
  /** Lends a chat file at the console's public address (the live feature). */
  lender: FileLender;
}

/**
 * The attendance slice: its parts live beside this file (the queue's actions, the open threads,
 * what arrives unasked, replies, the composer, the close, the directory and the attendant's
 * status); this function only builds them and joins their handlers.
 */
export function createAttendanceFeature(ctx: FeatureContext, deps: AttendanceDeps): AttendanceFeature {
  const { queue, notes, offline, badge, openLink, snooze, lender } = deps;
  const directory = new DirectoryCache(ctx, queue.groups);
  const composer = new Composer(ctx);
  const threads = createThreads(ctx);
  const news = new News(ctx, { queue, offline, threads });
  const { sync } = news;
  const replies = new Replies(ctx, { threads, sync, offline });
  const files = new ChatFiles(ctx, { lender, replies, queue, directory, offline, threads });

  // The service's zone became known: the open threads' times moved; they are read again and
  // pushed (the page replaces messages by id).
  ctx.onServiceZoneChange(async () => {
    for (const sessionId of [...threads.open.keys()]) {
      const page = await threadPage(ctx.client(), sessionId, 0, threads.parties.get(sessionId));
      if (threads.open.has(sessionId) && page.messages.length)
        ctx.events.emit('attendance:messages', { sessionId, messages: page.messages });
    }
  });
  const handlers: Feature<'attendance'>['handlers'] = {
    ...queue.handlers,
    ...sessionHandlers(ctx, { queue, directory, notes }),
    ...directoryHandlers(ctx, directory, offline),
    ...threadHandlers(ctx, { threads, sync, queue, offline }),
    ...composerHandlers(ctx, { composer, replies, threads, queue, notes, offline }),
    ...closeHandlers(ctx, { directory, composer, threads, queue, notes }),
    ...mediaHandlers(ctx, openLink, (url) => files.sentCopy(url)),
    ...snoozeHandlers(ctx, { queue, snooze }),
    ...fileHandlers(files),
    'attendance:badge': async ({ count }) => ({ count: badge.set(count) }),
    // The queue column as the attendant widened it, kept with the workspace's settings (across restarts).
    'attendance:queueWidth': async ({ width }) => {
      if (width !== undefined) ctx.settings.set('queueWidth', width);
      return { width: ctx.settings.get('queueWidth') };
    },
  };

  return {
    handlers,
    sync,
    onEvent: (e) => news.onEvent(e),
    resync: () => news.resync(),
    // The one wake timer runs while this sign-in does.
    async start() {
      snooze.start();
    },
    async stop() {
      news.stop();
      await snooze.stop();
    },
  };
}
