import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { demoAgentStatus, openDemo, pauseReasonNames } from '../../support/web';

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
    // How long the pause has lasted, counting.
    await expect(status).toContainText(/for [1-9]\d*s/);
    // The reason and the time apart, as words: never "Café· for 1s".
    await expect(status).toContainText(`Paused: ${reason} · for `);

    await status.getByRole('button', { name: 'Resume' }).click();
    await expect(status).toContainText('Available');
    await expect.poll(myStatus).toBe('ONLINE');
  } finally {
    await host.close();
  }
});
