import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { openDemo, serviceApi } from '../../support/web';

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
    const label = (await waiting.first().getAttribute('aria-label')) ?? '';
    protocol = label.split(', ')[1]!;
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
    await sb.faults.set([{ match: { method: 'POST', path: '/chatapi/1.0/api/v2/user-session' }, kind: 'latency', latencyMs: 4_000 }]);
    const asked = Date.now();
    await page.goto(second.url);
    const row = page.getByRole('list', { name: 'Waiting' }).getByRole('button', { name: new RegExp(`, ${protocol},`) });
    // The copy: on screen well before the service answers.
    await expect(row).toBeVisible({ timeout: 3_000 });
    expect(Date.now() - asked).toBeLessThan(4_000);
    // The service's answer: the closed session leaves the queue.
    await expect(row).toHaveCount(0, { timeout: 15_000 });
    await expect(page.getByRole('list', { name: 'Waiting' }).getByRole('button').first()).toBeVisible();
  } finally {
    await second.close();
  }
});
