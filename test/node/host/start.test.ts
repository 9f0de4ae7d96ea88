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
    // No page to wait for: the demo workspace's stand-in runs.
    expect(host.app.standin).not.toBeNull();
  } finally {
    await host.close();
  }
});
