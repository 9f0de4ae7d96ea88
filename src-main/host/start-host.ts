import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createApp, type ConsoleApp } from '../app';
import { KeyFileCipher } from '../vault/node-cipher';
import { createConfStore } from '../vault/conf-store';
import { startWebTransport, type WebTransport } from './server';
import { createLogger, type RootLogger } from '../log';

export interface HostOptions {
  profileDir: string;
  rendererDir: string;
  port?: number;
  locale?: string;
}

export interface Host {
  readonly url: string;
  readonly origin: string;
  readonly app: ConsoleApp;
  readonly log: RootLogger;
  close(): Promise<void>;
}

/**
 * Runs the same main-process services as the Electron shell, without Electron: the console is
 * served to a browser on loopback. Used by the tests and by `npm start` when no binary exists.
 */
export async function startHost(o: HostOptions): Promise<Host> {
  mkdirSync(o.profileDir, { recursive: true });
  const log = createLogger({ file: join(o.profileDir, 'logs', 'console.log') });
  const app = createApp({
    profileDir: o.profileDir,
    cipher: new KeyFileCipher(o.profileDir),
    openStore: (name) => createConfStore(o.profileDir, name),
    locale: o.locale ?? Intl.DateTimeFormat().resolvedOptions().locale,
    log,
    registerSecret: (s) => log.registerSecret(s),
  });
  await app.start();
  let web: WebTransport;
  try {
    web = await startWebTransport({ handlers: app.handlers, events: app.events, rendererDir: o.rendererDir, port: o.port ?? 0, log });
  } catch (e) {
    await app.close();
    throw e;
  }
  return {
    url: web.url,
    origin: web.origin,
    app,
    log,
    async close() {
      await web.close();
      await app.close();
      await log.close();
    },
  };
}
