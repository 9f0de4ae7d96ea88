import { isAppNavigation, isSafeExternalUrl } from '../shell-policy';

/**
 * What every web contents of the console gets, whichever window or frame created it: no
 * navigation or redirect away from the app, no webview, no new windows. A link meant for the
 * browser (http, https, mailto, well formed) is handed to the OS; nothing else leaves.
 * Electron's objects are described by the parts used, so this runs (and is tested) in plain Node.
 */
export interface NavigationEventLike {
  preventDefault(): void;
}

export interface WebContentsEventsLike {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: NavigationEventLike, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: NavigationEventLike) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

export interface HardenOptions {
  appOrigin: string;
  /** shell.openExternal in Electron. Called only with URLs isSafeExternalUrl accepts. */
  openExternal(url: string): Promise<void> | void;
  log?: { warn(message: string, fields?: Record<string, unknown>): void };
}

export function hardenWebContents(contents: WebContentsEventsLike, o: HardenOptions): void {
  const stayInApp = (event: NavigationEventLike, url: string) => {
    if (isAppNavigation(url, o.appOrigin)) return;
    event.preventDefault();
    o.log?.warn('navigation away from the console blocked', { scheme: schemeOf(url) });
  };
  contents.on('will-navigate', stayInApp);
  contents.on('will-redirect', stayInApp);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) {
      // A failure to open the browser must not surface as an unhandled rejection in main.
      void Promise.resolve()
        .then(() => o.openExternal(url))
        .catch(() => o.log?.warn('could not open a link externally', { scheme: schemeOf(url) }));
    } else {
      o.log?.warn('window.open refused', { scheme: schemeOf(url) });
    }
    return { action: 'deny' };
  });
}

/** Only the scheme goes to the log: a URL may carry personal data in its path or query. */
function schemeOf(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(url);
  return m?.[1]?.toLowerCase() ?? '(none)';
}
