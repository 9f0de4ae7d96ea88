import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { openDemo, READY_MS, serviceApi } from '../../support/web';

test('a restarted console shows its queue from the copy at once, then what the service says: a session closed meanwhile goes', async ({
  page,
}) => {
  const profile = freshProfile();
  const first = await launchHost(profile);
  let protocol: string;
  try {
    const sb = await openDemo(page, first);
    const waiting = page.getByRole('list', { name: 'Waiting' }).getByRole('button', { name: /^\S/ });
    await expect(waiting.first()).toBeVisible();
    protocol = ((await waiting.first().locator('.protocol').textContent()) ?? '').trim();
    expect(protocol).toMatch(/^\d+$/);
    void sb;
  } finally {
    await first.close();
  }

  const second = await launchHost(profile);
  try {
    const sb = second.app.standin!;
    await sb.simulator.stop();
    const api = serviceApi(sb.baseUrl, sb.tokens.admin);
    const [session] = await api.list('/user-session', [{ key: 'protocol', operator: 'EQ', value: protocol }]);
    // The service is slow to list sessions today, and one waiting session closed while the console was off.
    await api.post('/chatapi/1.0/api/v2/user-session/save', { id: session!.id, status: 'CLOSED' });
    // (Slow, not failing: within the client's 15 s for one attempt.)
    await sb.faults.set([{ match: { method: 'POST', path: '/chatapi/1.0/api/v2/user-session' }, kind: 'latency', latencyMs: 10_000 }]);
    await page.goto(second.url);
    const row = page.getByRole('list', { name: 'Waiting' }).getByRole('button', { name: new RegExp(`\\b${protocol}\\b`) });
    // The copy: the closed session is on screen, so what shows is not the service's answer (which
    // lacks it) but the copy, shown before that answer came.
    await expect(row).toBeVisible({ timeout: READY_MS });
    // The service's answer: the closed session leaves the queue.
    await expect(row).toHaveCount(0, { timeout: READY_MS });
    await expect(page.getByRole('list', { name: 'Waiting' }).getByRole('button').first()).toBeVisible();
  } finally {
    await second.close();
  }
});
