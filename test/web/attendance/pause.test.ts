import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { demoAgentStatus, openDemo, pauseReasonNames, serviceApi } from '../../support/web';

test('an attendant pauses with a reason and resumes; the service holds their status each time', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const myStatus = demoAgentStatus(sb);
    const [reason] = await pauseReasonNames(sb);

    const status = page.getByRole('group', { name: 'Your status' });
    await expect(status).toContainText('Available');
    const pick = status.getByRole('combobox', { name: 'Pause reason' });
    const option = pick.getByRole('option', { name: new RegExp(`^${reason}`) });
    await pick.selectOption({ label: (await option.textContent())!.trim() });
    await status.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect(status).toContainText(`Paused: ${reason}`);
    await expect.poll(myStatus).toBe('PAUSED');
    // The time left of the reason's allowance (as the service sets it), counting down.
    const reasons = await serviceApi(sb.baseUrl, sb.tokens.supervisor).list('/pause-reasons');
    const allowance = Number(reasons.find((r) => r.value === reason)!.pauseTime);
    expect(allowance).toBeGreaterThan(1);
    const leftOf = new RegExp(`${allowance - 1}m 5\\ds left of ${allowance} min`);
    await expect(status).toContainText(leftOf);
    // The reason and the time apart, as words: never "Café· 59m…".
    await expect(status).toContainText(`Paused: ${reason} · ${allowance - 1}m 5`);

    await status.getByRole('button', { name: 'Resume' }).click();
    await expect(status).toContainText('Available');
    await expect.poll(myStatus).toBe('ONLINE');
  } finally {
    await host.close();
  }
});

test("a pause past its reason's allowance says by how much", async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    // The page's clock only: the service and the console's main process keep real time.
    await page.clock.install();
    const sb = await openDemo(page, host);
    const reasons = await serviceApi(sb.baseUrl, sb.tokens.supervisor).list('/pause-reasons');
    const shortest = reasons
      .filter((r) => r.active !== false && Number(r.pauseTime) > 0)
      .sort((a, b) => Number(a.pauseTime) - Number(b.pauseTime))[0]!;
    const allowance = Number(shortest.pauseTime);
    const status = page.getByRole('group', { name: 'Your status' });
    const pick = status.getByRole('combobox', { name: 'Pause reason' });
    await pick.selectOption({ label: `${String(shortest.value)} (${allowance} min)` });
    await status.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect(status).toContainText(`left of ${allowance} min`);
    await page.clock.fastForward((allowance * 60 + 90) * 1000);
    await expect(status).toContainText(new RegExp(`1m [3-5]\\ds over the ${allowance} min allowed`));
  } finally {
    await host.close();
  }
});
