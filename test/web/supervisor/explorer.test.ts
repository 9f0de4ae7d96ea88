import { test, expect, type Page } from '@playwright/test';
import { connectToService, serviceApi, shot } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import { startStandin } from '../../../src-standin/index';

async function connect(page: Page, baseUrl: string, token: string) {
  await connectToService(page, { baseUrl, token });
  await page.getByRole('button', { name: 'Supervisor' }).click();
  await page.getByRole('tab', { name: 'Explorer' }).click();
}

test("the explorer is a supervisor's: it filters sessions with a nested OR group, pages through them, and saves what the role may save", async ({
  page,
}) => {
  const sb = await startStandin({ port: 0 });
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    // An attendant's console has no supervisor tools to open.
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent });
    const nav = page.getByRole('navigation', { name: 'Views' });
    await expect(nav.getByRole('button', { name: 'Sessions' })).toBeVisible();
    await expect(nav.getByRole('button', { name: 'Supervisor' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await connect(page, sb.baseUrl, sb.tokens.supervisor);

    // status = CLOSED AND (channel = email OR channel = sms), sorted by id.
    const conditions = [
      { key: 'status', operator: 'EQ', value: 'CLOSED' },
      {
        logic: 'AND',
        or: [
          { key: 'userConnectedResource', operator: 'EQ', value: 'email' },
          { key: 'userConnectedResource', operator: 'EQ', value: 'sms' },
        ],
      },
    ];
    const expected = await serviceApi(sb.baseUrl, sb.tokens.agent).list('/user-session', conditions);
    expect(expected.length).toBeGreaterThan(20);
    const query = page.getByRole('region', { name: 'Conditions' });
    await query.getByLabel('Field').fill('status');
    await query.getByLabel('Value').fill('CLOSED');
    await query.getByRole('button', { name: 'Add OR group' }).click();
    const fields = query.getByLabel('Field');
    const values = query.getByLabel('Value');
    await fields.nth(1).fill('userConnectedResource');
    await values.nth(1).fill('email');
    await fields.nth(2).fill('userConnectedResource');
    await values.nth(2).fill('sms');
    await query.getByRole('button', { name: 'Search' }).click();
    const results = page.getByRole('table', { name: 'Results' });
    await results.getByRole('button', { name: 'Sort by ID' }).click();
    const firstCells = results.locator('tbody tr td:first-child');
    await expect(firstCells).toHaveCount(20);
    await expect(firstCells.first()).toHaveText(String(expected[0]!.id));
    await shot(page, 'supervisor-explorer');

    // Page through to the end: every id, in order, exactly once.
    const seen: string[] = [];
    let previousFirst = '-';
    for (let p = 0; p < 20; p++) {
      await expect(page.getByText(`Page ${p + 1}`, { exact: true })).toBeVisible();
      // The page label moves before the rows arrive: wait for this page's own rows.
      await expect(results).toHaveAttribute('aria-busy', 'false');
      await expect(firstCells.first()).not.toHaveText(previousFirst);
      previousFirst = (await firstCells.first().textContent()) ?? '-';
      seen.push(...(await firstCells.allTextContents()));
      const next = page.getByRole('button', { name: 'Next page' });
      if (await next.isDisabled()) break;
      await next.click();
    }
    expect(seen.filter((s) => s !== 'Nothing matches.')).toEqual(expected.map((s) => String(s.id)));

    // The detail of a record, each field by its word.
    const record = page.getByRole('region', { name: 'Record', exact: true });
    await page.getByRole('button', { name: 'Previous page' }).click();
    await firstCells.first().getByRole('button').click();
    await expect(record.locator('dt', { hasText: 'Channel of the customer' })).toBeVisible();

    // A supervisor: users (an administrator's) are not offered for saving.
    await page.getByRole('combobox', { name: 'Resource' }).selectOption({ label: 'Users' });
    await expect(record.getByRole('status')).toContainText('Your role (supervisor) cannot save Users');
    await page.getByRole('combobox', { name: 'Resource' }).selectOption({ label: 'Agents' });
    await page.getByRole('button', { name: 'New record' }).click();
    await page.getByRole('button', { name: 'Advanced (JSON)' }).click();
    // A record that breaks the shared schema never leaves the console.
    await page.getByLabel('Record to save (JSON)').fill('{"id": "four"}');
    await page.getByRole('button', { name: 'Save record' }).click();
    await expect(record.getByRole('alert')).toContainText('does not fit the agent schema: id');
    await shot(page, 'supervisor-explorer-refused');

    // An attribute is the supervisor's to save, and the stand-in has it.
    await page.getByRole('combobox', { name: 'Resource' }).selectOption({ label: 'Attributes' });
    await page.getByRole('button', { name: 'New record' }).click();
    // The JSON view stays chosen from one resource to the next.
    await expect(page.getByRole('button', { name: 'Advanced (JSON)' })).toHaveAttribute('aria-pressed', 'true');
    await page.getByLabel('Record to save (JSON)').fill('{"description": "Canal preferido de contato", "active": true}');
    await page.getByRole('button', { name: 'Save record' }).click();
    await expect(record.getByRole('status')).toHaveText(/^Saved Attributes #\d+\.$/);
    const saved = await serviceApi(sb.baseUrl, sb.tokens.agent).list('/attributes', [
      { key: 'description', operator: 'EQ', value: 'Canal preferido de contato' },
    ]);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ active: true, createdBy: 'juliana.martins' });
    await shot(page, 'supervisor-explorer-saved');
  } finally {
    await host.close();
    await sb.close();
  }
});
