import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { serviceApi, shot } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';

type Rec = Record<string, unknown>;

test('NPS per survey with date and group conditions matches a count of the answers; the report and groups read right', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Open it as the supervisor' }).click();
    await page.getByRole('button', { name: 'Supervisor' }).click();
    await page.getByRole('tab', { name: 'NPS' }).click();
    const sb = host.app.standin!;

    // Our own count: the survey's answers (chat answers, value = score) of the last 10 days in Financeiro.
    const since = new Date();
    since.setHours(0, 0, 0, 0);
    since.setDate(since.getDate() - 10);
    const day = `${since.getFullYear()}-${String(since.getMonth() + 1).padStart(2, '0')}-${String(since.getDate()).padStart(2, '0')}`;
    const sessions = await serviceApi(sb.baseUrl, sb.tokens.agent).listAll('/user-session');
    const groupOf = new Map(sessions.map((s) => [s.id, (s.groupConf as Rec | null)?.id]));
    const groupId = (sessions.map((s) => s.groupConf as Rec).find((g) => g?.name === 'Financeiro') as Rec).id;
    const answers = (
      await serviceApi(sb.baseUrl, sb.tokens.agent).listAll('/chat-answer', [{ key: 'questionId', operator: 'EQNUM', value: '1' }])
    )
      .filter((a) => Date.parse(String(a.createdAt)) > since.getTime() && groupOf.get(a.sessionId) === groupId)
      .map((a) => Number(a.value));
    expect(answers.length).toBeGreaterThan(3);
    const positive = answers.filter((s) => s >= 9).length;
    const negative = answers.filter((s) => s <= 6).length;
    const neutral = answers.length - positive - negative;
    const average = answers.reduce((a, b) => a + b, 0) / answers.length;
    const index = ((positive - negative) / answers.length) * 100;

    await page.getByLabel('Survey name').fill('nps-atendimento');
    await page.getByLabel('From').fill(day);
    await page.getByLabel('Group').selectOption({ label: 'Financeiro' });
    await page.getByRole('button', { name: 'Show NPS' }).click();
    await expect(page.getByTestId('nps-total')).toHaveText(String(answers.length));
    await expect(page.getByTestId('nps-positive')).toHaveText(String(positive));
    await expect(page.getByTestId('nps-neutral')).toHaveText(String(neutral));
    await expect(page.getByTestId('nps-negative')).toHaveText(String(negative));
    await expect(page.getByTestId('nps-average')).toHaveText(average.toFixed(2));
    await expect(page.getByTestId('nps-index')).toHaveText(index.toFixed(1));
    await expect(
      page.getByRole('img', { name: `NPS answers: ${positive} positive, ${neutral} neutral, ${negative} negative` }),
    ).toBeVisible();
    await shot(page, 'supervisor-nps', { fullPage: true });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv.split('\r\n')[1]).toContain(`,${answers.length},${positive},${neutral},${negative}`);

    // An unknown survey: the 404 in words.
    await page.getByLabel('Survey name').fill('no-such-survey');
    await page.getByRole('button', { name: 'Show NPS' }).click();
    await expect(page.getByRole('alert')).toHaveText('There is no NPS survey named "no-such-survey" (404).');

    // Attendance report: totals over every row, sorting, paging, CSV of all rows.
    const rows = await serviceApi(sb.baseUrl, sb.tokens.agent).listAll('/report-attendance-time');
    await page.getByRole('tab', { name: 'Attendance report' }).click();
    const table = page.getByRole('table', { name: 'Attendance time report' });
    await expect(table.locator('tfoot')).toContainText(`${rows.length} rows`);
    await expect(table.locator('tbody tr')).toHaveCount(Math.min(25, rows.length));
    await table.getByRole('button', { name: 'Agent' }).click();
    const firstAgent = [...rows].map((r) => String(r.agentName)).sort()[0]!;
    await expect(table.locator('tbody tr').first()).toContainText(firstAgent);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(page.getByText('Page 2')).toBeVisible();
    await page.getByLabel('Agent', { exact: true }).fill('Bruno');
    await page.getByRole('button', { name: 'Apply' }).click();
    const bruno = rows.filter((r) => String(r.agentName).includes('Bruno'));
    await expect(table.locator('tfoot')).toContainText(`${bruno.length} rows`);
    await shot(page, 'supervisor-report', { fullPage: true });
    const [reportCsv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const lines = readFileSync(await reportCsv.path(), 'utf8')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(bruno.length + 1);

    // Groups overview: waiting per group matches the open sessions with no agent.
    await page.getByRole('tab', { name: 'Groups' }).click();
    const open = await serviceApi(sb.baseUrl, sb.tokens.agent).listAll('/user-session', [
      { key: 'status', operator: 'NEQ', value: 'CLOSED' },
    ]);
    const finWaiting = open.filter((s) => (s.groupConf as Rec)?.name === 'Financeiro' && !s.agent && !s.pending).length;
    const card = page.getByRole('region', { name: 'Financeiro' });
    await expect(card).toBeVisible();
    await expect(card.locator('dd').first()).toHaveText(String(finWaiting));
    await expect(page.getByRole('list', { name: 'All agents' }).getByRole('listitem')).toHaveCount(9);
    await shot(page, 'supervisor-groups', { fullPage: true });
  } finally {
    await host.close();
  }
});
