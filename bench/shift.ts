/**
 * A whole shift, accelerated: one console (the built host, its own process) with two workspaces,
 * each a service stand-in whose customer simulator writes several times faster than real time.
 * The attendant, driven through the page in Chromium, accepts, replies, adds notes, transfers,
 * classifies and closes sessions, opens a long thread every hour, searches, and switches
 * workspaces every few sessions. At the end of each simulated hour the bench records what a long
 * day makes grow: the host's RSS, V8 heap (after a collection), timers and open handles; the
 * renderer's JS heap after a collection, DOM nodes and event listeners; the profile's files.
 * Budgets are ratios of the last hour to the first (the first hour is the console warm, so its
 * caches filled once are not counted as growth).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import type { BenchRow } from './types';
import { connectAttendant, HOST_NODE_FLAGS, launchChromium, ROOT, stopHost } from './support';
import { startStandin, type Standin } from '../src-standin/index';
import { freshProfile } from '../test/support/host';
import { errorText } from '../src-shared/error-text';

const HOURS = Number(process.env.BENCH_SHIFT_HOURS ?? 8);
const SESSIONS_PER_HOUR = Number(process.env.BENCH_SHIFT_SESSIONS ?? 30);
/** The simulator's pace: a customer event every this many ms per service (real time: 4,000). */
const SIMULATOR_MS = Number(process.env.BENCH_SHIFT_SIMULATOR_MS ?? 500);
/** Sessions handled in one workspace before the attendant switches to the other. */
const SWITCH_EVERY = 5;
const LONG_THREAD_MESSAGES = 400;
/** The renderer and the host may end the shift this much above the first hour, no more. */
const GROWTH_RATIO = 1.15;
const RSS_GROWTH_MB = 64;
/** A profile file may hold at most this much more at the end than after the first hour. */
const FILE_GROWTH_BYTES = 2 * 1024 * 1024;
const STEP_MS = 20_000;

type Rec = Record<string, unknown>;

type HourReading = {
  hour: number;
  sessions: number;
  hostRssMB: number;
  hostHeapMB: number;
  hostTimers: number;
  hostHandles: number;
  rendererHeapMB: number;
  /** From a heap snapshot after the same collection: what the page's code holds (see rendererParts). */
  rendererDataMB: number;
  rendererCodeMB: number;
  domNodes: number;
  listeners: number;
  profileBytes: Record<string, number>;
};

/** The Node inspector of the host process: a collection and a reading, without product code. */
class Inspector {
  #ws: WebSocket;
  #next = 1;
  #waiting = new Map<number, (r: Rec) => void>();
  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.addEventListener('message', (e) => {
      const m = JSON.parse(String(e.data)) as { id?: number; result?: Rec };
      if (m.id !== undefined) this.#waiting.get(m.id)?.(m.result ?? {});
    });
  }
  static async open(url: string): Promise<Inspector> {
    const ws = new WebSocket(url);
    await new Promise((resolve, reject) => {
      ws.addEventListener('open', resolve, { once: true });
      ws.addEventListener('error', reject, { once: true });
    });
    return new Inspector(ws);
  }
  async evaluate<T>(expression: string): Promise<T> {
    const id = this.#next++;
    const answer = new Promise<Rec>((resolve) => this.#waiting.set(id, resolve));
    this.#ws.send(JSON.stringify({ id, method: 'Runtime.evaluate', params: { expression, returnByValue: true, awaitPromise: true } }));
    const r = await answer;
    this.#waiting.delete(id);
    return (r.result as { value: T }).value;
  }
  close(): void {
    this.#ws.close();
  }
}

/** The built host with its inspector on a loopback port of its own; its page address and inspector. */
async function spawnInspectedHost(profile: string): Promise<{ child: ChildProcess; url: string; inspector: Inspector }> {
  const child = spawn(
    process.execPath,
    ['--inspect=127.0.0.1:0', '--expose-gc', ...HOST_NODE_FLAGS, join(ROOT, 'out', 'main', 'host.js'), '--profile', profile],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const found = (stream: NodeJS.ReadableStream, re: RegExp) =>
    new Promise<string>((resolve, reject) => {
      let text = '';
      const timer = setTimeout(() => reject(new Error(`the host printed no ${re} within 60 s`)), 60_000);
      stream.on('data', (c: Buffer) => {
        text += c.toString();
        const m = re.exec(text);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      child.once('exit', (code) => reject(new Error(`the host exited (${code})`)));
    });
  const [wsUrl, url] = await Promise.all([
    found(child.stderr, /(ws:\/\/127\.0\.0\.1:\d+\/[\w-]+)/),
    found(child.stdout, /(http:\/\/127\.0\.0\.1:\d+\/\?k=\S+)\r?\n/),
  ]);
  return { child, url, inspector: await Inspector.open(wsUrl) };
}

/** What the host holds after a collection: heap, RSS, timers and other handles that keep it alive. */
async function readHost(inspector: Inspector): Promise<{ rssMB: number; heapMB: number; timers: number; handles: number }> {
  const r = await inspector.evaluate<{ rss: number; heap: number; resources: string[] }>(
    `(() => { globalThis.gc?.(); const m = process.memoryUsage(); return { rss: m.rss, heap: m.heapUsed, resources: process.getActiveResourcesInfo() }; })()`,
  );
  const timers = r.resources.filter((k) => k === 'Timeout' || k === 'Immediate').length;
  return { rssMB: r.rss / 2 ** 20, heapMB: r.heap / 2 ** 20, timers, handles: r.resources.length - timers };
}

/** BENCH_DEBUG: the page's named parts with the most elements, to find what grew. */
const WHERE_NODES_ARE = `(() => {
  const parts = [...document.querySelectorAll('[aria-label], [role], aside, section, nav, dialog')];
  return parts
    .map((e) => [(e.getAttribute('aria-label') ?? e.getAttribute('role') ?? e.tagName).slice(0, 40), e.querySelectorAll('*').length])
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([n, c]) => n + ': ' + c)
    .concat('attached: ' + document.getElementsByTagName('*').length)
    .join(' | ');
})()`;

/**
 * A heap snapshot's bytes in three parts. Compiled code grows over a shift as V8 optimises more
 * of the page's functions: bounded by the page's own code, not by the work done. The inspector's
 * records of network requests (`blink::NetworkResourcesData`) exist only because the benchmark
 * drives the page through DevTools, and grow with every bridge call. The rest is what the page's
 * code holds: its objects, strings, closures and DOM. That part is the one a leak grows.
 */
function rendererParts(snapshotJson: string): { dataMB: number; codeMB: number; inspectorMB: number } {
  const snap = JSON.parse(snapshotJson) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snap.snapshot.meta.node_fields;
  const typeNames = snap.snapshot.meta.node_types[0];
  const [width, typeAt, nameAt, sizeAt] = [fields.length, fields.indexOf('type'), fields.indexOf('name'), fields.indexOf('self_size')];
  let data = 0;
  let code = 0;
  let inspector = 0;
  for (let i = 0; i < snap.nodes.length; i += width) {
    const size = snap.nodes[i + sizeAt]!;
    if (typeNames[snap.nodes[i + typeAt]!] === 'code') code += size;
    else if (snap.strings[snap.nodes[i + nameAt]!]!.startsWith('blink::NetworkResourcesData')) inspector += size;
    else data += size;
  }
  return { dataMB: data / 2 ** 20, codeMB: code / 2 ** 20, inspectorMB: inspector / 2 ** 20 };
}

/** The page after a collection: JS heap, its parts from a snapshot, DOM nodes, event listeners. */
async function readRenderer(page: Page): Promise<{ heapMB: number; dataMB: number; codeMB: number; nodes: number; listeners: number }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    const counters = (await cdp.send('Memory.getDOMCounters')) as { nodes: number; jsEventListeners: number };
    const chunks: string[] = [];
    cdp.on('HeapProfiler.addHeapSnapshotChunk', (c: { chunk: string }) => chunks.push(c.chunk));
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    const parts = rendererParts(chunks.join(''));
    return { heapMB: heap.usedSize / 2 ** 20, ...parts, nodes: counters.nodes, listeners: counters.jsEventListeners };
  } finally {
    await cdp.detach();
  }
}

/** Every file of the profile and its size, by its path inside the profile (workspace folders by their order). */
function profileFiles(dir: string): Record<string, number> {
  const out: Record<string, number> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out[relative(dir, p)] = statSync(p).size;
    }
  };
  walk(dir);
  return out;
}

async function post(sb: Standin, path: string, body: unknown): Promise<Rec> {
  const res = await fetch(`${sb.baseUrl}/chatapi/1.0/api/v2${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.tokens.admin}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${path} answered ${res.status}`);
  return (await res.json()) as Rec;
}

/** One of the attendant's open sessions made long, so each hour opens a thread with many pages. */
async function makeLongThread(sb: Standin): Promise<string> {
  const own = (await post(sb, '/user-session', {
    conditions: [
      { key: 'status', operator: 'EQ', value: 'OPEN' },
      { key: 'lastAgent', operator: 'EQ', value: sb.demoAgent.userName, logic: 'AND' },
    ],
    sort: false,
    page: 0,
    size: 1,
  })) as { results: Rec[] };
  const session = own.results[0];
  if (!session) throw new Error('the demo attendant has no open session to make long');
  for (let i = 0; i < LONG_THREAD_MESSAGES; i++) {
    await post(sb, '/messages/save', {
      session: { id: session.id },
      message: `Linha ${i + 1} do histórico longo do pedido.`,
      fromUser: i % 2 === 0,
    });
  }
  return String(session.protocol);
}

/** Types the reply and sees it in the box before sending, as a person would (typed again if the box lost it). */
async function typeReply(box: Locator, text: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    await box.fill(text);
    await new Promise((r) => setTimeout(r, 200));
    if ((await box.inputValue()) === text) return;
  }
  throw new Error('the reply box did not keep the text typed into it');
}

/** The attendant's part of one session: accept the oldest waiting customer, reply, maybe a note, then transfer or close. */
async function handleOne(page: Page, n: number): Promise<boolean> {
  await page.getByRole('searchbox', { name: 'Filter sessions' }).fill('');
  await page.getByRole('tab', { name: /Waiting/ }).click();
  const accept = page.getByRole('list', { name: 'Waiting' }).getByRole('button', { name: /^Accept session of / });
  try {
    await accept.first().waitFor({ timeout: STEP_MS });
  } catch {
    return false; // nobody waiting yet: the simulator brings the next customer
  }
  const customer = ((await accept.first().getAttribute('aria-label')) ?? '').replace(/^Accept session of /, '');
  // The waiting list moves as customers keep arriving: this customer's button is pressed where it is now.
  await page
    .getByRole('list', { name: 'Waiting' })
    .getByRole('button', { name: `Accept session of ${customer}`, exact: true })
    .first()
    .click({ force: true });
  // The accepted session's thread is the one in front before the attendant types.
  await page.getByRole('log', { name: `Messages with ${customer}` }).waitFor({ timeout: STEP_MS });
  const box = page.getByRole('textbox', { name: /Reply to/ });
  await box.waitFor({ timeout: STEP_MS });
  const reply = `Olá! Já estou verificando, atendimento ${n}.`;
  await typeReply(box, reply);
  await box.press('Enter');
  await page
    .getByRole('log', { name: /Messages with/ })
    .getByText(reply)
    .first()
    .waitFor({ timeout: STEP_MS });
  if (n % 3 === 0) {
    await page.getByRole('tab', { name: /Notes/ }).click();
    const notes = page.getByRole('region', { name: 'Notes' });
    await notes.getByRole('textbox', { name: 'New note' }).fill(`Nota do atendimento ${n}.`);
    await notes.getByRole('button', { name: 'Add note' }).click();
    await notes.getByText(`Nota do atendimento ${n}.`).first().waitFor({ timeout: STEP_MS });
  }
  if (n % 5 === 0) {
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Transfer the session' });
    const pick = dialog.getByRole('combobox', { name: 'Choose a group' });
    await pick.getByRole('option').nth(2).waitFor({ state: 'attached', timeout: STEP_MS });
    const options = (await pick.getByRole('option').allTextContents()).map((t) => t.trim()).filter((t) => t && t !== '—');
    await pick.selectOption({ label: options[n % options.length]! });
    await dialog.getByRole('button', { name: 'Transfer', exact: true }).click();
    await dialog.waitFor({ state: 'hidden', timeout: STEP_MS });
    return true;
  }
  await page.getByRole('button', { name: 'Classify and close' }).click();
  const dialog = page.getByRole('dialog', { name: 'Classify and close' });
  await dialog.getByRole('tree', { name: 'Classification' }).waitFor({ timeout: STEP_MS });
  await dialog.getByRole('treeitem').nth(2).click();
  await dialog.getByRole('button', { name: 'Close the session' }).click();
  await dialog.waitFor({ state: 'hidden', timeout: STEP_MS });
  return true;
}

/** The hour's other work: the long thread opened and scrolled back, and a search. */
async function hourlyChores(page: Page, longProtocol: string, hour: number): Promise<void> {
  await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(longProtocol);
  await page.getByRole('tab', { name: /Mine/ }).click();
  const row = page.getByRole('list', { name: 'Mine' }).getByRole('button').first();
  await row.waitFor({ timeout: STEP_MS });
  await row.click();
  const log = page.getByRole('log', { name: /Messages with/ });
  await log.getByText(`Linha ${LONG_THREAD_MESSAGES} do histórico`).first().waitFor({ timeout: STEP_MS });
  await page.getByRole('searchbox', { name: 'Filter sessions' }).fill('');
  await page.keyboard.press('Control+Shift+S');
  const search = page.getByRole('searchbox', { name: 'Search sessions and messages' });
  await search.waitFor({ timeout: STEP_MS });
  await search.fill(hour % 2 ? 'pedido' : 'entrega');
  await page.getByRole('region', { name: 'Search results' }).waitFor({ timeout: STEP_MS });
  await page.keyboard.press('Escape');
}

/** The page's last errors (uncaught, or written to its console as errors), for a failed step's report. */
const pageErrors = new WeakMap<Page, string[]>();
function keepPageErrors(page: Page): void {
  const kept: string[] = [];
  pageErrors.set(page, kept);
  const keep = (text: string) => {
    kept.push(text.slice(0, 500));
    if (kept.length > 20) kept.shift();
  };
  page.on('pageerror', (e) => keep(`uncaught: ${e.stack ?? e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') keep(`console: ${m.text()}`);
  });
}

/** Runs one step of the attendant's; when it fails, the page as it was and its last errors are kept beside the error. */
async function atFault<T>(page: Page, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (e) {
    const shot = join(tmpdir(), `bench-shift-failed-${Date.now()}.png`);
    await page.screenshot({ path: shot }).catch(() => undefined);
    // Each list the page offers, with how many choices it holds (a list left empty shows here).
    const lists = await page
      .evaluate(() =>
        [...document.querySelectorAll('select')]
          .map(
            (el) =>
              `${el.getAttribute('aria-label') ?? el.closest('label')?.textContent?.trim().slice(0, 30) ?? el.name}: ${el.options.length}`,
          )
          .join('; '),
      )
      .catch(() => 'unreadable');
    const errors = [`lists: ${lists}`, ...(pageErrors.get(page) ?? [])];
    const said = `; the page then held ${errors.join('\n')}`;
    throw new Error(`${errorText(e)} (the page then: ${shot}${said})`, { cause: e });
  }
}

async function switchTo(page: Page, sb: Standin): Promise<void> {
  const host = new URL(sb.baseUrl).host.replaceAll('.', '\\.');
  await page
    .getByRole('group', { name: 'Workspaces' })
    .getByRole('button', { name: new RegExp(`(^|, )${host}( · [^,:]+)?(,|:|$)`) })
    .click();
  await page.getByRole('tab', { name: /Waiting/ }).waitFor({ timeout: STEP_MS });
}

function hourRows(first: HourReading, last: HourReading): BenchRow[] {
  const ratio = (figure: string, a: number, b: number, unit: string): BenchRow => {
    const r = b / a;
    return {
      figure,
      value: Number(b.toFixed(2)),
      unit,
      baseline: Number(a.toFixed(2)),
      ratio: Number(r.toFixed(3)),
      budget: `≤ ${GROWTH_RATIO}×`,
      holds: r <= GROWTH_RATIO,
    };
  };
  const rows: BenchRow[] = [
    ratio(
      `shift: renderer heap after GC, what the page holds (snapshot less compiled code and the inspector's records), hour ${last.hour} vs hour ${first.hour}`,
      first.rendererDataMB,
      last.rendererDataMB,
      'MB',
    ),
    {
      figure: `shift: renderer JS heap after GC as V8 reports it (compiled code included), hour ${last.hour}`,
      value: Number(last.rendererHeapMB.toFixed(2)),
      unit: 'MB',
      baseline: Number(first.rendererHeapMB.toFixed(2)),
      ratio: Number((last.rendererHeapMB / first.rendererHeapMB).toFixed(3)),
    },
    {
      figure: `shift: renderer compiled code, hour ${last.hour}`,
      value: Number(last.rendererCodeMB.toFixed(2)),
      unit: 'MB',
      baseline: Number(first.rendererCodeMB.toFixed(2)),
      ratio: Number((last.rendererCodeMB / first.rendererCodeMB).toFixed(3)),
    },
    ratio(`shift: DOM nodes, hour ${last.hour} vs hour ${first.hour}`, first.domNodes, last.domNodes, 'nodes'),
    ratio(`shift: page event listeners, hour ${last.hour} vs hour ${first.hour}`, first.listeners, last.listeners, 'listeners'),
    ratio(`shift: host V8 heap after GC, hour ${last.hour} vs hour ${first.hour}`, first.hostHeapMB, last.hostHeapMB, 'MB'),
    {
      figure: `shift: host RSS growth, hour ${last.hour} over hour ${first.hour}`,
      value: Number((last.hostRssMB - first.hostRssMB).toFixed(1)),
      unit: 'MB',
      baseline: Number(first.hostRssMB.toFixed(1)),
      budget: `≤ ${RSS_GROWTH_MB} MB`,
      holds: last.hostRssMB - first.hostRssMB <= RSS_GROWTH_MB,
    },
    ratio(`shift: host timers, hour ${last.hour} vs hour ${first.hour}`, Math.max(1, first.hostTimers), last.hostTimers, 'timers'),
    ratio(`shift: host open handles, hour ${last.hour} vs hour ${first.hour}`, Math.max(1, first.hostHandles), last.hostHandles, 'handles'),
  ];
  const kindsFirst = byKind(first.profileBytes);
  for (const [kind, now] of Object.entries(byKind(last.profileBytes))) {
    const before = kindsFirst[kind] ?? { bytes: 0, files: 0 };
    const grew = now.bytes - before.bytes;
    rows.push({
      figure: `shift: profile ${kind} (${now.files} file(s)), growth over the shift`,
      value: grew,
      unit: 'bytes',
      baseline: before.bytes,
      budget: `≤ ${FILE_GROWTH_BYTES / 2 ** 20} MB`,
      holds: grew <= FILE_GROWTH_BYTES,
    });
  }
  return rows;
}

/**
 * The profile's files by kind: each workspace's folder, each kept thread and the temporary files
 * of writes (in flight when read, or left by a write cut short) counted together.
 */
function byKind(files: Record<string, number>): Record<string, { bytes: number; files: number }> {
  const out: Record<string, { bytes: number; files: number }> = {};
  for (const [file, size] of Object.entries(files)) {
    const kind = file
      .replace(/^workspaces\/[^/]+\//, 'workspaces/*/')
      .replace(/\.[^./]+\.tmp$/, '.*.tmp')
      .replace(/\d+(\.\w+)$/, '*$1');
    const k = (out[kind] ??= { bytes: 0, files: 0 });
    k.bytes += size;
    k.files++;
  }
  return out;
}

function printHours(hours: HourReading[]): void {
  console.log('\nshift, hour by hour:');
  console.log(
    'hour  sessions  host RSS MB  host heap MB  timers  handles  page heap MB  page data MB  page code MB  DOM nodes  listeners  profile kB',
  );
  for (const h of hours) {
    const profileKB = Object.values(h.profileBytes).reduce((a, b) => a + b, 0) / 1024;
    console.log(
      [
        h.hour,
        h.sessions,
        h.hostRssMB.toFixed(1),
        h.hostHeapMB.toFixed(1),
        h.hostTimers,
        h.hostHandles,
        h.rendererHeapMB.toFixed(1),
        h.rendererDataMB.toFixed(2),
        h.rendererCodeMB.toFixed(2),
        h.domNodes,
        h.listeners,
        profileKB.toFixed(0),
      ]
        .map(String)
        .join('\t'),
    );
  }
}

export async function run(): Promise<BenchRow[]> {
  const services = [
    await startStandin({ port: 0, simulator: { intervalMs: SIMULATOR_MS } }),
    await startStandin({ port: 0, reading: 'variant', simulator: { intervalMs: SIMULATOR_MS } }),
  ];
  const longProtocols = await Promise.all(services.map(makeLongThread));
  const profile = freshProfile();
  const host = await spawnInspectedHost(profile);
  const browser = await launchChromium();
  const hours: HourReading[] = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    keepPageErrors(page);
    for (const [i, sb] of services.entries()) {
      await connectAttendant(page, host.url, {
        baseUrl: sb.baseUrl,
        token: sb.tokens.agent,
        userName: sb.demoAgent.userName,
        beside: i > 0,
      });
      await page.getByRole('tab', { name: /Waiting/ }).waitFor({ timeout: 60_000 });
    }
    let handled = 0;
    let current = 1;
    for (let hour = 1; hour <= HOURS; hour++) {
      let inHour = 0;
      for (let tries = 0; inHour < SESSIONS_PER_HOUR && tries < SESSIONS_PER_HOUR * 4; tries++) {
        if (handled > 0 && handled % SWITCH_EVERY === 0 && inHour > 0) {
          current = 1 - current;
          await switchTo(page, services[current]!);
        }
        if (await atFault(page, () => handleOne(page, handled + 1))) {
          handled++;
          inHour++;
        }
      }
      if (inHour < SESSIONS_PER_HOUR) throw new Error(`hour ${hour}: only ${inHour} of ${SESSIONS_PER_HOUR} sessions could be handled`);
      await hourlyChores(page, longProtocols[current]!, hour);
      const h = await readHost(host.inspector);
      const r = await readRenderer(page);
      hours.push({
        hour,
        sessions: handled,
        hostRssMB: h.rssMB,
        hostHeapMB: h.heapMB,
        hostTimers: h.timers,
        hostHandles: h.handles,
        rendererHeapMB: r.heapMB,
        rendererDataMB: r.dataMB,
        rendererCodeMB: r.codeMB,
        domNodes: r.nodes,
        listeners: r.listeners,
        profileBytes: profileFiles(profile),
      });
      if (process.env.BENCH_DEBUG) {
        printHours(hours.slice(-1));
        console.log(await page.evaluate(WHERE_NODES_ARE));
      }
    }
    printHours(hours);
    const rows = hourRows(hours[0]!, hours[hours.length - 1]!);
    rows.push({ figure: `shift: sessions handled over ${HOURS} simulated hours`, value: handled, unit: 'sessions' });
    return rows;
  } finally {
    host.inspector.close();
    await browser.close();
    await stopHost(host.child);
    for (const sb of services) await sb.close();
  }
}
