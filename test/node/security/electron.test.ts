import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { hardenWebContents, type NavigationEventLike, type WebContentsEventsLike } from '../../../src-main/security/web-contents';
import { hardenedWebPreferences } from '../../../src-main/security/window-options';
import { isAllowedRequest, serveAppRequest } from '../../../src-main/security/app-protocol';
import { CONTENT_SECURITY_POLICY } from '../../../src-main/host/csp';
import { APP_ORIGIN, IPC_EVENT, IPC_INVOKE } from '../../../src-shared/ipc';
import { ROOT } from '../../support/root';

/**
 * The Electron shell's policies, exercised through the same functions src-main/index.ts wires
 * into Electron, with fakes for Electron's objects (no binary exists here).
 */

const root = ROOT;

class FakeContents implements WebContentsEventsLike {
  listeners = new Map<string, (event: NavigationEventLike, url?: string) => void>();
  openHandler: ((d: { url: string }) => { action: 'deny' }) | null = null;
  on(event: string, listener: (event: NavigationEventLike, url: string) => void): unknown {
    this.listeners.set(event, listener as (event: NavigationEventLike, url?: string) => void);
    return this;
  }
  setWindowOpenHandler(handler: (d: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
  /** Fires an event; answers whether the default was prevented. */
  fire(name: string, url?: string): boolean {
    let prevented = false;
    const listener = this.listeners.get(name);
    if (!listener) throw new Error(`no ${name} listener`);
    listener({ preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

function harden() {
  const contents = new FakeContents();
  const opened: string[] = [];
  const warnings: string[] = [];
  hardenWebContents(contents, {
    appOrigin: APP_ORIGIN,
    openExternal: (url) => void opened.push(url),
    log: { warn: (m, f) => void warnings.push(`${m} ${JSON.stringify(f)}`) },
  });
  return { contents, opened, warnings };
}

test('the window never navigates or redirects away from the app, and never attaches a webview', () => {
  const { contents, warnings } = harden();
  expect(contents.fire('will-navigate', 'app://console/index.html#/queue')).toBe(false);
  for (const url of [
    'https://example.com/',
    'file:///etc/passwd',
    'app://other/index.html',
    'javascript:alert(1)',
    'http://127.0.0.1:9/',
  ]) {
    expect(contents.fire('will-navigate', url), url).toBe(true);
    expect(contents.fire('will-redirect', url), url).toBe(true);
  }
  expect(contents.fire('will-attach-webview')).toBe(true);
  // The log names the scheme only: a URL may carry a customer's data.
  expect(warnings.some((w) => w.includes('"scheme":"https"'))).toBe(true);
  expect(warnings.join('\n')).not.toContain('example.com');
});

test('new windows are always denied; only well-formed http, https and mailto links go to the browser', async () => {
  const { contents, opened } = harden();
  const handler = contents.openHandler!;
  for (const url of ['https://example.com/help', 'http://example.com/a?b=c', 'mailto:ana@example.com'])
    expect(handler({ url })).toEqual({ action: 'deny' });
  for (const url of [
    'file:///etc/passwd',
    'app://console/index.html',
    'javascript:alert(1)',
    'smb://host/share',
    'https://user:pw@example.com/',
    'data:text/html,x',
    'about:blank',
    '',
  ]) {
    expect(handler({ url })).toEqual({ action: 'deny' });
  }
  await expect.poll(() => opened.length).toBe(3);
  expect(opened).toEqual(['https://example.com/help', 'http://example.com/a?b=c', 'mailto:ana@example.com']);
});

test('a failing openExternal is logged, not thrown into the main process', async () => {
  const contents = new FakeContents();
  const warnings: string[] = [];
  hardenWebContents(contents, {
    appOrigin: APP_ORIGIN,
    openExternal: () => Promise.reject(new Error('no browser')),
    log: { warn: (m) => void warnings.push(m) },
  });
  expect(contents.openHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
  await expect.poll(() => warnings).toEqual(['could not open a link externally']);
});

test('the window is isolated, sandboxed, without Node, webview or insecure content', () => {
  const prefs = hardenedWebPreferences('/app/preload.cjs');
  expect(prefs).toMatchObject({
    preload: '/app/preload.cjs',
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webviewTag: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
  });
  expect(Object.keys(prefs)).not.toContain('enableRemoteModule');
});

test('app:// serves only the built files, on its own host, always with the CSP', () => {
  const files = new Map([
    ['/index.html', { body: Buffer.from('<!doctype html>'), type: 'text/html; charset=utf-8' }],
    ['/assets/app.js', { body: Buffer.from('1'), type: 'text/javascript; charset=utf-8' }],
  ]);
  const serve = (url: string, method = 'GET') => serveAppRequest(files, { url, method }, { host: 'console', csp: CONTENT_SECURITY_POLICY });
  const ok = serve('app://console/');
  expect(ok.status).toBe(200);
  expect(new TextDecoder().decode(ok.body)).toBe('<!doctype html>');
  expect(ok.headers['Content-Security-Policy']).toBe(CONTENT_SECURITY_POLICY);
  expect(ok.headers['X-Content-Type-Options']).toBe('nosniff');
  expect(serve('app://console/assets/app.js').status).toBe(200);
  for (const url of [
    'app://console/../../etc/passwd',
    'app://console/%2e%2e/%2e%2e/etc/passwd',
    'app://console/assets/..%2f..%2fpackage.json',
    'app://console//etc/passwd',
    'app://other/index.html',
    'app://console/src-main/index.ts',
    'app://console/INDEX.HTML',
    'not a url',
  ]) {
    const r = serve(url);
    expect(r.status, url).toBe(404);
    expect(r.headers['Content-Security-Policy'], url).toBe(CONTENT_SECURITY_POLICY);
  }
  expect(serve('app://console/index.html', 'POST').status).toBe(405);
});

test('the session lets only our protocol (and devtools) load', () => {
  expect(isAllowedRequest('app://console/index.html', APP_ORIGIN)).toBe(true);
  expect(isAllowedRequest('devtools://devtools/bundled/inspector.html', APP_ORIGIN)).toBe(true);
  for (const url of [
    'https://example.com/x.js',
    'http://127.0.0.1:8080/',
    'file:///etc/passwd',
    'app://console.evil/x',
    'app://consolex/',
    'ws://127.0.0.1/',
  ]) {
    expect(isAllowedRequest(url, APP_ORIGIN), url).toBe(false);
  }
});

test('the built preload exposes one object with invoke and subscribe, and no Electron or Node object', () => {
  const code = readFileSync(join(root, 'out', 'preload', 'preload.cjs'), 'utf8');
  const exposed: Array<{ key: string; api: Record<string, unknown> }> = [];
  const invoked: unknown[][] = [];
  const listeners = new Map<string, unknown>();
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: Record<string, unknown>) => void exposed.push({ key, api }) },
    ipcRenderer: {
      invoke: (...args: unknown[]) => (invoked.push(args), Promise.resolve('ok')),
      on: (channel: string, l: unknown) => void listeners.set(channel, l),
      removeListener: (channel: string) => void listeners.delete(channel),
    },
  };
  const required: string[] = [];
  runInNewContext(code, {
    require: (name: string) => {
      required.push(name);
      if (name !== 'electron') throw new Error(`the preload may not require ${name}`);
      return electron;
    },
  });
  expect(required).toEqual(['electron']);
  expect(exposed.map((e) => e.key)).toEqual(['consoleBridge']);
  const api = exposed[0]!.api;
  expect(Object.keys(api).sort()).toEqual(['invoke', 'subscribe']);
  for (const v of Object.values(api)) expect(typeof v).toBe('function');
  // invoke goes to the one bridge channel only, whatever the page passes as a channel name.
  (api.invoke as (c: string, i: unknown) => unknown)('workspace:state', {});
  expect(invoked).toEqual([[IPC_INVOKE, 'workspace:state', {}]]);
  const unsubscribe = (api.subscribe as (l: () => void) => () => void)(() => {});
  expect([...listeners.keys()]).toEqual([IPC_EVENT]);
  unsubscribe();
  expect(listeners.size).toBe(0);
});
