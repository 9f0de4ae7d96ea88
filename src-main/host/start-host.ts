import { join } from 'node:path';
import { createApp, type ConsoleApp } from '../app';
import { KeyFileCipher } from '../vault/node-cipher';
import { createConfStore } from '../vault/conf-store';
import { afterReady } from '../bridge/table';
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
  const server = await listenLoopback(o.port ?? 0);
  let lock: ProfileLock;
  try {
    lock = lockProfile(o.profileDir);
  } catch (e) {
    await closeServer(server);
    throw e;
  }
  let log: RootLogger | null = null;
  let app: ConsoleApp | null = null;
  let web: WebTransport;
  let ready: Promise<void> = Promise.resolve();
  try {
    await makePrivate(o.profileDir);
    const rootLog = createLogger({ file: join(o.profileDir, 'logs', 'console.log') });
    log = rootLog;
    app = createApp({
      profileDir: o.profileDir,
      cipher: new KeyFileCipher(o.profileDir),
      openStore: (name) => createConfStore(o.profileDir, name),
      locale: o.locale ?? Intl.DateTimeFormat().resolvedOptions().locale,
      log: rootLog,
      registerSecret: (s) => rootLog.registerSecret(s),
    });
    if (o.serveWhileStarting) {
      ready = app.start();
      // Reported by the calls that wait on it and by whoever awaits `ready`.
      ready.catch(() => undefined);
      web = await startWebTransport({ handlers: afterReady(app.handlers, ready), events: app.events, rendererDir: o.rendererDir, server, log: rootLog });
    } else {
      await app.start();
      web = await startWebTransport({ handlers: app.handlers, events: app.events, rendererDir: o.rendererDir, server, log: rootLog });
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
  const started = { app, log };
  return {
    url: web.url,
    origin: web.origin,
    ...started,
    ready,
    async close() {
      await web.close();
      // Never tear the services down under a start still running.
      await ready.catch(() => undefined);
      await started.app.close();
      await started.log.close();
      lock.release();
    },
  };
}
