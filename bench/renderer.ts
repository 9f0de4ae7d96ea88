import type { Page } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchRow } from './types';
import { bridgeCall, connectAttendant, launchChromium, percentile, ROOT } from './support';
import { startStandin } from '../src-standin/index';
import { startHost } from '../src-main/host/start-host';
import { THREAD_PAGE } from '../src-main/features/attendance/reads';

/**
 * The attendant's renderer under load: a stand-in with 100,000 sessions (about 45,000 of them
 * open, all in the queue) and one session with 10,000 messages, driven in Chromium against the
 * loopback host. Figures: filter keystroke to repaint, opening the long thread, renderer heap.
 */

/** Smaller figures for a quick look (not a recorded run): BENCH_RENDERER_SESSIONS, BENCH_RENDERER_MESSAGES. */
const SESSIONS = Number(process.env.BENCH_RENDERER_SESSIONS ?? 100_000);
const THREAD_MESSAGES = Number(process.env.BENCH_RENDERER_MESSAGES ?? 10_000);
const KEYSTROKES = 'mariana souza'.split('');
const SCROLL_LIMIT_MS = 180_000;
/** Scrolling a long thread back to its oldest message may cost this much over reading its pages raw. */
const SCROLL_BACK_RATIO = 3;
/**
 * Customer messages timed for the unread figure. Its p95 over 20 was the second-slowest sample, so
 * one collection pause on this shared machine decided it (31 to 72 ms across runs of the same
 * build); over 60 it is the fourth-slowest.
 */
const UNREAD_SAMPLES = 60;
const UNREAD_WAIT_MS = Number(process.env.BENCH_UNREAD_WAIT_MS ?? 40_000);

type Rec = Record<string, unknown>;

async function post(baseUrl: string, token: string, path: string, body: unknown): Promise<Rec> {
  const res = await fetch(`${baseUrl}/chatapi/1.0/api/v2${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${path} answered ${res.status}`);
  return (await res.json()) as Rec;
}

/** Fills one session with messages, a few requests at a time (bounded). */
async function fillThread(baseUrl: string, token: string, sessionId: number, count: number): Promise<string> {
  let next = 0;
  let last = '';
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= count) return;
      const text = `Mensagem ${i + 1} de ${count}: ${i % 7 === 0 ? 'o pedido PED-123456 de R$ 189,90 ainda não chegou.' : 'seguimos verificando o atendimento.'}`;
      await post(baseUrl, token, '/messages/save', { session: { id: sessionId }, message: text, fromUser: false });
      if (i === count - 1) last = text;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return last;
}

/** Time from a filter keystroke to the next painted frame, per keystroke. */
async function filterTimes(page: Page, selector: string, keys: string[]): Promise<{ work: number[]; frame: number[] }> {
  // Sent as source text: the bench runs under tsx, whose helpers do not exist in the page.
  const script = `(async () => {
    const input = document.querySelector(${JSON.stringify(selector)});
    const keys = ${JSON.stringify(keys)};
    const work = [];
    const frame = [];
    let value = '';
    for (const k of [...keys, ...keys.map(() => '\\b')]) {
      value = k === '\\b' ? value.slice(0, -1) : value + k;
      const t0 = performance.now();
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      // The framework flushes in a microtask queued by the keystroke; then force layout.
      await Promise.resolve();
      void document.body.offsetHeight;
      work.push(performance.now() - t0);
      // Two frames: the update is applied, then painted.
      await new Promise((r) => requestAnimationFrame(r));
      await new Promise((r) => requestAnimationFrame(r));
      frame.push(performance.now() - t0);
    }
    return { work, frame };
  })()`;
  return await page.evaluate<{ work: number[]; frame: number[] }>(script);
}

export async function run(): Promise<BenchRow[]> {
  const sb = await startStandin({ port: 0, sessions: SESSIONS });
  const profile = mkdtempSync(join(tmpdir(), 'bench-renderer-'));
  const host = await startHost({ profileDir: profile, rendererDir: join(ROOT, 'out', 'renderer'), port: 0, locale: 'en-US' });
  const browser = await launchChromium();
  try {
    const mine = (
      await post(sb.baseUrl, sb.tokens.agent, '/user-session', {
        conditions: [
          { key: 'status', operator: 'EQ', value: 'OPEN' },
          { key: 'lastAgent', operator: 'EQ', value: sb.demoAgent.userName, logic: 'AND' },
        ],
        sort: true,
        sortColumn: 'id',
        direction: 'ASC',
        page: 0,
        size: 2,
      })
    ).results as Rec[];
    await fillThread(sb.baseUrl, sb.tokens.agent, mine[0]!.id as number, THREAD_MESSAGES);
    const reread = async (id: unknown) =>
      (
        (
          await post(sb.baseUrl, sb.tokens.agent, '/user-session', {
            conditions: [{ key: 'id', operator: 'EQNUM', value: String(id) }],
            sort: false,
            page: 0,
            size: 1,
          })
        ).results as Rec[]
      )[0]!;
    const long = await reread(mine[0]!.id);
    const other = await reread(mine[1]!.id);

    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    // Queue deltas carrying an unread count, stamped as they reach the page (before the store sees them).
    await page.addInitScript(`(() => {
      window.__unreadDeltas = [];
      const Base = window.EventSource;
      window.EventSource = class extends Base {
        constructor(url, init) {
          super(url, init);
          this.addEventListener('message', (e) => {
            if (e.data.includes('"attendance:queueDelta"') && e.data.includes('"unread"')) window.__unreadDeltas.push({ at: performance.now(), data: e.data });
          });
        }
      };
    })()`);
    await connectAttendant(page, host.url, { baseUrl: sb.baseUrl, token: sb.tokens.agent, userName: sb.demoAgent.userName });
    await page.getByRole('tab', { name: /Others/ }).click({ timeout: 120_000 });
    await page.locator('.session-row').first().waitFor({ timeout: 120_000 });
    const queued = await page.getByRole('tab', { name: /Others/ }).innerText();

    // Filter keystroke to repaint, on the largest bucket.
    await filterTimes(page, '#queue-filter', ['a', 'b']);
    const filter = await filterTimes(page, '#queue-filter', KEYSTROKES);
    // Baseline: the same keystroke and two frames on a page doing nothing else.
    const blank = await browser.newPage();
    await blank.setContent('<input id="x">');
    const bare = await filterTimes(blank, '#x', KEYSTROKES);
    await blank.close();

    // Scrolling the largest bucket: the time between painted frames while the list moves a
    // few rows every frame (virtualised: rows are recycled, never all in the DOM).
    await page.getByRole('searchbox', { name: 'Filter sessions' }).fill('');
    await page.getByRole('tab', { name: /Others/ }).click();
    const scrollScript = (selector: string) => `(async () => {
      const el = document.querySelector(${JSON.stringify(selector)});
      const gaps = [];
      let last = await new Promise((r) => requestAnimationFrame(r));
      for (let i = 0; i < 180; i++) {
        el.scrollTop += 90;
        const t = await new Promise((r) => requestAnimationFrame(r));
        gaps.push(t - last);
        last = t;
      }
      return gaps;
    })()`;
    const scrollGaps = await page.evaluate<number[]>(scrollScript('[role="list"].virtual'));
    const plain = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await plain.setContent(`<div id="l" style="height:700px;overflow:auto">${'<div style="height:64px">row</div>'.repeat(2000)}</div>`);
    const plainGaps = await plain.evaluate<number[]>(scrollScript('#l'));
    await plain.close();

    // Opening the 10,000-message thread: click to its newest message on screen.
    const open = async (session: Rec, expect: string): Promise<number> => {
      const filterBox = page.getByRole('searchbox', { name: 'Filter sessions' });
      await filterBox.fill(String(session.protocol));
      const bucket = 'Mine';
      await page.getByRole('tab', { name: new RegExp(bucket) }).click();
      const row = page.getByRole('list', { name: bucket }).locator('.session-row').first();
      await row.waitFor();
      await page
        .getByRole('list', { name: bucket })
        .locator('.session-row')
        .nth(1)
        .waitFor({ state: 'detached' })
        .catch(() => undefined);
      // Clicked and timed inside the page: no automation round trips in the figure.
      const script = `(async () => {
        const row = document.querySelector('[role="list"] .session-row');
        const want = ${JSON.stringify(expect)};
        const t0 = performance.now();
        row.click();
        for (let i = 0; i < 2000; i++) {
          await new Promise((r) => requestAnimationFrame(r));
          const log = document.querySelector('.thread-scroll');
          if (log && log.textContent.includes(want)) return performance.now() - t0;
        }
        return NaN;
      })()`;
      return await page.evaluate<number>(script);
    };
    const newest = async (id: unknown) =>
      String(
        (
          (
            await post(sb.baseUrl, sb.tokens.agent, '/messages', {
              conditions: [{ key: 'session.id', operator: 'EQNUM', value: String(id) }],
              sort: true,
              sortColumn: 'createdAt',
              direction: 'DESC',
              page: 0,
              size: 1,
            })
          ).results as Rec[]
        )[0]!.message,
      ).slice(0, 40);
    const otherLast = await newest(other.id);
    const longLast = await newest(long.id);
    const longOpen: number[] = [];
    const shortOpen: number[] = [];
    for (let i = 0; i < 5; i++) {
      shortOpen.push(await open(other, otherLast));
      longOpen.push(await open(long, longLast));
    }
    // Scrolling back to the oldest of the long thread's messages, as a reader holding the
    // scrollbar at the top would: every page of older messages loads, and the view stays
    // virtualised. Timed inside the page until the beginning of the conversation and its first
    // message are on screen.
    const oldest = String(
      (
        (
          await post(sb.baseUrl, sb.tokens.agent, '/messages', {
            conditions: [{ key: 'session.id', operator: 'EQNUM', value: String(long.id) }],
            sort: true,
            sortColumn: 'createdAt',
            direction: 'ASC',
            page: 0,
            size: 1,
          })
        ).results as Rec[]
      )[0]!.message,
    );
    // Up to its first digit: a masked document or a highlighted entity changes what is shown.
    const oldestShown = oldest.slice(0, Math.min(24, oldest.search(/\d/) < 0 ? oldest.length : oldest.search(/\d/)));
    const toOldest = await page.evaluate<number>(`(async () => {
      const el = document.querySelector('.thread-scroll');
      const t0 = performance.now();
      while (performance.now() - t0 < ${SCROLL_LIMIT_MS}) {
        el.scrollTop = 0;
        await new Promise((r) => requestAnimationFrame(r));
        const start = el.querySelector('.thread-start');
        const first = el.querySelector('article');
        if (start && start.textContent.trim() === 'Beginning of the conversation' && first && first.textContent.includes(${JSON.stringify(oldestShown)})) {
          return performance.now() - t0;
        }
      }
      return NaN;
    })()`);
    const domRows = await page.locator('.thread-row').count();
    // Baseline: the same pages of the same thread read straight from the stand-in, one after another.
    const bareStarted = performance.now();
    let pagesRead = 0;
    for (let p = 0; p < THREAD_MESSAGES; p++) {
      const got = await post(sb.baseUrl, sb.tokens.agent, '/messages', {
        conditions: [{ key: 'session.id', operator: 'EQNUM', value: String(long.id) }],
        sort: true,
        sortColumn: 'createdAt',
        direction: 'DESC',
        page: p,
        size: THREAD_PAGE,
      });
      pagesRead++;
      if ((got.results as Rec[]).length < THREAD_PAGE) break;
    }
    const bareToOldest = performance.now() - bareStarted;

    // A customer writes in a session of mine: from the queue delta reaching the page to the
    // painted frame whose row shows the unread mark (Mine open, the whole workspace loaded).
    await page.getByRole('searchbox', { name: 'Filter sessions' }).fill('');
    await page.getByRole('tab', { name: /Mine/ }).click();
    // Live updates as a user sets them up for a service: a new signing secret and the listener's
    // address, given to the service (the stand-in's hook registration).
    const secret = String((await bridgeCall(page, 'webhooks:newSecret')).newSecret);
    const listenerUrl = String((await bridgeCall(page, 'live:status')).url);
    await post(sb.baseUrl, sb.tokens.admin, '/hook', { url: listenerUrl, secret });
    const unreadTimes: number[] = [];
    const mineNow = (
      (
        await post(sb.baseUrl, sb.tokens.agent, '/user-session', {
          conditions: [
            { key: 'status', operator: 'EQ', value: 'OPEN' },
            { key: 'lastAgent', operator: 'EQ', value: sb.demoAgent.userName, logic: 'AND' },
          ],
          sort: true,
          sortColumn: 'id',
          direction: 'DESC',
          page: 0,
          size: UNREAD_SAMPLES,
        })
      ).results as Rec[]
    ).filter((s) => s.id !== long.id);
    for (const [i, s] of mineNow.entries()) {
      // The row in view (the list filtered to it): the figure is the update's path to the screen.
      await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(String(s.protocol));
      await page.locator('[role="list"] .session-row').first().waitFor();
      const since = await page.evaluate<number>('window.__unreadDeltas.length');
      await post(sb.baseUrl, sb.tokens.admin, '/messages/save', {
        session: { id: s.id },
        message: `Oi, ainda aguardo retorno (${i + 1}).`,
        fromUser: true,
      });
      unreadTimes.push(
        await page.evaluate<number>(`(async () => {
        const id = ${JSON.stringify(s.id)};
        const protocol = ${JSON.stringify(String(s.protocol))};
        const t0 = performance.now();
        while (performance.now() - t0 < ${UNREAD_WAIT_MS}) {
          await new Promise((r) => requestAnimationFrame(r));
          const d = window.__unreadDeltas.slice(${since}).find((x) => (JSON.parse(x.data).payload.upsert ?? []).some((u) => u.id === id && u.unread > 0));
          if (!d) continue;
          // The row as shown: its protocol, and the unread mark on it.
          const row = [...document.querySelectorAll('[role="list"] .session-item.unread')].find(
            (r) => (r.querySelector('.protocol')?.textContent ?? '').trim() === protocol,
          );
          if (!row) continue;
          // The frame that shows it has been produced once the next one starts.
          await new Promise((r) => requestAnimationFrame(r));
          return performance.now() - d.at;
        }
        return NaN;
      })()`),
      );
      if (process.env.BENCH_DEBUG && !Number.isFinite(unreadTimes.at(-1)!)) {
        console.error(
          'unseen',
          s.id,
          s.protocol,
          await page.evaluate(
            `JSON.stringify({ deltas: window.__unreadDeltas.slice(${since}).map((d) => d.data.slice(0, 200)), rows: [...document.querySelectorAll('[role="list"] .session-row')].slice(0, 5).map((b) => b.textContent), tab: document.querySelector('[role="tab"][aria-selected="true"]')?.textContent })`,
          ),
        );
      }
      // A page that shows none of the first few never will: the figure is failed, not waited out.
      if (unreadTimes.length >= 3 && unreadTimes.every((t) => !Number.isFinite(t))) break;
    }
    // Baseline: an event reaching a bare page and the two frames that paint it.
    const bareUnread = await browser.newPage();
    await bareUnread.setContent('<ul><li id="r">row</li></ul>');
    const bareTimes = await bareUnread.evaluate<number[]>(`(async () => {
      const out = [];
      for (let i = 0; i < ${UNREAD_SAMPLES}; i++) {
        await new Promise((r) => setTimeout(r, 30));
        const t0 = performance.now();
        document.getElementById('r').textContent = 'row, ' + (i + 1) + ' unread';
        await new Promise((r) => requestAnimationFrame(r));
        await new Promise((r) => requestAnimationFrame(r));
        out.push(performance.now() - t0);
      }
      return out;
    })()`);
    await bareUnread.close();
    const unreadOk = unreadTimes.filter(Number.isFinite);

    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    const heapMb = heap.usedSize / 1024 / 1024;

    const f95 = percentile(filter.work, 95);
    const b95 = percentile(bare.work, 95);
    const fr95 = percentile(filter.frame, 95);
    const br95 = percentile(bare.frame, 95);
    const o50 = percentile(longOpen, 50);
    const s50 = percentile(shortOpen, 50);
    return [
      {
        figure: `queue filter keystroke to laid-out list, p95 (${queued.replace(/\s+/g, ' ')} of ${SESSIONS.toLocaleString('en')} sessions)`,
        value: f95,
        unit: 'ms',
        baseline: b95,
        ratio: f95 / b95,
        budget: '< 16 ms',
        holds: f95 < 16,
      },
      {
        figure: 'queue filter keystroke to painted frame, p95 (vs. the same keystroke on a bare page)',
        value: fr95,
        unit: 'ms',
        baseline: br95,
        ratio: fr95 / br95,
        budget: '< 16 ms over the bare page',
        holds: fr95 - br95 < 16,
      },
      {
        figure: `queue scroll, frame time p95 (${queued.replace(/\s+/g, ' ')}; vs. a plain 2,000-row list)`,
        value: percentile(scrollGaps, 95),
        unit: 'ms',
        baseline: percentile(plainGaps, 95),
        ratio: percentile(scrollGaps, 95) / percentile(plainGaps, 95),
        budget: '< 20 ms (60 frames/s with slack)',
        holds: percentile(scrollGaps, 95) < 20,
      },
      {
        figure: `open a ${THREAD_MESSAGES.toLocaleString('en')}-message thread, p50 (click to its newest message shown; vs a short thread)`,
        value: o50,
        unit: 'ms',
        baseline: s50,
        ratio: o50 / s50,
        budget: '< 200 ms',
        holds: o50 < 200,
      },
      {
        figure: 'open a 10,000-message thread, worst of 5',
        value: Math.max(...longOpen),
        unit: 'ms',
        budget: '< 200 ms',
        holds: Math.max(...longOpen) < 200,
      },
      {
        figure: `scroll a ${THREAD_MESSAGES.toLocaleString('en')}-message thread back to its oldest message (${pagesRead} pages of ${THREAD_PAGE}; vs the same pages read straight from the stand-in)`,
        value: toOldest,
        unit: 'ms',
        baseline: bareToOldest,
        ratio: toOldest / bareToOldest,
        budget: `<= ${SCROLL_BACK_RATIO} x the raw page reads`,
        holds: Number.isFinite(toOldest) && toOldest / bareToOldest <= SCROLL_BACK_RATIO,
      },
      {
        figure: 'thread rows in the DOM with the oldest message shown (virtualised)',
        value: domRows,
        unit: 'rows',
        budget: '< 200 rows',
        holds: domRows < 200,
      },
      {
        figure: `unread update to painted row, p95 (queue delta reaching the page to the frame showing the mark; ${unreadOk.length} of ${unreadTimes.length} seen; vs. the same paint on a bare page)`,
        value: unreadOk.length ? percentile(unreadOk, 95) : NaN,
        unit: 'ms',
        baseline: percentile(bareTimes, 95),
        ratio: unreadOk.length ? percentile(unreadOk, 95) / percentile(bareTimes, 95) : NaN,
        budget: '< 50 ms, every message seen',
        holds: unreadOk.length === unreadTimes.length && unreadTimes.length > 0 && percentile(unreadOk, 95) < 50,
      },
      {
        figure: 'renderer heap after GC (100,000-session workspace, long thread open)',
        value: heapMb,
        unit: 'MB',
        budget: '< 200 MB',
        holds: heapMb < 200,
      },
    ];
  } finally {
    await browser.close();
    await host.close();
    await sb.close();
  }
}
