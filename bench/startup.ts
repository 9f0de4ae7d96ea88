import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import type { BenchRow } from './types';
import { launchChromium, percentile, profileWith, ROOT, spawnHost, stopHost } from './support';

const RUNS = 5;

/** Renderer bundle, gzipped, as a browser would download it. */
function bundleSizes(): { js: number; css: number } {
  const dir = join(ROOT, 'out', 'renderer', 'assets');
  let js = 0, css = 0;
  for (const f of readdirSync(dir)) {
    const full = join(dir, f);
    if (!statSync(full).isFile()) continue;
    const size = gzipSync(readFileSync(full), { level: 9 }).length;
    if (f.endsWith('.js')) js += size;
    else if (f.endsWith('.css')) css += size;
  }
  return { js, css };
}

export async function run(): Promise<BenchRow[]> {
  const browser = await launchChromium();
  const cold: number[] = [];
  const bare: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      // The console: a new host process on a profile that remembers the demo workspace, until the
      // queue is on screen with its sessions.
      const host = await spawnHost(profileWith({ kind: 'demo' }));
      const page = await browser.newPage();
      await page.goto(host.url);
      await page.getByRole('tab', { name: /Waiting/ }).waitFor();
      await page.locator('.session-row').first().waitFor();
      cold.push(performance.now() - host.startedAt);
      await page.close();
      await stopHost(host.child);

      // Baseline: a bare node:http server started in this process serving one static page.
      const t0 = performance.now();
      const server = createServer((_req, res) => res.end('<!doctype html><button>ok</button>'));
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      const p2 = await browser.newPage();
      await p2.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await p2.getByRole('button', { name: 'ok' }).waitFor();
      bare.push(performance.now() - t0);
      await p2.close();
      server.close();
    }
  } finally {
    await browser.close();
  }
  const { js, css } = bundleSizes();
  const p50 = percentile(cold, 50);
  const b50 = percentile(bare, 50);
  return [
    { figure: 'cold start to interactive queue (host + Chromium, p50)', value: p50, unit: 'ms', baseline: b50, ratio: p50 / b50, budget: '< 1500 ms', holds: p50 < 1500 },
    { figure: 'renderer JS (gzipped)', value: js / 1024, unit: 'kB', budget: '< 250 kB', holds: js / 1024 < 250 },
    { figure: 'renderer CSS (gzipped)', value: css / 1024, unit: 'kB' },
  ];
}
