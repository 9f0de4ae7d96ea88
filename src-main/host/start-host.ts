import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { keepHostPort, lastHostPort } from './last-port';
import type { ConsoleApp } from '../app';
import { KeyFileCipher } from '../vault/node-cipher';
import { EventHub, whenStarted } from '../bridge/table';
import type { PollPace } from '../features/live/poll-pace';
import type { LinkOpener } from '../features/attendance/media';
import { closeServer, listenLoopback, startWebTransport, type WebTransport } from './server';
import { lockProfile, type ProfileLock } from './profile-lock';
import { makePrivate } from '../outbox/fsutil';
import { createLogger, type RootLogger } from '../log';

export interface HostOptions {
  profileDir: string;
  rendererDir: string;
  port?: number;
  locale?: string;
  /**
   * Serve the page while the services start (bridge calls wait for them): the page's own loading
   * overlaps the start of a remembered workspace. `ready` then says when (and whether) they are up.
   * Off by default: `startHost` resolves with everything started.
   */
  serveWhileStarting?: boolean;
  /** The safety-net poll's pace (benchmarks run it faster). */
  pollPace?: PollPace;
  /** Where links in messages go (tests record them); none: the host has no system browser to hand them to. */
  openLink?: LinkOpener;
  /** See `PlatformAdapters.firstViewWithinMs`: a launch for a person waits for the page's first view. */
  firstViewWithinMs?: number;
  /** See `PlatformAdapters.demoSharePort`. */
  demoSharePort?: boolean;
}

export interface Host {
  readonly url: string;
  readonly origin: string;
  readonly app: ConsoleApp;
  readonly log: RootLogger;
  /** Resolves once the services have started; rejects with the reason they could not. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Runs the same main-process services as the Electron shell, without Electron: the console is
 * served to a browser on loopback. Used by the tests and by `npm start` when no binary exists.
 */
export async function startHost(o: HostOptions): Promise<Host> {
  // The port first, then the profile: either refusal leaves no file behind.
  const server = await listenAgain(o.port ?? 0, o.profileDir);
  let lock: ProfileLock;
  try {
    lock = lockProfile(o.profileDir);
  } catch (e) {
    await closeServer(server);
    throw e;
  }
  if (!o.port) keepHostPort(o.profileDir, (server.address() as AddressInfo).port);
  let log: RootLogger | null = null;
  let app = null as ConsoleApp | null;
  let web: WebTransport;
  let ready: Promise<void> = Promise.resolve();
  try {
    await makePrivate(o.profileDir);
    const rootLog = createLogger({ file: join(o.profileDir, 'logs', 'console.log') });
    log = rootLog;
    // The stand-in's thread boots while this one loads the services' modules (the app and its
    // dependencies are imported only now), instead of after them.
    const events = new EventHub();
    const build = async (): Promise<ConsoleApp> => {
      const [{ createApp }, { createConfStore }] = await Promise.all([import('../app'), import('../vault/conf-store')]);
      app = createApp({
        profileDir: o.profileDir,
        cipher: new KeyFileCipher(o.profileDir),
        openStore: (name, dir) => createConfStore(dir ?? o.profileDir, name),
        locale: o.locale ?? Intl.DateTimeFormat().resolvedOptions().locale,
        log: rootLog,
        registerSecret: (s) => rootLog.registerSecret(s),
        events,
        ...(o.pollPace ? { pollPace: o.pollPace } : {}),
        ...(o.openLink ? { openLink: o.openLink } : {}),
        ...(o.firstViewWithinMs !== undefined ? { firstViewWithinMs: o.firstViewWithinMs } : {}),
        ...(o.demoSharePort !== undefined ? { demoSharePort: o.demoSharePort } : {}),
      });
      await app.start();
      return app;
    };
    if (o.serveWhileStarting) {
      // The page is served before the services' modules are even loaded; they load as soon as
      // the address is out, while the browser opens the page, and its bridge calls wait for them.
      const started = new Promise<void>((resolve) => setImmediate(resolve)).then(build);
      ready = started.then(() => undefined);
      // Reported by the calls that wait on it and by whoever awaits `ready`.
      ready.catch(() => undefined);
      web = await startWebTransport({
        route: whenStarted(started),
        events,
        rendererDir: o.rendererDir,
        server,
        log: rootLog,
      });
    } else {
      const started = await build();
      web = await startWebTransport({ route: started.route, events, rendererDir: o.rendererDir, server, log: rootLog });
    }
  } catch (e) {
    await closeServer(server);
    await ready.catch(() => undefined);
    await app?.close();
    await log?.close();
    lock.release();
    throw e;
  }
  lock.setAddress(web.origin);
  const rootLog = log;
  return {
    url: web.url,
    origin: web.origin,
    get app(): ConsoleApp {
      if (!app) throw new Error('The console is still starting: await host.ready first.');
      return app;
    },
    log: rootLog,
    ready,
    async close() {
      await web.close();
      // Never tear the services down under a start still running.
      await ready.catch(() => undefined);
      await app?.close();
      await rootLog.close();
      lock.release();
    },
  };
}

/** Any free port, the profile's last one first (see last-port.ts); a port asked for is taken as is. */
async function listenAgain(port: number, profileDir: string): Promise<Server> {
  const last = port === 0 ? lastHostPort(profileDir) : null;
  if (last !== null) {
    try {
      return await listenLoopback(last);
    } catch {
      // Taken by another program meanwhile: any free port.
    }
  }
  return listenLoopback(port);
}
