/**
 * What an idle console costs the service: the requests and bytes it sends per attendant-minute
 * with nothing happening, with live events on (the service delivers to the listener) and off
 * (polling only), with 1, 10 and 50 open sessions of the attendant's (one of them open on
 * screen). Counted by a loopback proxy between the console (in Chromium, through the host) and
 * the stand-in. The safety-net poll is the only thing that reads on its own while idle, so its
 * pace is run 60 times faster and the counts are per simulated minute; the baseline is the same
 * console's first minute after sign-in (everything it reads to show the queue), same run.
 * Budgets: live on, at most 2 requests per attendant-minute; polling, at most 6, whatever the
 * number of open sessions. With three workspaces (three services, 10 open sessions each), each
 * service sees what one attendant costs it: the budget holds per service, and the console's total
 * is shown beside it.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import type { BenchRow } from './types';
import { bridgeCall, connectAttendant, launchChromium, ROOT } from './support';
import { startStandin, type Standin } from '../src-standin/index';
import { startHost } from '../src-main/host/start-host';
import { POLL_PACE, type PollPace } from '../src-main/features/live/poll-pace';

const SPEED = 60;
/** Simulated minutes counted per configuration. */
const MINUTES = Number(process.env.BENCH_COST_MINUTES ?? 12);
const pace = Object.fromEntries(Object.entries(POLL_PACE).map(([k, v]) => [k, v / SPEED])) as unknown as PollPace;

interface Counter {
  requests: number;
  bytesOut: number;
  bytesIn: number;
  paths: Map<string, number>;
}

/** A loopback proxy to the stand-in that counts what the console sends and receives. */
/** Until a second passes with no request through the proxy (at most `maxSeconds`): what was asked for is read. */
async function untilQuiet(counter: Counter, maxSeconds = 100): Promise<void> {
  for (let last = -1, i = 0; i < maxSeconds && last !== counter.requests; i++) {
    last = counter.requests;
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

async function countingProxy(target: string): Promise<{ url: string; counter: Counter; reset(): void; close(): Promise<void> }> {
  const counter: Counter = { requests: 0, bytesOut: 0, bytesIn: 0, paths: new Map() };
  const read = async (req: IncomingMessage): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await read(req);
      const path = (req.url ?? '/').split('?', 1)[0]!;
      counter.requests++;
      counter.bytesOut += body.length + JSON.stringify(req.headers).length + path.length;
      counter.paths.set(`${req.method} ${path}`, (counter.paths.get(`${req.method} ${path}`) ?? 0) + 1);
      const headers = { ...req.headers };
      delete headers.host;
      delete headers['content-length'];
      const answer = await request(target + (req.url ?? '/'), { method: req.method as 'GET', headers, ...(body.length ? { body } : {}) });
      const out = Buffer.from(await answer.body.arrayBuffer());
      counter.bytesIn += out.length;
      const forward: Record<string, string> = {};
      for (const [k, v] of Object.entries(answer.headers))
        if (typeof v === 'string' && k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection') forward[k] = v;
      res.writeHead(answer.statusCode, forward);
      res.end(out);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counter,
    reset() {
      counter.requests = counter.bytesOut = counter.bytesIn = 0;
      counter.paths.clear();
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function v2(sb: Standin, path: string, body: unknown, token = sb.tokens.admin): Promise<Record<string, unknown>> {
  const res = await fetch(`${sb.baseUrl}/chatapi/1.0/api/v2${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${path} answered ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}

/** Gives the demo attendant exactly `n` open sessions. */
async function openSessions(sb: Standin, n: number): Promise<Array<Record<string, unknown>>> {
  const list = async (conditions: unknown[]) =>
    (await v2(sb, '/user-session', { conditions, sort: true, sortColumn: 'id', direction: 'ASC', page: 0, size: 500 })).results as Array<
      Record<string, unknown>
    >;
  const mine = await list([
    { key: 'status', operator: 'EQ', value: 'OPEN' },
    { key: 'lastAgent', operator: 'EQ', value: sb.demoAgent.userName, logic: 'AND' },
  ]);
  for (const s of mine.slice(n)) await v2(sb, '/user-session/save', { id: s.id, status: 'CLOSED' });
  if (mine.length < n) {
    const others = (await list([{ key: 'status', operator: 'EQ', value: 'OPEN' }])).filter((s) => s.lastAgent !== sb.demoAgent.userName);
    for (const s of others.slice(0, n - mine.length)) await v2(sb, '/user-session/save', { id: s.id, lastAgent: sb.demoAgent.userName });
  }
  return (
    await list([
      { key: 'status', operator: 'EQ', value: 'OPEN' },
      { key: 'lastAgent', operator: 'EQ', value: sb.demoAgent.userName, logic: 'AND' },
    ])
  ).slice(0, n);
}

interface Service {
  sb: Standin;
  proxy: Awaited<ReturnType<typeof countingProxy>>;
}

/** One configuration: `workspaces` services, each giving the attendant `n` open sessions. */
async function measure(
  browser: Awaited<ReturnType<typeof launchChromium>>,
  events: boolean,
  n: number,
  workspaces: number,
): Promise<BenchRow[]> {
  const services: Service[] = [];
  const host = await startHost({
    profileDir: mkdtempSync(join(tmpdir(), 'bench-cost-')),
    rendererDir: join(ROOT, 'out', 'renderer'),
    port: 0,
    locale: 'en-US',
    pollPace: pace,
  });
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    const signedIn = Date.now();
    for (let w = 0; w < workspaces; w++) {
      const sb = await startStandin({ port: 0, sessions: 200, seed: 1 + w });
      await sb.simulator.stop();
      const proxy = await countingProxy(sb.baseUrl);
      services.push({ sb, proxy });
      const mine = await openSessions(sb, n);
      await connectAttendant(page, host.url, {
        baseUrl: proxy.url,
        token: sb.tokens.agent,
        userName: sb.demoAgent.userName,
        beside: w > 0,
      });
      await page.getByRole('tab', { name: /Mine/ }).click();
      await page.getByRole('list', { name: 'Mine' }).locator('.session-row').first().click();
      await page.getByRole('log').waitFor();
      if (events) {
        // As a user sets it up: a signing secret and the listener's address given to the service.
        const secret = String((await bridgeCall(page, 'webhooks:newSecret')).newSecret);
        await v2(sb, '/hook', { url: String((await bridgeCall(page, 'live:status')).url), secret });
        // One customer message: the events flow, and the console knows it.
        await v2(sb, '/messages/save', { session: { id: mine[0]!.id }, message: 'Bom dia!', fromUser: true });
        for (let i = 0; i < 100 && (await bridgeCall(page, 'live:status')).lastEventAt == null; i++)
          await new Promise((r) => setTimeout(r, 100));
        if ((await bridgeCall(page, 'live:status')).lastEventAt == null) throw new Error('no event reached the listener');
      }
    }
    const counted = () => services.map((s) => s.proxy.counter);
    // The first simulated minute after sign-in: what showing the queue costs (the baseline).
    await new Promise((r) => setTimeout(r, Math.max(0, 60_000 / SPEED - (Date.now() - signedIn))));
    const firstMinute = Math.max(...counted().map((c) => c.requests));
    // Then idle: two minutes to settle, and the count starts.
    await new Promise((r) => setTimeout(r, (2 * 60_000) / SPEED));
    for (const s of services) s.proxy.reset();
    await new Promise((r) => setTimeout(r, (MINUTES * 60_000) / SPEED));
    const perService = counted().map((c) => c.requests / MINUTES);
    const perMinute = Math.max(...perService);
    if (process.env.BENCH_DEBUG)
      console.error(
        events,
        n,
        workspaces,
        firstMinute,
        counted().map((c) => [...c.paths]),
      );
    const bytesPerMinute = Math.max(...counted().map((c) => (c.bytesOut + c.bytesIn) / MINUTES));
    const budget = events ? 2 : 6;
    const live = `live events ${events ? 'on' : 'off (polling)'}`;
    const where =
      workspaces === 1
        ? `${n} open session${n === 1 ? '' : 's'}`
        : `${workspaces} workspaces, ${n} open sessions each, the busiest service`;
    const rows: BenchRow[] = [
      {
        figure: `idle requests per attendant-minute, ${live}, ${where} (${MINUTES} min at ${SPEED}x after 2 to settle; vs the first minute after sign-in)`,
        value: perMinute,
        unit: 'req/min',
        baseline: firstMinute,
        ratio: perMinute / Math.max(1, firstMinute),
        budget: `<= ${budget}`,
        holds: perMinute <= budget,
      },
    ];
    if (workspaces > 1)
      rows.push({
        figure: `  the console's total over its ${workspaces} services, ${live}`,
        value: perService.reduce((a, b) => a + b, 0),
        unit: 'req/min',
      });
    rows.push({
      figure: `  idle bytes per attendant-minute (sent and received), live ${events ? 'on' : 'off'}, ${where}`,
      value: bytesPerMinute / 1024,
      unit: 'kB/min',
    });
    return rows;
  } finally {
    await page.close();
    await host.close();
    for (const s of services) {
      await s.proxy.close();
      await s.sb.close();
    }
  }
}

/**
 * What one open of a 48-message thread cost before entity lookups were batched, measured with this
 * same function on the commit before (one lookup per customer message, at most 20): 35 requests,
 * 20 of them entity lookups.
 */
const NER_BEFORE_BATCHING = 20;
const THREAD_OPEN_BEFORE = 35;
const THREAD_MESSAGES = 48;

/**
 * What opening one thread of 48 customer messages costs the service: every request from the click
 * until nothing more is sent for a second (bounded), and the entity lookups among them.
 */
export async function threadOpenCost(browser: Awaited<ReturnType<typeof launchChromium>>): Promise<BenchRow[]> {
  const host = await startHost({
    profileDir: mkdtempSync(join(tmpdir(), 'bench-thread-')),
    rendererDir: join(ROOT, 'out', 'renderer'),
    port: 0,
    locale: 'en-US',
    // The poll at its real pace: what is counted is the thread's own cost.
    pollPace: POLL_PACE,
  });
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  const sb = await startStandin({ port: 0, sessions: 50, seed: 7 });
  await sb.simulator.stop();
  const proxy = await countingProxy(sb.baseUrl);
  try {
    const [session] = await openSessions(sb, 1);
    const before = (await v2(sb, '/messages', {
      conditions: [{ key: 'session.id', operator: 'EQNUM', value: String(session!.id) }],
      sort: false,
      page: 0,
      size: 500,
    })) as { results?: unknown[] };
    for (let i = (before.results ?? []).length; i < THREAD_MESSAGES; i++)
      await v2(sb, '/messages/save', {
        session: { id: session!.id },
        message: `Mensagem ${i + 1}: meu CEP é 01310-${String(i).padStart(3, '0')}.`,
        fromUser: true,
      });
    await connectAttendant(page, host.url, { baseUrl: proxy.url, token: sb.tokens.agent, userName: sb.demoAgent.userName });
    await page.getByRole('tab', { name: /Mine/ }).click();
    const row = page.getByRole('list', { name: 'Mine' }).locator('.session-row').first();
    await row.waitFor();
    // Quiet first: what showing the queue reads is not the thread's cost.
    await untilQuiet(proxy.counter);
    proxy.reset();
    await row.click();
    await page.getByRole('log').waitFor();
    await untilQuiet(proxy.counter, 30);
    const ner = [...proxy.counter.paths].filter(([k]) => k.includes('/ner')).reduce((a, [, n]) => a + n, 0);
    if (process.env.BENCH_DEBUG) console.error([...proxy.counter.paths]);
    return [
      {
        figure: `requests to open a ${THREAD_MESSAGES}-message thread (every request until a quiet second; baseline: before entity lookups were batched)`,
        value: proxy.counter.requests,
        unit: 'req',
        baseline: THREAD_OPEN_BEFORE,
        ratio: proxy.counter.requests / THREAD_OPEN_BEFORE,
        budget: '<= 16',
        holds: proxy.counter.requests <= 16,
      },
      {
        figure: `  of which entity lookups (baseline: the ${NER_BEFORE_BATCHING} the console sent before they were batched, measured at the parent commit)`,
        value: ner,
        unit: 'req',
        baseline: NER_BEFORE_BATCHING,
        budget: '<= 2',
        holds: ner <= 2,
      },
    ];
  } finally {
    await page.close();
    await host.close();
    await proxy.close();
    await sb.close();
  }
}

/** Requests the overview may cost for a month against the seeded stand-in: rows (a page and the empty one that ends them), an SLA per group, NPS of both periods. */
const OVERVIEW_BUDGET = 8;

/**
 * What the supervisor's overview of a month costs the service: opening it with a survey (the
 * report rows of this month and the one before, each group's SLA, the NPS of both), then a
 * second look (a group chosen and all again, a table sorted, the tab left and opened again),
 * which reads only the chosen group's NPS: the rows are kept per period. BENCH_COST_ONLY_OVERVIEW
 * runs this part alone.
 */
async function measureOverview(browser: Awaited<ReturnType<typeof launchChromium>>): Promise<BenchRow[]> {
  const sb = await startStandin({ port: 0, sessions: 200 });
  await sb.simulator.stop();
  const proxy = await countingProxy(sb.baseUrl);
  const host = await startHost({
    profileDir: mkdtempSync(join(tmpdir(), 'bench-overview-')),
    rendererDir: join(ROOT, 'out', 'renderer'),
    port: 0,
    locale: 'en-US',
  });
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  // The view's reads are done once a second passes with no request.
  const quiet = () => untilQuiet(proxy.counter);
  const overviewPaths = () => [...proxy.counter.paths].filter(([p]) => !/\/(users\/rules|hook|messages)/.test(p));
  const count = () => overviewPaths().reduce((n, [, k]) => n + k, 0);
  try {
    await connectAttendant(page, host.url, { baseUrl: proxy.url, token: sb.tokens.supervisor, userName: '' });
    await page.getByRole('button', { name: 'Supervisor' }).click();
    await quiet();
    proxy.reset();
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.getByRole('table', { name: /Figures of the period/ }).waitFor();
    await page.getByLabel('NPS survey').fill('nps-atendimento');
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.getByRole('row', { name: /^NPS answers \d/ }).waitFor();
    await quiet();
    const first = count();
    if (process.env.BENCH_DEBUG) console.error('overview', overviewPaths());
    proxy.reset();
    await page.getByRole('combobox', { name: 'Group' }).selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.getByRole('row', { name: /^NPS answers \d/ }).waitFor();
    await page.getByRole('combobox', { name: 'Group' }).selectOption({ index: 0 });
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.getByRole('table', { name: 'Per attendant' }).getByRole('button', { name: 'Attendant' }).click();
    await page.getByRole('tab', { name: 'Groups' }).click();
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.getByRole('row', { name: /^NPS answers \d/ }).waitFor();
    await quiet();
    const again = [...proxy.counter.paths]
      .filter(([p]) => /report-attendance-time|groups\/unique|nps-summary/.test(p))
      .reduce((n, [, k]) => n + k, 0);
    if (process.env.BENCH_DEBUG) console.error('second look', [...proxy.counter.paths]);
    return [
      {
        figure: `requests for the supervisor's overview of a month (200 seeded sessions; rows of this month and the one before, each group's SLA, NPS of both)`,
        value: first,
        unit: 'req',
        budget: `<= ${OVERVIEW_BUDGET}`,
        holds: first <= OVERVIEW_BUDGET,
      },
      {
        figure: "  then a group chosen and all again, a table sorted, the tab reopened: report, SLA and NPS reads (the group's NPS only)",
        value: again,
        unit: 'req',
        budget: '<= 2',
        holds: again <= 2,
      },
    ];
  } finally {
    await page.close();
    await host.close();
    await proxy.close();
    await sb.close();
  }
}

export async function run(): Promise<BenchRow[]> {
  const browser = await launchChromium();
  const rows: BenchRow[] = [];
  try {
    rows.push(...(await measureOverview(browser)));
    if (process.env.BENCH_COST_ONLY_OVERVIEW) return rows;
    rows.push(...(await threadOpenCost(browser)));
    for (const events of [true, false]) {
      for (const n of [1, 10, 50]) rows.push(...(await measure(browser, events, n, 1)));
      rows.push(...(await measure(browser, events, 10, 3)));
    }
  } finally {
    await browser.close();
  }
  return rows;
}
