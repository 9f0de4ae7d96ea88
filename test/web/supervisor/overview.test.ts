import { test, expect, type Page, type Locator } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import * as XLSX from '@e965/xlsx';
import { serviceApi, shot, type Rec } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import { axeViolations } from '../../support/axe';

/**
 * The supervisor's overview of the last 30 days: every figure is counted here from the
 * stand-in's report rows and groups over HTTP (our own median, percentile and clock), and
 * compared with what the page shows and what its XLSX export holds.
 */
const ZONE = 'America/Sao_Paulo';
test.use({ timezoneId: ZONE, viewport: { width: 1440, height: 1000 } });
const SHOTS = '/tmp/shots-supervisor';

const parts = new Intl.DateTimeFormat('en-CA', {
  timeZone: ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  hourCycle: 'h23',
});
function onClock(ms: number): { day: string; hour: number } {
  const p = parts.formatToParts(new Date(ms));
  const v = (t: string) => p.find((x) => x.type === t)!.value;
  return { day: `${v('year')}-${v('month')}-${v('day')}`, hour: Number(v('hour')) };
}
const mid = (xs: number[]) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
/** Nearest rank: the value at rank ⌈0.9·n⌉. */
const p90 = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.ceil(0.9 * xs.length) - 1]! : null);
/** The page's duration words: "35 s", "4 min 10 s", "1 h 05 min". */
function words(seconds: number | null): string {
  if (seconds === null) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

interface Expected {
  sessions: number;
  waitingMedian: number | null;
  waitingP90: number | null;
  attendanceMedian: number | null;
  attendanceP90: number | null;
  withinSla: number | null;
}
function expected(rows: Rec[], sla: Map<string, number>): Expected {
  const w = rows.map((r) => Number(r.waitingTime));
  const a = rows.map((r) => Number(r.attendanceTime));
  const counted = rows.filter((r) => sla.has(String(r.groupName)));
  const within = counted.filter((r) => Number(r.waitingTime) <= sla.get(String(r.groupName))!).length;
  return {
    sessions: rows.length,
    waitingMedian: mid(w),
    waitingP90: p90(w),
    attendanceMedian: mid(a),
    attendanceP90: p90(a),
    withinSla: counted.length ? (within / counted.length) * 100 : null,
  };
}
const shownCells = (e: Expected) => [
  String(e.sessions),
  words(e.waitingMedian),
  words(e.waitingP90),
  words(e.attendanceMedian),
  words(e.attendanceP90),
  e.withinSla === null ? '—' : `${e.withinSla.toFixed(1)} %`,
];

async function rowCells(row: Locator): Promise<string[]> {
  return (await row.locator('td').allInnerTexts()).map((t) => t.trim());
}

function sheetRows(wb: XLSX.WorkBook, name: string): unknown[][] {
  return XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets[name]!, { header: 1, raw: true });
}

async function download(page: Page, button: string): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return readFileSync(await file.path());
}

test('the overview, per attendant, per group and the daily trend match the service records; exports read back; axe finds nothing', async ({
  page,
}) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Open it as the supervisor' }).click();
    await page.getByRole('button', { name: 'Supervisor' }).click();
    const sb = host.app.standin!;
    const api = serviceApi(sb.baseUrl, sb.tokens.supervisor);

    // The records: every report row, and each group's SLA (seconds) as the sessions carry it.
    const all = await api.listAll('/report-attendance-time');
    const sla = new Map<string, number>();
    const groupId = new Map<string, number>();
    for (const s of await api.listAll('/user-session')) {
      const g = s.groupConf as Rec | null;
      if (g && typeof g.sla === 'number' && g.timeUnit === 'SECONDS') sla.set(String(g.name), g.sla);
      if (g) groupId.set(String(g.name), Number(g.id));
    }
    expect(sla.size).toBe(3);
    const today = onClock(Date.now()).day;
    const days: string[] = [];
    for (let k = 29; k >= 0; k--) days.push(onClock(Date.now() - k * 86_400_000).day);
    expect(days.at(-1)).toBe(today);
    const prevDays: string[] = [];
    for (let k = 59; k >= 30; k--) prevDays.push(onClock(Date.now() - k * 86_400_000).day);
    const dayOf = (r: Rec) => onClock(Date.parse(String(r.createdAtProtocol))).day;
    const current = all.filter((r) => days.includes(dayOf(r)));
    const previous = all.filter((r) => prevDays.includes(dayOf(r)));
    expect(current.length).toBeGreaterThan(20);

    await page.getByRole('tab', { name: 'Overview' }).click();
    const kpis = page.getByRole('table', { name: /Figures of the period/ });
    await expect(kpis).toBeVisible();
    const now = expected(current, sla);
    const before = expected(previous, sla);
    const keys = [
      'Sessions',
      'Waiting, median',
      'Waiting, 90th percentile',
      'Attendance, median',
      'Attendance, 90th percentile',
      'Answered within the SLA',
    ];
    const nowCells = shownCells(now);
    const beforeCells = shownCells(before);
    for (const [i, k] of keys.entries()) {
      const cells = await rowCells(kpis.getByRole('row', { name: new RegExp(`^${k}`) }));
      expect(cells.slice(0, 2), k).toEqual([nowCells[i], beforeCells[i]]);
    }

    // Per attendant and per group: every row, every figure.
    for (const [table, key] of [
      ['Per attendant', 'agentName'],
      ['Per group', 'groupName'],
    ] as const) {
      const t = page.getByRole('table', { name: table });
      const names = [...new Set(current.map((r) => String(r[key])))];
      await expect(t.locator('tbody tr')).toHaveCount(names.length);
      for (const name of names) {
        const row = t
          .getByRole('row')
          .filter({ has: page.getByRole('button', { name: `Open the sessions of ${name} in the attendance report`, exact: true }) });
        expect(await rowCells(row), `${table}: ${name}`).toEqual(
          shownCells(
            expected(
              current.filter((r) => r[key] === name),
              sla,
            ),
          ),
        );
      }
    }
    // Sorting by name puts the attendants in order, on the page alone.
    const agents = page.getByRole('table', { name: 'Per attendant' });
    await agents.getByRole('button', { name: 'Attendant' }).click();
    const agentNames = [...new Set(current.map((r) => String(r.agentName)))].sort((a, b) => a.localeCompare(b, 'en'));
    await expect(agents.locator('tbody th')).toHaveText(agentNames);

    // The charts' tables (their text alternative) open under each chart.
    for (const d of await page.locator('.fig-view details').all()) await d.locator('summary').click();
    // The trend: one point per day of the period, each with that day's sessions.
    const trend = page.getByRole('table', { name: 'Trend per day' });
    await expect(trend.locator('tbody tr')).toHaveCount(30);
    const perDay = days.map((d) => String(current.filter((r) => dayOf(r) === d).length));
    expect((await trend.locator('tbody tr td:first-of-type').allInnerTexts()).map((t) => t.trim())).toEqual(perDay);
    // The hourly table: arrivals per hour of the day on the page's clock.
    const hourly = page.getByRole('table', { name: 'Customers per hour of the day' });
    const arrivals = Array.from({ length: 24 }, (_, h) =>
      String(current.filter((r) => onClock(Date.parse(String(r.createdAtProtocol))).hour === h).length),
    );
    expect((await hourly.locator('tbody tr td:first-of-type').allInnerTexts()).map((t) => t.trim())).toEqual(arrivals);
    await expect(page.getByRole('img', { name: 'Chart: Customers per hour of the day' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Chart: Trend per day' })).toBeVisible();

    // NPS of both periods, as the service's summary answers for the same days.
    await page.getByLabel('NPS survey').fill('nps-atendimento');
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    const summary = async (from: string, to: string, extra?: Rec) => {
      const start = new Date(`${from}T00:00:00-03:00`).toISOString();
      const end = new Date(Date.parse(`${to}T00:00:00-03:00`) + 86_400_000).toISOString();
      const s = await api.post('/chatapi/1.0/api/v2/user-session/survey/nps-summary/nps-atendimento', {
        conditions: [
          { key: 'createdAt', operator: 'AFTER', value: start },
          { key: 'createdAt', operator: 'BEFORE', value: end, logic: 'AND' },
          ...(extra ? [{ ...extra, logic: 'AND' }] : []),
        ],
        sort: false,
      });
      const total = Number(s.totalCount);
      return { total, index: total ? (((Number(s.positive) - Number(s.negative)) / total) * 100).toFixed(1) : '—' };
    };
    const npsNow = await summary(days[0]!, today);
    const npsBefore = await summary(prevDays[0]!, prevDays.at(-1)!);
    expect(npsNow.total).toBeGreaterThan(3);
    await expect
      .poll(() => rowCells(kpis.getByRole('row', { name: /^NPS index/ })).then((c) => c.slice(0, 2)))
      .toEqual([npsNow.index, npsBefore.index]);
    expect((await rowCells(kpis.getByRole('row', { name: /^NPS answers/ }))).slice(0, 2)).toEqual([
      String(npsNow.total),
      String(npsBefore.total),
    ]);

    // NPS per attendant and per group, each as the service's summary for that attendant or group.
    await page.getByRole('button', { name: 'Show NPS per attendant and group and the comments' }).click();
    const npsAgents = page.getByRole('table', { name: 'NPS per attendant' });
    await expect(npsAgents).toBeVisible();
    const userId = new Map((await api.listAll('/users')).map((u) => [String(u.name), Number(u.id)]));
    const attendants = [...new Set(current.map((r) => String(r.agentName)))];
    await expect(npsAgents.locator('tbody tr')).toHaveCount(attendants.length);
    for (const name of attendants) {
      const s = await summary(days[0]!, today, { key: 'agent.id', operator: 'EQNUM', value: String(userId.get(name)) });
      const cells = await rowCells(npsAgents.getByRole('row', { name: new RegExp(`^${name}`) }));
      expect(cells.slice(0, 2), `NPS of ${name}`).toEqual([s.index, String(s.total)]);
    }
    const npsGroups = page.getByRole('table', { name: 'NPS per group' });
    for (const name of sla.keys()) {
      const s = await summary(days[0]!, today, { key: 'groupConf.id', operator: 'EQNUM', value: String(groupId.get(name)) });
      expect((await rowCells(npsGroups.getByRole('row', { name: new RegExp(`^${name}`) }))).slice(0, 2), `NPS of ${name}`).toEqual([
        s.index,
        String(s.total),
      ]);
    }
    // The survey answers of the period, one row per session, newest first: score and words.
    const start = Date.parse(`${days[0]}T00:00:00-03:00`);
    const chat = (await api.listAll('/chat-answer')).filter((a) => Date.parse(String(a.createdAt)) > start);
    const perSession = new Map<number, { at: number; score: string | null; comment: string | null }>();
    for (const a of chat) {
      const e = perSession.get(Number(a.sessionId)) ?? { at: Infinity, score: null, comment: null };
      e.at = Math.min(e.at, Date.parse(String(a.createdAt)));
      if (/^\d+$/.test(String(a.value))) e.score = String(a.value);
      else e.comment = String(a.value);
      perSession.set(Number(a.sessionId), e);
    }
    const newest = [...perSession.entries()].sort((x, y) => y[1].at - x[1].at || y[0] - x[0]);
    expect(newest.some(([, e]) => e.comment)).toBe(true);
    const comments = page.getByRole('table', { name: 'Survey answers, newest first' });
    await expect(comments.locator('tbody tr')).toHaveCount(newest.length);
    const firstRow = comments.locator('tbody tr').first();
    const [firstId, first] = newest[0]!;
    expect((await rowCells(firstRow)).slice(1, 3)).toEqual([first.score ?? '—', first.comment ?? '—']);
    const withWords = newest.find(([, e]) => e.comment)!;
    await expect(comments.getByRole('row').filter({ hasText: withWords[1].comment! }).first()).toContainText(
      `Open session ${withWords[0]}`,
    );

    // NPS per day from the answers' scores: one point per day of the period.
    for (const d of await page.locator('.fig-view details:not([open])').all()) await d.locator('summary').click();
    const npsDays = page.getByRole('table', { name: 'NPS per day' });
    await expect(npsDays.locator('tbody tr')).toHaveCount(30);
    const npsPerDay = days.map((day) => {
      const scores = chat
        .filter((a) => /^\d+$/.test(String(a.value)) && dayOf({ createdAtProtocol: a.createdAt }) === day)
        .map((a) => Number(a.value));
      if (!scores.length) return '—';
      return (((scores.filter((x) => x >= 9).length - scores.filter((x) => x <= 6).length) / scores.length) * 100).toFixed(1);
    });
    expect((await npsDays.locator('tbody tr td:first-of-type').allInnerTexts()).map((t) => t.trim())).toEqual(npsPerDay);
    await expect(page.getByRole('img', { name: 'Chart: NPS per day' })).toBeVisible();

    // axe on the whole view, its tables open.
    expect(await axeViolations(page, 'overview')).toEqual([]);

    // The XLSX export: a sheet per table, the same numbers.
    const wb = XLSX.read(await download(page, 'Export XLSX'), { type: 'buffer' });
    expect(wb.SheetNames).toEqual([
      'Figures',
      'Per hour',
      'Per day',
      'Per attendant',
      'Per group',
      'NPS per attendant',
      'NPS per group',
      'NPS per day',
      'Survey answers',
    ]);
    expect(sheetRows(wb, 'Survey answers').length - 1).toBe(newest.length);
    const secs = (v: unknown) => (typeof v === 'number' ? Math.round(v * 86_400) : null);
    const asSheet = (e: Expected) => [
      e.sessions,
      ...[e.waitingMedian, e.waitingP90, e.attendanceMedian, e.attendanceP90].map((v) => (v === null ? null : Math.round(v))),
      e.withinSla === null ? null : Math.round(e.withinSla * 10) / 10,
    ];
    const fromSheet = (r: unknown[]) => [r[0], ...r.slice(1, 5).map(secs), r[5] ?? null];
    const figures = sheetRows(wb, 'Figures');
    expect(fromSheet(figures[1]!.slice(3, 9))).toEqual(asSheet(now));
    expect(fromSheet(figures[2]!.slice(3, 9))).toEqual(asSheet(before));
    expect(figures[1]![10]).toBe(npsNow.total);
    for (const r of sheetRows(wb, 'Per attendant').slice(1))
      expect(fromSheet(r.slice(1)), String(r[0])).toEqual(
        asSheet(
          expected(
            current.filter((x) => x.agentName === r[0]),
            sla,
          ),
        ),
      );
    const daySheet = sheetRows(wb, 'Per day').slice(1);
    expect(daySheet.map((r) => r[0])).toEqual(days);
    expect(daySheet.map((r) => String(r[1]))).toEqual(perDay);
    expect(
      sheetRows(wb, 'Per hour')
        .slice(1)
        .map((r) => String(r[1])),
    ).toEqual(arrivals);
    // The CSV: the tables one below another, the attendants' counts among them.
    const csv = (await download(page, 'Export CSV')).toString('utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv).toContain('\r\nPer attendant\r\n');

    // Screenshots: light and dark, English and Portuguese; tall enough for the whole view.
    await page.setViewportSize({ width: 1440, height: 2900 });
    for (const locale of ['en', 'pt'] as const) {
      if (locale === 'pt') {
        await page.getByRole('combobox', { name: 'Language' }).selectOption('pt-BR');
        await expect(page.getByRole('table', { name: /Números do período/ })).toBeVisible();
        await expect(page.getByRole('img', { name: 'Gráfico: Clientes por hora do dia' })).toBeVisible();
      }
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
        expect(await axeViolations(page, `overview ${locale} ${colorScheme}`)).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/overview-${locale}-${colorScheme}.png`, fullPage: true });
        // The lower half: the per-attendant, per-group and NPS tables, the answers.
        await page.locator('#fig-agentName').scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/overview-${locale}-${colorScheme}-tables.png` });
        await page.locator('#fig-hourly').scrollIntoViewIfNeeded();
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en');

    // An attendant's row opens their sessions of the period in the attendance report.
    const who = String(current[0]!.agentName);
    await page.getByRole('button', { name: `Open the sessions of ${who} in the attendance report`, exact: true }).click();
    await expect(page.getByRole('tab', { name: 'Attendance report' })).toHaveAttribute('aria-selected', 'true');
    const theirs = current.filter((r) => String(r.agentName).toLowerCase().includes(who.toLowerCase())).length;
    await expect(page.getByRole('table', { name: 'Attendance time report' }).locator('tfoot')).toContainText(`${theirs} row`);
    await expect(page.getByLabel('Agent', { exact: true })).toHaveValue(who);

    // A survey answer opens its session in the attendance view.
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.getByRole('button', { name: `Open session ${firstId}`, exact: true }).click();
    await expect(page.getByRole('button', { name: 'Sessions' })).toHaveAttribute('aria-current', 'page');
    await shot(page, 'overview-opened-session');
  } finally {
    await host.close();
  }
});
