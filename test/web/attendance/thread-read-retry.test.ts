import { test, expect, type Page } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { openDemo, ownOpenSessions, selectSession, serviceApi, type Rec } from '../../support/web';
import type { Standin } from '../../../src-standin/index';

test.use({ viewport: { width: 1366, height: 768 } });

/** The thread's messages are one list on the service: failing it fails the thread's read alone. */
const MESSAGES = { method: 'POST', path: '/chatapi/1.0/api/v2/messages' };

/** A session of the attendant's with a message of its own, written now, that the thread must show. */
async function sessionWithMessage(sb: Standin): Promise<{ session: Rec; text: string }> {
  const [session] = await ownOpenSessions(sb, 1);
  const text = `Read-retry check ${Date.now()}: where is my order?`;
  await serviceApi(sb.baseUrl, sb.tokens.admin).post('/chatapi/1.0/api/v2/messages/save', {
    session: { id: session!.id },
    message: text,
    fromUser: true,
  });
  return { session: session!, text };
}

const thread = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

test('a thread the service cannot give now says it could not load and when it tries again, then shows by itself once the service answers', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const { session, text } = await sessionWithMessage(sb);
    await sb.faults.set([{ match: MESSAGES, kind: 'status', status: 503 }]);
    const name = await selectSession(page, session);
    const view = thread(page, name);
    const alert = view.getByRole('alert').filter({ hasText: 'Could not load.' });
    await expect(alert).toContainText(/Trying again at \d\d:\d\d:\d\d/, { timeout: 20_000 });
    // Not an empty conversation: no list of messages, no "beginning of the conversation".
    await expect(view.getByText('Beginning of the conversation')).toHaveCount(0);
    await expect(view.getByRole('log', { name: /Messages with/ })).toHaveCount(0);

    // The service answers again: the thread fills in without the attendant doing anything.
    await sb.faults.clear();
    await expect(view.getByRole('log', { name: /Messages with/ }).getByText(text)).toBeVisible({ timeout: 30_000 });
    await expect(alert).toHaveCount(0);
  } finally {
    await host.close();
  }
});

test('a thread the service refuses is not asked again by itself; "Try again" reads it at once', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const { session, text } = await sessionWithMessage(sb);
    await sb.faults.set([{ match: MESSAGES, kind: 'status', status: 403 }]);
    const name = await selectSession(page, session);
    const view = thread(page, name);
    const alert = view.getByRole('alert').filter({ hasText: 'Could not load.' });
    await expect(alert).toBeVisible({ timeout: 20_000 });
    // A refusal would come back the same: no time is promised.
    await expect(alert).not.toContainText('Trying again');

    await sb.faults.clear();
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect(view.getByRole('log', { name: /Messages with/ }).getByText(text)).toBeVisible();
    await expect(alert).toHaveCount(0);
  } finally {
    await host.close();
  }
});
