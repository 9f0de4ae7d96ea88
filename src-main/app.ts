import { join } from 'node:path';
import type { EventPayload } from '../src-shared/bridge';
import { EventHub, type HandlerTable, type Router } from './bridge/table';
import type { KeyValueStore, SecretCipher } from './vault/types';
import { POLL_PACE, type PollPace } from './features/live/poll-pace';
import type { Logger } from './log';
import type { Standin } from '../src-standin/index';
import { DemoStandin, demoLauncher } from './demo-standin';
import { createSettings } from './settings';
import type { FeatureContext } from './features/context';
import { createOfflineFeature } from './features/offline';
import { createQueueFeature } from './features/attendance/queue';
import { createNotesFeature } from './features/notes';
import { createAttendanceFeature } from './features/attendance';
import { SnoozeStore } from './features/attendance/snooze';
import type { LinkOpener } from './features/attendance/media';
import { createBadgeSlot, type BadgeSlot } from './features/attendance/badge';
import { createVoiceFeature } from './features/voice';
import { createMediaPermissionSlot, type MediaPermissionSlot } from './features/voice/permission';
import { createLiveFeature } from './features/live';
import { createWebhooksFeature } from './features/webhooks';
import { createSupervisorFeature } from './features/supervisor';
import { createPaletteFeature } from './features/palette';
import { createHistoryFeature } from './features/history';
import { WorkspaceFeature } from './features/workspace';
import { createWorkspaceRuntime, type WorkspaceFeatures, type WorkspaceRuntime } from './workspaces/runtime';
import { WorkspaceList } from './workspaces/list';
import { adoptSingleWorkspace, workspaceDir } from './workspaces/registry';
import { storeIn } from './folders';
import { workspaceRouter } from './workspaces/routing';
import { NeedsMeWatch } from './workspaces/needs-me';
import { FirstView } from './first-view';
import { rememberSecret } from './secrets';
import { systemClock, type Clock } from './clock';

/** What a platform (Electron, or the plain-Node host) hands the composition root. */
export interface PlatformAdapters {
  profileDir: string;
  cipher: SecretCipher;
  /** A key-value store named `name` in `dir` (the profile when not given). */
  openStore: (name: string, dir?: string) => KeyValueStore;
  locale: string;
  log: Logger;
  /** The time and timers every part of the console reads (src-main/clock.ts; none given: the system's). */
  clock?: Clock;
  /** Registers a secret with the log redactor so it can never be written in clear. */
  registerSecret: (secret: string) => void;
  /** Where pushed events go, when the platform made it before the app (to serve the page early). */
  events?: EventHub;
  /** The safety-net poll's pace; benchmarks run it faster to count its requests per minute. */
  pollPace?: PollPace;
  /** The dock or taskbar count the platform shows (none given: shown nowhere but the page's title). */
  badge?: BadgeSlot;
  /** The microphone grant the platform applies (none given: the browser asks the user itself). */
  microphone?: MediaPermissionSlot;
  /** The system browser for links in messages (none given: links are not opened, and the page says so). */
  openLink?: LinkOpener;
  /**
   * The platform shows a page at launch: what its first view does not need (live updates, the
   * service's read behind a kept queue) waits until the page says that view is on screen, or this
   * long. None: nothing waits (tests, a console serving no window).
   */
  firstViewWithinMs?: number;
  /**
   * Whether the demo stand-in's port is kept shared with it (SO_REUSEPORT, where the system has
   * it: the default). False keeps it as a system without it does, letting it go until the
   * stand-in starts (tests of that path).
   */
  demoSharePort?: boolean;
}

export interface ConsoleApp {
  /** The handler table of the workspace in front (the console's own channels included). */
  handlers: HandlerTable;
  /** The handler table for a call naming its workspace (null: the one in front). */
  route: Router;
  /** What the page hears: the console's events and those of the workspace in front. */
  events: EventHub;
  start(): Promise<void>;
  close(): Promise<void>;
  /** For tests and the host banner: the demo stand-in, when it runs. */
  readonly standin: Standin | null;
  /** For tests: a workspace's own folder. */
  workspaceDir(id: string): string;
}

/** What every workspace's features share, from the platform. */
interface SharedAdapters {
  locale: string;
  badge: BadgeSlot;
  microphone: MediaPermissionSlot;
  openLink: LinkOpener;
  pollPace?: PollPace;
}

/**
 * One workspace's features, wired for its context. Each serves its slice of the bridge; a new
 * feature is added here and to `handlers` (a slice left out is a type error).
 */
function workspaceFeatures(ctx: FeatureContext, s: SharedAdapters): WorkspaceFeatures {
  const offline = createOfflineFeature(ctx);
  // Snoozes are the account's (its folder), the console's own state: the service has no such field.
  const snooze = new SnoozeStore(join(ctx.accountDir, 'snoozed.json'), (m) => ctx.log.warn(m));
  const queue = createQueueFeature(ctx, offline, snooze);
  // Mentions are checked with the poll: at most once per its longest idle wait while polling (a
  // minute), five times that while events flow (the live budget is two requests a minute).
  const pace = s.pollPace ?? POLL_PACE;
  const notes = createNotesFeature(ctx, offline, {
    mentionGapMs: () => (live.eventsFlow ? 5 : 1) * pace.pollingIdleMaxMs,
    sessionOf: (id) => {
      for (const item of queue.items()) if (item.id === id) return item;
      return null;
    },
  });
  const attendance = createAttendanceFeature(ctx, {
    queue,
    notes,
    offline,
    badge: s.badge,
    openLink: s.openLink,
    snooze,
    // The live feature is made below; a file is lent only once the console runs.
    lender: { share: (name, bytes, o) => live.shareFile(name, bytes, o), problem: () => live.lendProblem() },
  });
  const voice = createVoiceFeature(ctx, { permission: s.microphone, locale: s.locale });
  const live = createLiveFeature(ctx, {
    onEvent: (e) => {
      voice.onEvent(e);
      return attendance.onEvent(e);
    },
    onResync: async () => {
      const outcome = await attendance.resync();
      // The service sends no event for notes: the poll asks for mentions too (at most once a minute).
      void notes.mentions.check();
      return outcome;
    },
    ...(s.pollPace ? { pollPace: s.pollPace } : {}),
  });
  // Back from sleep: the network may have changed under us, so ask the service now if offline.
  live.onWake(() => {
    if (offline.monitor.offline) void offline.monitor.probeNow();
  });
  const webhooks = createWebhooksFeature(ctx, live);
  const supervisor = createSupervisorFeature(ctx, { offline, shareFile: (name, bytes) => live.shareFile(name, bytes) });
  const palette = createPaletteFeature(ctx);
  const history = createHistoryFeature(ctx, offline);
  return {
    features: [offline, queue, notes, attendance, history, live, webhooks, supervisor, voice, palette],
    handlers: {
      ...attendance.handlers,
      ...history.handlers,
      ...live.handlers,
      ...notes.handlers,
      ...offline.handlers,
      ...palette.handlers,
      ...supervisor.handlers,
      ...voice.handlers,
      ...webhooks.handlers,
    },
    queue,
    mentions: () => notes.mentions.list(),
  };
}

/** What every workspace's features share, from the platform (defaults where it gives none). */
function sharedAdapters(p: PlatformAdapters): SharedAdapters {
  return {
    locale: p.locale,
    badge: p.badge ?? createBadgeSlot(),
    microphone: p.microphone ?? createMediaPermissionSlot(),
    openLink: p.openLink ?? (() => false),
    ...(p.pollPace ? { pollPace: p.pollPace } : {}),
  };
}

/** The page hears the workspace in front; every workspace's queue and mentions feed "Needs me". */
function relayEvents(rt: WorkspaceRuntime, to: { list: WorkspaceList; needsMe: NeedsMeWatch; events: EventHub }): void {
  const { list, needsMe, events } = to;
  rt.events.subscribe((name, payload) => {
    if (name === 'attendance:queueDelta' || name === 'notes:mentions') needsMe.changed();
    if (rt.id === list.active) events.relay(name, payload, rt.id);
    // A customer writing in another workspace still calls the attendant.
    else if (name === 'attendance:customerMessage')
      events.emit('workspace:customerMessage', { workspaceId: rt.id, ...(payload as EventPayload<'attendance:customerMessage'>) });
  });
}

/**
 * The one composition root: the console's settings, the demo stand-in and the list of
 * workspaces, each running its own features. Bridge calls go to the workspace they name; the
 * workspace channels are the console's own (`features/workspace`). Electron and the web host
 * differ only in what they pass in.
 */
export function createApp(p: PlatformAdapters): ConsoleApp {
  // Every secret a workspace holds goes on the process's one list (the bridge hides it in every
  // text it answers) as well as the platform's log.
  const registerSecret = (secret: string) => {
    rememberSecret(secret);
    p.registerSecret(secret);
  };
  const consoleStore = p.openStore('settings');
  const settings = createSettings(consoleStore, p.log);
  const events = p.events ?? new EventHub();
  const shared = sharedAdapters(p);
  const demo = new DemoStandin(p.profileDir, p.log, p.demoSharePort === undefined ? {} : { sharePort: p.demoSharePort });
  const firstView = new FirstView(p.firstViewWithinMs ?? null);
  const list: WorkspaceList = new WorkspaceList({
    profileDir: p.profileDir,
    settings,
    cipher: p.cipher,
    locale: p.locale,
    build: (id, dir) => buildRuntime(id, dir),
  });
  const needsMe = new NeedsMeWatch({
    runtimes: () => list.running(),
    push: (n) => events.emit('workspace:needsMe', n),
    log: p.log,
  });
  const workspace = new WorkspaceFeature({
    list,
    settings,
    demo: demoLauncher(demo),
    firstView,
    badge: shared.badge,
    needsMe,
    events,
    log: p.log,
    registerSecret,
  });

  function buildRuntime(id: string, dir: string): WorkspaceRuntime {
    const rt = createWorkspaceRuntime({
      id,
      dir,
      cipher: p.cipher,
      openStore: (name) => storeIn(dir, p.openStore(name, dir)),
      globalSettings: settings,
      log: p.log,
      clock: p.clock ?? systemClock,
      registerSecret,
      firstView,
      onStateChange: () => workspace.pushState(),
      features: (ctx) => workspaceFeatures(ctx, shared),
    });
    relayEvents(rt, { list, needsMe, events });
    return rt;
  }

  const route = workspaceRouter({ get: (id) => list.get(id), active: () => list.active, own: (id) => workspace.handlers(id) });

  return {
    get handlers() {
      return route(null);
    },
    route,
    events,
    get standin() {
      return demo.current;
    },
    workspaceDir: (id) => workspaceDir(p.profileDir, id),
    async start() {
      adoptSingleWorkspace({ profileDir: p.profileDir, settings, openStore: p.openStore, raw: consoleStore, log: p.log });
      list.load();
      await workspace.start();
    },
    async close() {
      // What still waits for the page's first view is not started only to be stopped.
      firstView.drop();
      needsMe.stop();
      await workspace.stop();
      await list.stopAll();
      await demo.stop();
    },
  };
}
