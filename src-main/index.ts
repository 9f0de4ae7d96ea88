// Electron glue only: lifecycle, the hardened window, the custom protocol, the permission
// policy. Every service comes from app.ts; this file hands it Electron's adapters.
import { app, BrowserWindow, dialog, globalShortcut, ipcMain, powerMonitor, protocol, safeStorage, session, shell } from 'electron';
import { join } from 'node:path';
import { createApp } from './app';
import { registerIpcBridge } from './bridge/electron';
import { createSafeStorageCipher } from './vault/electron-cipher';
import ElectronStore from 'electron-store';
import { keyValueStore } from './vault/key-value';
import { openReadable } from './vault/conf-store';
import type { KeyValueStore } from './vault/types';
import { decidePermission } from './shell-policy';
import { hardenWebContents } from './security/web-contents';
import { hardenedWebPreferences } from './security/window-options';
import { isAllowedRequest, serveAppRequest } from './security/app-protocol';
import { CONTENT_SECURITY_POLICY } from './host/csp';
import { loadStaticFiles } from './host/static-files';
import { APP_ORIGIN, APP_SCHEME } from '../src-shared/ipc';
import { createLogger } from './log';
import { lockProfile, ProfileInUse, type ProfileLock } from './host/profile-lock';
import { makePrivate } from './outbox/fsutil';
import { bindTicketShortcut } from './features/supervisor/global-shortcut';
import { createMediaPermissionSlot, mediaPermissionKey } from './features/voice/permission';
import { createBadgeSlot, electronBadgeSetter } from './features/attendance/badge';
import { FIRST_VIEW_WITHIN_MS } from './first-view';

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
// Every renderer sandboxed, whatever window or frame opens it (the checklist's belt and braces).
app.enableSandbox();

// One console per profile: a second Electron start focuses the first window and quits.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let window: BrowserWindow | null = null;
  const grantedPermissions = new Set<string>(); // voice adds 'media' once the user turns it on

  app.on('second-instance', () => {
    if (window) {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
  });

  // Every web contents, whoever creates it: no navigation away, no webview, no new window.
  app.on('web-contents-created', (_event, contents) => {
    hardenWebContents(contents, { appOrigin: APP_ORIGIN, openExternal: (url) => shell.openExternal(url) });
  });

  void app.whenReady().then(async () => {
    const profileDir = app.getPath('userData');
    // The same profile may be served by the loopback host (npm start without a display): its lock
    // file is honoured too, before any service starts.
    let lock: ProfileLock;
    try {
      lock = lockProfile(profileDir);
    } catch (e) {
      if (!(e instanceof ProfileInUse)) throw e;
      process.stderr.write(`${e.message}\n`);
      dialog.showErrorBox('Agent console', e.message);
      app.exit(1);
      return;
    }
    app.on('will-quit', () => lock.release());
    await makePrivate(profileDir);
    const log = createLogger({ file: join(profileDir, 'logs', 'console.log') });
    const rendererDir = join(import.meta.dirname, '../renderer');
    const files = loadStaticFiles(rendererDir);

    protocol.handle(APP_SCHEME, (request) => {
      const answer = serveAppRequest(files, request, { host: new URL(APP_ORIGIN).host, csp: CONTENT_SECURITY_POLICY });
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    });

    // The attention count the renderer keeps becomes the dock/taskbar badge.
    const badge = createBadgeSlot();
    badge.bind(electronBadgeSetter(app, (message) => log.info(message)));
    // Voice grants audio capture (never the camera) while the attendant has it turned on.
    const microphone = createMediaPermissionSlot();
    microphone.bind((allowed) => (allowed ? grantedPermissions.add('media') : grantedPermissions.delete('media')));
    guardSession(grantedPermissions);

    const consoleApp = createApp({
      profileDir,
      cipher: createSafeStorageCipher(safeStorage, process.platform),
      openStore: (name, dir) => electronStore(dir ?? profileDir, name),
      locale: app.getLocale(),
      log,
      registerSecret: (s) => log.registerSecret(s),
      badge,
      microphone,
      // The window's page says when its first view is up; live updates and the catch-up read follow it.
      firstViewWithinMs: FIRST_VIEW_WITHIN_MS,
      // Links in messages: the same policy as the window's own link handling (checked before this is called).
      openLink: async (url) => {
        await shell.openExternal(url);
        return true;
      },
    });

    registerIpcBridge({
      ipcMain,
      route: consoleApp.route,
      events: consoleApp.events,
      appOrigin: APP_ORIGIN,
      target: () => window?.webContents ?? null,
      log,
    });

    await consoleApp.start().catch((e: unknown) => log.error('start failed', { error: String(e) }));

    reportPresence(consoleApp);

    window = new BrowserWindow({
      width: 1366,
      height: 860,
      minWidth: 1280,
      minHeight: 720,
      show: false,
      title: 'Agent console',
      webPreferences: hardenedWebPreferences(join(import.meta.dirname, '../preload/preload.cjs')),
    });
    window.once('ready-to-show', () => window?.show());
    // The ticket lookup's global shortcut (configurable in the supervisor view).
    const unbindTicketShortcut = bindTicketShortcut({ globalShortcut, window: () => window, app: consoleApp, log });
    app.on('will-quit', unbindTicketShortcut);
    window.on('closed', () => (window = null));
    await window.loadURL(`${APP_ORIGIN}/index.html`);

    app.on('window-all-closed', () => {
      void consoleApp.close().finally(() => app.quit());
    });
  });
}

/**
 * The key-value store inside Electron: electron-store, which is conf with Electron's defaults, so
 * it writes the same file in the same place as the plain-Node host's conf store
 * (`vault/conf-store.ts`) for one profile; private to this user like it.
 */
function electronStore(dir: string, name: string): KeyValueStore {
  // electron-store also answers a channel of its own for renderers that open a store themselves:
  // the page cannot (sandboxed, context-isolated, its preload exposes the bridge alone).
  const store = openReadable(
    join(dir, `${name}.json`),
    () => new ElectronStore<Record<string, unknown>>({ name, cwd: dir, configFileMode: 0o600 }),
  );
  return keyValueStore(store);
}

/** The window's session: the permissions voice granted, and nothing loaded from outside the app. */
function guardSession(grantedPermissions: Set<string>): void {
  session.defaultSession.setPermissionRequestHandler((contents, permission, callback, details) => {
    callback(decidePermission(mediaPermissionKey(permission, details), contents.getURL(), APP_ORIGIN, grantedPermissions));
  });
  session.defaultSession.setPermissionCheckHandler((contents, permission, _origin, details) =>
    decidePermission(mediaPermissionKey(permission, details), contents?.getURL() ?? '', APP_ORIGIN, grantedPermissions),
  );
  // Nothing outside the app's own protocol and devtools may load in the window.
  session.defaultSession.webRequest.onBeforeRequest((details, callback) => {
    callback({ cancel: !isAllowedRequest(details.url, APP_ORIGIN) });
  });
}

/** Away detection hears the system: idle time (input anywhere counts) and the screen lock. */
function reportPresence(consoleApp: ReturnType<typeof createApp>): void {
  let locked = false;
  const report = () => consoleApp.events.emit('attendance:presence', { idleSeconds: powerMonitor.getSystemIdleTime(), locked });
  powerMonitor.on('lock-screen', () => {
    locked = true;
    report();
  });
  powerMonitor.on('unlock-screen', () => {
    locked = false;
    report();
  });
  const presenceTimer = setInterval(report, 15_000);
  app.on('will-quit', () => clearInterval(presenceTimer));
}
