import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import type { BenchRow } from './types';
import { cpuSeconds, launchChromium, percentile, profileWith, ROOT, spawnHost, spawnPrinting, stopHost, threadCpuSeconds } from './support';

/** Pairs of starts (console, static server): enough for a median that a single slow start does not move. */
const RUNS = 11;
/** The console's own start (host, services, stand-in, the reads behind each answer) may add this much to the page's. */
const STARTUP_RATIO = 1.3;

/**
 * Renderer JS, gzipped as a browser would download it: all of it, and what the first view loads
 * (the entry script and the chunks index.html preloads; the rest waits for its view).
 */
function bundleSizes(): { js: number; firstJs: number; css: number } {
  const renderer = join(ROOT, 'out', 'renderer');
  const html = readFileSync(join(renderer, 'index.html'), 'utf8');
  const first = new Set([...html.matchAll(/(?:src|href)="\.\/assets\/([^"]+\.js)"/g)].map((m) => m[1]));
  const dir = join(renderer, 'assets');
  let js = 0,
    firstJs = 0,
    css = 0;
  for (const f of readdirSync(dir)) {
    const full = join(dir, f);
    if (!statSync(full).isFile()) continue;
    const size = gzipSync(readFileSync(full), { level: 9 }).length;
    if (f.endsWith('.js')) js += size;
    else if (f.endsWith('.css')) css += size;
    if (first.has(f)) firstJs += size;
  }
  if (firstJs === 0) throw new Error('index.html names no script of out/renderer/assets');
  return { js, firstJs, css };
}

/** What the console's page waits for: the queue on screen with its sessions. */
async function queueShown(page: Page): Promise<void> {
  await page.getByRole('tab', { name: /Waiting/ }).waitFor();
  await page.locator('.session-row').first().waitFor();
}

export async function run(): Promise<BenchRow[]> {
  const browser = await launchChromium();
  const cold: number[] = [];
  const bare: number[] = [];
  // Process start to its printed address: how much of each figure is before the page can load.
  const coldListening: number[] = [];
  const bareListening: number[] = [];
  // CPU each server process used (all its threads) until the queue was on screen: the console's
  // own start work, which competes with Chromium's for the machine's cores.
  const coldCpu: number[] = [];
  const bareCpu: number[] = [];
  // The host's share by thread: its main thread, V8's helpers, the demo stand-in's worker.
  const coldThreads: Array<ReturnType<typeof threadCpuSeconds>> = [];
  /** Each pair's console time over its baseline's. */
  const ratios: number[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'bench-startup-'));
  const answersFile = join(scratch, 'answers.json');
  // The attendant's console starts again: its profile remembers the demo workspace, whose data
  // the first start created. That first start (once per profile) is shown on its own row.
  const profile = profileWith({ kind: 'demo' });
  let firstStart: number;
  try {
    {
      const host = await spawnHost(profile);
      const page = await browser.newPage();
      await page.goto(host.url);
      await queueShown(page);
      firstStart = performance.now() - host.startedAt;
      await page.close();
      await stopHost(host.child);
    }
    /** The console: a new host process on that profile, until the queue is on screen with its sessions. */
    const consoleStart = async (i: number): Promise<number> => {
      // The first run also records every bridge answer for the baseline.
      const host = await spawnHost(profile);
      coldListening.push(performance.now() - host.startedAt);
      const page = await browser.newPage();
      const answers: Record<string, string[]> = {};
      const reading: Array<Promise<void>> = [];
      if (i === 0) {
        page.on('response', (res) => {
          const req = res.request();
          const path = new URL(res.url()).pathname;
          if (req.method() !== 'POST' || !path.startsWith('/bridge/')) return;
          const key = `${decodeURIComponent(path.slice('/bridge/'.length))}\n${req.postData() ?? ''}`;
          reading.push(
            res.text().then(
              (body) => void (answers[key] ??= []).push(body),
              () => undefined,
            ),
          );
        });
      }
      await page.goto(host.url);
      await queueShown(page);
      const ms = performance.now() - host.startedAt;
      cold.push(ms);
      coldCpu.push(cpuSeconds(host.child.pid!) * 1000);
      coldThreads.push(threadCpuSeconds(host.child.pid!));
      if (i === 0) {
        await Promise.all(reading);
        writeFileSync(answersFile, JSON.stringify(answers));
      }
      await page.close();
      await stopHost(host.child);
      return ms;
    };
    /** Baseline: the same page from a plain static server process replaying those answers. */
    const baselineStart = async (): Promise<number> => {
      const server = await spawnPrinting(
        [join(ROOT, 'bench', 'startup-baseline.mjs'), join(ROOT, 'out', 'renderer'), answersFile],
        /(http:\/\/127\.0\.0\.1:\d+\/)/,
      );
      bareListening.push(performance.now() - server.startedAt);
      const p2 = await browser.newPage();
      await p2.goto(server.url);
      await queueShown(p2);
      const ms = performance.now() - server.startedAt;
      bare.push(ms);
      bareCpu.push(cpuSeconds(server.child.pid!) * 1000);
      await p2.close();
      await stopHost(server.child);
      return ms;
    };
    // Each run is a pair started back to back, which one goes first alternating (the first run
    // records the answers, so the console goes first there): what the machine does meanwhile
    // weighs on both sides of a pair alike, and the budget is the median of the pairs' ratios.
    for (let i = 0; i < RUNS; i++) {
      if (i % 2 === 0) {
        const ms = await consoleStart(i);
        ratios.push(ms / (await baselineStart()));
      } else {
        const bareMs = await baselineStart();
        ratios.push((await consoleStart(i)) / bareMs);
      }
    }
  } finally {
    await browser.close();
    rmSync(scratch, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  }
  const { js, firstJs, css } = bundleSizes();
  const p50 = percentile(cold, 50);
  const b50 = percentile(bare, 50);
  const ratio = percentile(ratios, 50);
  return [
    {
      figure: `cold start to interactive queue (host process + Chromium, p50 of ${RUNS}; vs the same page and answers from a static server; ratio: median of the pairs')`,
      value: p50,
      unit: 'ms',
      baseline: b50,
      ratio,
      budget: `<= ${STARTUP_RATIO} x static server`,
      holds: ratio <= STARTUP_RATIO,
    },
    { figure: `cold start to interactive queue, worst of ${RUNS}`, value: Math.max(...cold), unit: 'ms', baseline: Math.max(...bare) },
    { figure: 'first start on a new profile (the demo workspace creates its data), once', value: firstStart, unit: 'ms' },
    {
      figure: 'of which process start to its printed address, p50 (host vs static server)',
      value: percentile(coldListening, 50),
      unit: 'ms',
      baseline: percentile(bareListening, 50),
    },
    {
      figure: 'of which CPU the server process used until the queue showed (all its threads), p50 (host vs static server)',
      value: percentile(coldCpu, 50),
      unit: 'ms',
      baseline: percentile(bareCpu, 50),
    },
    ...(
      [
        ['main', "of which the host's main thread, p50"],
        ['v8', "of which V8's helper threads in the host (compilers, GC), p50"],
        ['workers', "of which the demo stand-in's thread, p50"],
      ] as const
    ).map(([kind, figure]) => ({
      figure,
      value: percentile(
        coldThreads.map((t) => t[kind] * 1000),
        50,
      ),
      unit: 'ms',
    })),
    {
      figure: "renderer JS the first view loads (gzipped; each other view's waits for it)",
      value: firstJs / 1024,
      unit: 'kB',
      budget: '< 250 kB',
      holds: firstJs / 1024 < 250,
    },
    { figure: 'renderer JS, every view (gzipped)', value: js / 1024, unit: 'kB' },
    { figure: 'renderer CSS (gzipped)', value: css / 1024, unit: 'kB' },
  ];
}
