import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { demoAgentStatus, openDemo, pauseReasonNames } from '../../support/web';

test.use({ viewport: { width: 1366, height: 768 } });

test('a pause the service refuses (403): the attendant stops receiving on this console, marked as not recorded at the service, accepts are held until they receive again', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const myStatus = demoAgentStatus(sb);
    const [reason] = await pauseReasonNames(sb);
    // As a server that reserves the agent's status to supervisors does.
    await sb.faults.set([{ match: { method: 'POST', path: '/chatapi/1.0/api/v2/agent/save' }, kind: 'status', status: 403 }]);

    const status = page.getByRole('group', { name: 'Your status' });
    const pick = status.getByRole('combobox', { name: 'Pause reason' });
    const option = pick.getByRole('option', { name: new RegExp(`^${reason}`) });
    await pick.selectOption({ label: (await option.textContent())!.trim() });
    await status.getByRole('button', { name: 'Pause', exact: true }).click();
    const refusal = page.getByRole('alert').filter({ hasText: '403' });
    await expect(refusal).toBeVisible();
    await expect(status).toContainText('Available');
    await refusal.getByRole('button', { name: 'Stop receiving on this console' }).click();

    await expect(status).toContainText(`Not receiving: ${reason}`);
    await expect(status).toContainText('only on this console, not recorded at the service');
    await expect(status).toContainText('a supervisor or an administrator can record your pause');
    expect(await myStatus(), 'the service still holds the attendant as available').toBe('ONLINE');

    // New acceptances are held while not receiving.
    const waiting = page.getByRole('list', { name: 'Waiting' });
    const accept = waiting.getByRole('button', { name: /^Accept session of / }).first();
    await expect(accept).toBeDisabled();

    await status.getByRole('button', { name: 'Receive again' }).click();
    await expect(status).toContainText('Available');
    await expect(accept).toBeEnabled();
  } finally {
    await host.close();
  }
});
