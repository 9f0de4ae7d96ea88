import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { openDemo, ownOpenSessions, selectSession, serviceApi } from '../../support/web';

test.use({ viewport: { width: 1366, height: 768 } });

test('a rate-limited notes tab says it could not load and is retrying, never "No notes yet", and fills in by itself once the service answers', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const api = serviceApi(sb.baseUrl, sb.tokens.agent);
    const [session] = await ownOpenSessions(sb, 1);
    const text = `Rate-limit check ${Date.now()}: customer prefers e-mail.`;
    await api.post('/chatapi/1.0/api/v2/session-comment/save', { sessionId: session!.id, comment: text });
    // The notes' list answers 429 with Retry-After: 1 s, six times (more than one read's retries).
    await sb.faults.set([
      { match: { method: 'POST', path: '/chatapi/1.0/api/v2/session-comment' }, kind: 'rateLimit', retryAfterSeconds: 1, count: 6 },
    ]);
    await selectSession(page, session!);
    await page.getByRole('tab', { name: /Notes/ }).click();
    const notes = page.getByRole('region', { name: 'Notes' });
    await expect(notes.getByRole('alert')).toContainText('Could not load.');
    await expect(notes.getByRole('alert')).toContainText(/Trying again at \d\d:\d\d:\d\d/);
    await expect(notes.getByText('No notes yet.')).toHaveCount(0);
    // The service answers again: the note shows without the attendant doing anything.
    await expect(notes.getByText(text)).toBeVisible({ timeout: 30_000 });
    await expect(notes.getByRole('alert')).toHaveCount(0);
  } finally {
    await host.close();
  }
});
