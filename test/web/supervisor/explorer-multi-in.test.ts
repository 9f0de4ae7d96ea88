import { test, expect } from '@playwright/test';
import { V2 } from '../../../src-shared/paths';
import { startStandin } from '../../../src-standin/index';
import { freshProfile, launchHost } from '../../support/host';
import { connectToService, serviceApi, shot } from '../../support/web';

/**
 * Some servers answer a condition with several values ("is one of": IN with a comma-separated
 * value) with an empty page. The explorer keeps the query as the supervisor wrote it, and when it
 * comes back empty says so and offers to read each value on its own, which finds the sessions.
 * The stand-in behaves that way under its `emptyMultiValueIn` fault.
 */
test('a multi-value "is one of" answered with nothing: the explorer says why and its split reading finds the sessions', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const sb = await startStandin({ port: 0, sessions: 120 });
  const host = await launchHost(freshProfile());
  try {
    // What matches, asked as an OR group of equalities (which such a server answers).
    const expected = await serviceApi(sb.baseUrl, sb.tokens.supervisor).list('/user-session', [
      {
        or: [
          { key: 'userConnectedResource', operator: 'EQ', value: 'email' },
          { key: 'userConnectedResource', operator: 'EQ', value: 'sms', logic: 'OR' },
        ],
      },
    ]);
    expect(expected.length).toBeGreaterThan(5);
    await sb.faults.set([{ kind: 'emptyMultiValueIn', match: { path: V2 } }]);

    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.supervisor });
    await page.getByRole('button', { name: 'Supervisor' }).click();
    await page.getByRole('tab', { name: 'Explorer' }).click();
    const query = page.getByRole('region', { name: 'Conditions' });
    await query.getByLabel('Field').fill('userConnectedResource');
    await query.getByRole('combobox', { name: 'Operator' }).selectOption({ label: 'is one of' });
    await query.getByLabel('Value').fill('email,sms');
    await query.getByRole('button', { name: 'Search' }).click();

    const results = page.getByRole('table', { name: 'Results' });
    await expect(results).toContainText('Nothing matches.');
    const notice = page.getByRole('status').filter({ hasText: 'Some servers answer such a query with nothing' });
    await expect(notice).toBeVisible();
    await shot(page, 'explorer-multi-in-empty');

    await notice.getByRole('button', { name: 'Read each value on its own' }).click();
    await expect(page.getByText('Shown: each value of "is one of" read on its own.')).toBeVisible();
    await results.getByRole('button', { name: 'Sort by ID' }).click();
    await expect(results).toHaveAttribute('aria-busy', 'false');
    await expect(results.locator('tbody tr td:first-child').first()).toHaveText(String(expected[0]!.id));
    await expect(notice).toHaveCount(0);
    // What the supervisor wrote is kept: the condition still reads "is one of email,sms".
    await expect(query.getByRole('combobox', { name: 'Operator' })).toHaveValue('IN');
    await expect(query.getByLabel('Value')).toHaveValue('email,sms');

    // Searching again runs the query as written.
    await query.getByRole('button', { name: 'Search' }).click();
    await expect(notice).toBeVisible();
  } finally {
    await host.close();
    await sb.close();
  }
});
