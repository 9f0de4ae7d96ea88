import { test, expect, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { freshProfile, launchHost } from '../support/host';

const shot = async (page: Page, name: string) => {
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
};

type Rec = Record<string, unknown>;
async function listAll(baseUrl: string, token: string, path: string, conditions: unknown[] = []): Promise<Rec[]> {
  const out: Rec[] = [];
  for (let page = 0; page < 100; page++) {
    const res = await fetch(`${baseUrl}/chatapi/1.0/api/v2${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ conditions, sort: false, page, size: 500 }),
    });
    expect(res.status).toBe(200);
    const results = ((await res.json()) as { results: Rec[] }).results;
    out.push(...results);
    if (results.length < 500) return out;
  }
  throw new Error('too many pages');
}

test('NPS per survey with date and group conditions matches a count of the answers; the report and groups read right', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Open the demo workspace' }).click();
    await page.getByRole('button', { name: 'Supervisor' }).click();
    await page.getByRole('tab', { name: 'NPS' }).click();
    const sb = host.app.sandbox!;

    // Our own count: the survey's answers (chat answers, value = score) of the last 10 days in Financeiro.
    const since = new Date();
    since.setHours(0, 0, 0, 0);
    since.setDate(since.getDate() - 10);
    const day = `${since.getFullYear()}-${String(since.getMonth() + 1).padStart(2, '0')}-${String(since.getDate()).padStart(2, '0')}`;
    const sessions = await listAll(sb.baseUrl, sb.tokens.agent, '/user-session');
    const groupOf = new Map(sessions.map((s) => [s.id, (s.groupConf as Rec | null)?.id]));
    const groupId = (sessions.map((s) => s.groupConf as Rec).find((g) => g?.name === 'Financeiro') as Rec).id;
    const answers = (await listAll(sb.baseUrl, sb.tokens.agent, '/chat-answer', [{ key: 'questionId', operator: 'EQNUM', value: '1' }]))
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
    await expect(page.getByRole('img', { name: `NPS answers: ${positive} positive, ${neutral} neutral, ${negative} negative` })).toBeVisible();
    await shot(page, 'supervisor-nps');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\r\n')[1]).toContain(`,${positive},${neutral},${negative},${answers.length},`);

    // An unknown survey: the 404 in words.
    await page.getByLabel('Survey name').fill('no-such-survey');
    await page.getByRole('button', { name: 'Show NPS' }).click();
    await expect(page.getByRole('alert')).toHaveText('There is no NPS survey named "no-such-survey" (404).');

    // Attendance report: totals over every row, sorting, paging, CSV of all rows.
    const rows = await listAll(sb.baseUrl, sb.tokens.agent, '/report-attendance-time');
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
    await shot(page, 'supervisor-report');
    const [reportCsv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const lines = readFileSync((await reportCsv.path())!, 'utf8').trim().split('\r\n');
    expect(lines).toHaveLength(bruno.length + 1);

    // Groups overview: waiting per group matches the open sessions with no agent.
    await page.getByRole('tab', { name: 'Groups' }).click();
    const open = await listAll(sb.baseUrl, sb.tokens.agent, '/user-session', [{ key: 'status', operator: 'NEQ', value: 'CLOSED' }]);
    const finWaiting = open.filter((s) => (s.groupConf as Rec)?.name === 'Financeiro' && !s.agent && !s.pending).length;
    const card = page.getByRole('region', { name: 'Financeiro' });
    await expect(card).toBeVisible();
    await expect(card.locator('dd').first()).toHaveText(String(finWaiting));
    await expect(page.getByRole('list', { name: 'All agents' }).getByRole('listitem')).toHaveCount(9);
    await shot(page, 'supervisor-groups');
  } finally {
    await host.close();
  }
});
