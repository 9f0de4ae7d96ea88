import { test, expect } from '@playwright/test';
import { freshProfile, launchHost, usedConsoleProfile } from '../../support/host';
import { openDemo, READY_MS, serviceApi } from '../../support/web';
import { demoStandinOptions } from '../../../src-main/demo-standin';
import { startStandin } from '../../../src-standin/index';

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

test('a restarted console shows the status kept from the last start at once, and the status set at the service meanwhile once its first view is up', async ({
  page,
}) => {
  const profile = await usedConsoleProfile(page, async (p, first) => {
    await openDemo(p, first);
    await expect(p.getByRole('group', { name: 'Your status' })).toContainText('Available');
  });
  // While the console is off, a supervisor pauses the attendant at the service.
  const service = await startStandin({ ...demoStandinOptions(profile), simulator: false });
  try {
    const admin = serviceApi(service.baseUrl, service.tokens.admin);
    const [agent] = await admin.list('/agent', [{ key: 'user.userName', operator: 'EQ', value: service.demoAgent.userName }]);
    await admin.post('/chatapi/1.0/api/v2/agent/save', { id: agent!.id, status: 'PAUSED' });
  } finally {
    await service.close();
  }

  // Launched as npm start does: the first view comes from what was kept, without the service.
  const second = await launchHost(profile, 'en-US', { firstViewWithinMs: 60_000 });
  try {
    await page.goto(second.url);
    await expect(page.getByRole('list', { name: 'Waiting' }).getByRole('button').first()).toBeVisible({ timeout: READY_MS });
    // Then the service, read again: the page follows what it says.
    await expect(page.getByRole('group', { name: 'Your status' })).toContainText('Paused', { timeout: READY_MS });
    expect(second.app.standin).not.toBeNull();
  } finally {
    await second.close();
  }
});
