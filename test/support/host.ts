import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { startHost, type Host, type HostOptions } from '../../src-main/host/start-host';
import type { Standin } from '../../src-standin/index';
import { WEB_BRIDGE_PATH } from '../../src-shared/bridge';
import { ROOT } from './root';

export const RENDERER_DIR = join(ROOT, 'out', 'renderer');

export function freshProfile(): string {
  return mkdtempSync(join(tmpdir(), 'console-profile-'));
}

/**
 * Starts the loopback host (the same services as the Electron shell) on a profile folder.
 * `pollPace`: the safety-net poll's pace, for tests that wait on it (a service with no way to push).
 * `serveWhileStarting` (with `firstViewWithinMs`): launched as `npm start` does.
 */
export async function launchHost(
  profileDir: string,
  locale = 'en-US',
  o: Pick<HostOptions, 'pollPace' | 'openLink' | 'firstViewWithinMs' | 'serveWhileStarting' | 'demoSharePort'> = {},
): Promise<Host> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    throw new Error('The renderer is not built: run `npm run build` (npm test does it first).');
  }
  return startHost({
    profileDir,
    rendererDir: RENDERER_DIR,
    port: 0,
    locale,
    ...o,
  });
}

/**
 * A console used before, for what its next start shows: a fresh profile whose first run did
 * `use` on the page (opened the demo workspace, say). The page leaves before that run stops: it
 * would otherwise try to reconnect under the next page load.
 */
export async function usedConsoleProfile(page: Page, use: (page: Page, host: Host) => Promise<unknown>): Promise<string> {
  const profile = freshProfile();
  const first = await launchHost(profile);
  try {
    await use(page, first);
    await page.goto('about:blank');
  } finally {
    await first.close();
  }
  return profile;
}

/**
 * Bridge calls over the host's HTTP transport, signed in as a browser is (the launch address
 * trades its secret for the cookie). Each answer carries how long it took.
 */
export async function webBridge(host: Pick<Host, 'url' | 'origin'>) {
  const first = await fetch(host.url, { redirect: 'manual' });
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0]!;
  return async (channel: string, input: unknown = {}): Promise<{ status: number; body: unknown; ms: number }> => {
    const started = performance.now();
    const res = await fetch(`${host.origin}${WEB_BRIDGE_PATH}${channel}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    const body: unknown = await res.json();
    return { status: res.status, body, ms: performance.now() - started };
  };
}

/** The demo workspace's stand-in once it runs: a launched console starts it after the page's first view. */
export async function runningStandin(host: Pick<Host, 'app'>): Promise<Standin> {
  await expect.poll(() => host.app.standin !== null, { timeout: 10_000 }).toBe(true);
  return host.app.standin!;
}
