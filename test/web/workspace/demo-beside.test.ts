import { test, expect } from '@playwright/test';
import { existsSync, readdirSync } from 'node:fs';
import { startStandin } from '../../../src-standin/index';
import { freshProfile, launchHost } from '../../support/host';
import { connectToService, openDemo, ownOpenSessions, selectSession, serviceApi, shot, type Rec, consoleReady } from '../../support/web';
import { POLL_PACE } from '../../../src-main/features/live/poll-pace';
import { idIn } from '../../support/records';

/** The connected stand-in cannot push to the console here: its poll, 10× faster, brings the news. */
const FAST_POLL = { ...POLL_PACE, pollingMs: 3_000, pollingIdleMaxMs: 3_000 };

test.use({ viewport: { width: 1280, height: 720 } });

test('the demo workspace beside a connected one: switching keeps each its own, both come back after a restart, signing out of the demo keeps the other', async ({
  page,
}) => {
  const sb = await startStandin({ port: 0, sessions: 30, reading: 'variant' });
  const profile = freshProfile();
  let host = await launchHost(profile, 'en-US', { pollPace: FAST_POLL });
  try {
    await openDemo(page, host);
    await page.getByRole('button', { name: 'Add a workspace' }).click();
    // Adding can be called off: back to the demo, nothing added.
    await page.getByRole('button', { name: 'Back to Demo' }).click();
    await expect(page.locator('.workspace-badge')).toHaveText('Demo workspace');
    await page.getByRole('button', { name: 'Add a workspace' }).click();
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent });
    await expect(page.locator('.workspace-badge')).toContainText(sb.baseUrl);
    const list = page.getByRole('group', { name: 'Workspaces' });
    await expect(list.getByRole('button')).toHaveCount(3);

    // Back to the demo from the sidebar: its attendant's session opens there.
    await list.getByRole('button', { name: /Demo · / }).click();
    await expect(page.locator('.workspace-badge')).toHaveText('Demo workspace');
    const [own] = await ownOpenSessions(host.app.standin!, 1);
    const name = await selectSession(page, own!);
    await expect(page.getByRole('log', { name: new RegExp(`Messages with ${name}`) })).toBeVisible();
    await shot(page, 'workspaces-demo-beside');

    // A customer writes in the other workspace: a notice names it, and opens the session there.
    const [theirs] = await serviceApi(sb.baseUrl, sb.tokens.agent).list(
      '/user-session',
      [
        { key: 'status', operator: 'EQ', value: 'OPEN' },
        { key: 'lastAgent', operator: 'EQ', value: sb.demoAgent.userName, logic: 'AND' },
      ],
      { size: 1 },
    );
    const customer = String(((theirs as Rec).user as Rec).displayName ?? ((theirs as Rec).user as Rec).name);
    await serviceApi(sb.baseUrl, sb.tokens.admin).post('/chatapi/1.0/api/v2/messages/save', {
      session: { id: idIn((theirs as Rec).id) },
      message: 'Ainda aguardo o reembolso.',
      fromUser: true,
    });
    const notice = page.getByRole('status').filter({ hasText: `Message from ${customer} in ${new URL(sb.baseUrl).host}` });
    await expect(notice).toBeVisible();
    await notice.getByRole('button').first().click();
    await expect(page.locator('.workspace-badge')).toContainText(sb.baseUrl);
    await expect(page.getByRole('log', { name: new RegExp(`Messages with ${customer}`) })).toContainText('Ainda aguardo o reembolso.');
    await list.getByRole('button', { name: /Demo · / }).click();
    await expect(page.locator('.workspace-badge')).toHaveText('Demo workspace');

    // A restart: both workspaces again, the demo in front as it was left.
    await host.close();
    host = await launchHost(profile);
    await page.goto(host.url);
    await consoleReady(page);
    await expect(page.locator('.workspace-badge')).toHaveText('Demo workspace');
    await expect(page.getByRole('group', { name: 'Workspaces' }).getByRole('button')).toHaveCount(3);

    // Signing out of the demo: the connected workspace comes to the front, the demo's folder goes.
    expect(existsSync(host.app.workspaceDir('demo'))).toBe(true);
    await page.getByRole('button', { name: 'Sign out of Demo' }).click();
    await expect(page.locator('.workspace-badge')).toContainText(sb.baseUrl);
    await consoleReady(page);
    await expect(page.getByRole('group', { name: 'Workspaces' })).toHaveCount(0);
    // Nothing written after the sign-out brings the folder back (what is left is named).
    await expect.poll(() => leftIn(host.app.workspaceDir('demo')), { timeout: 2_000 }).toEqual([]);
    await page.waitForTimeout(1_000);
    expect(leftIn(host.app.workspaceDir('demo'))).toEqual([]);
  } finally {
    await host.close();
    await sb.close();
  }
});

function leftIn(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String).sort() : [];
}
