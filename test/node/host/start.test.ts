import { test, expect } from '@playwright/test';
import { createConfStore } from '../../../src-main/vault/conf-store';
import { launchHost, webBridge } from '../../support/host';
import { tempDirs } from '../../support/temp-dirs';

const tempDir = tempDirs('console-start-');

test('a console remembering the demo workspace serves its page at once, and calls made meanwhile wait and answer from the open workspace', async () => {
  const profile = await tempDir();
  createConfStore(profile, 'settings').set('workspace', { kind: 'demo' });
  const host = await launchHost(profile, 'en-US', { serveWhileStarting: true });
  let started = false;
  void host.ready.then(() => (started = true));
  try {
    // The page itself does not wait for the services: the launch address answers (it trades its
    // secret for the cookie and sends the browser on to the page).
    const page = await fetch(host.url, { redirect: 'manual' });
    expect(page.status).toBeLessThan(400);

    const call = await webBridge(host);
    const state = await call('workspace:state');
    expect(started).toBe(true);
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({ result: { workspace: { kind: 'demo' }, signedIn: true } });
    const queue = await call('attendance:queue');
    const items = (queue.body as { result?: { items?: unknown[] } }).result?.items ?? [];
    expect(items.length).toBeGreaterThan(0);
    // The stand-in started early is the one the workspace uses.
    expect(host.app.standin).not.toBeNull();
  } finally {
    await host.close();
  }
});

test("a page whose script came from the browser's cache starts the services with its first call, not after a wait", async () => {
  const profile = await tempDir();
  createConfStore(profile, 'settings').set('workspace', { kind: 'demo' });
  // A launch that would otherwise wait a minute for a page to fetch its script.
  const host = await launchHost(profile, 'en-US', { serveWhileStarting: true, startAnywayMs: 60_000 });
  try {
    // The page itself (its scripts are in the browser's cache: none is asked for), then its first call.
    const call = await webBridge(host);
    const state = await call('workspace:state');
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({ result: { workspace: { kind: 'demo' }, signedIn: true } });
    expect(state.ms).toBeLessThan(30_000);
  } finally {
    await host.close();
  }
});
