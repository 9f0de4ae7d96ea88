import { test, expect } from '@playwright/test';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startStandin, type Standin } from '../../../src-standin/index';
import { freshProfile, launchHost } from '../../support/host';
import { connectToService, consoleReady, ownOpenSessions, selectSession, serviceApi, type Rec } from '../../support/web';

test.use({ viewport: { width: 1366, height: 768 } });

// More than the newest page (50): the copy kept of the thread cannot hold its first message.
const ADDED = 70;

test('the offline copy of a long thread does not claim the beginning of the conversation: its older messages wait for the service', async ({
  page,
}) => {
  test.setTimeout(120_000);
  let sb: Standin | null = await startStandin({ port: 0 });
  const profile = freshProfile();
  const host = await launchHost(profile);
  try {
    const [a, b] = (await ownOpenSessions(sb, 2)) as [Rec, Rec];
    const api = serviceApi(sb.baseUrl, sb.tokens.admin);
    for (let i = 1; i <= ADDED; i++)
      await api.post('/chatapi/1.0/api/v2/messages/save', {
        session: { id: a.id },
        message: `Linha ${i} de uma conversa longa.`,
        fromUser: i % 2 === 1,
      });
    const bySession = [{ key: 'session.id', operator: 'EQNUM', value: String(a.id) }];
    const oldest = String((await api.list('/messages', bySession, { sortColumn: 'createdAt', size: 1 }))[0]!.message);
    const digit = oldest.search(/\d/);
    const oldestShown = oldest.slice(0, Math.min(30, digit < 0 ? oldest.length : digit));

    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent, userName: sb.demoAgent.userName });
    await consoleReady(page);
    await selectSession(page, a);
    const log = page.getByRole('log', { name: /Messages with/ });
    const newest = log.getByRole('article').filter({ hasText: `Linha ${ADDED} de uma conversa longa.` });
    await expect(newest).toBeVisible();
    const beginning = log.getByText('Beginning of the conversation');
    await expect(beginning).toHaveCount(0);
    const workspaces = join(profile, 'workspaces');
    await expect
      .poll(
        () =>
          existsSync(workspaces) &&
          readdirSync(workspaces).some((w) => existsSync(join(workspaces, w, 'offline-cache', 'threads', `session-${String(a.id)}.json`))),
      )
      .toBe(true);

    // The service goes away; the thread is opened again from its copy.
    await sb.close();
    sb = null;
    await selectSession(page, b);
    await expect(page.getByRole('status', { name: /^Offline since/ })).toBeVisible();
    await selectSession(page, a);
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: /^Offline copy from \d/ })
        .first(),
    ).toBeVisible();
    await expect(page.getByText('Older messages and sending wait until the service is back.')).toBeVisible();
    await expect(newest).toBeVisible();

    // At the top of the copy: its first message is not the conversation's, and nothing says it is.
    await log.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect(log.getByRole('article').first()).toBeInViewport();
    await expect(beginning).toHaveCount(0);
    await expect(log.getByRole('article').filter({ hasText: oldestShown })).toHaveCount(0);
    // Nothing was asked of the service that is away: no failed read in the thread.
    await expect(page.getByRole('alert').filter({ hasText: /^Could not load/ })).toHaveCount(0);
  } finally {
    await host.close();
    await sb?.close();
  }
});
