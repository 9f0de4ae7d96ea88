import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_LAUNCH } from '../test/support/chromium';
import { createConfStore } from '../src-main/vault/conf-store';

export const ROOT = join(import.meta.dirname, '..');

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** A profile folder whose remembered choice is already the given workspace. */
export function profileWith(workspace: { kind: 'demo' } | { kind: 'remote'; baseUrl: string }): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-profile-'));
  createConfStore(dir, 'settings').set('workspace', workspace);
  return dir;
}

/**
 * Starts a Node program as its own process and waits for the first address matching `address`
 * on its standard output; `startedAt` is just before the spawn. `input`: its standard input is a
 * pipe the caller writes to (else it has none).
 */
export async function spawnPrinting(
  args: string[],
  address: RegExp,
  o: { input?: boolean } = {},
): Promise<{ child: ChildProcess; url: string; startedAt: number }> {
  const startedAt = performance.now();
  const child = spawn(process.execPath, args, { stdio: [o.input ? 'pipe' : 'ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not print its address within 60 s`)), 60_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = address.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
  return { child, url, startedAt };
}

/** Node's flags for the host process, as `npm start` gives them (scripts/start.mjs). */
export const HOST_NODE_FLAGS: readonly string[] = JSON.parse(
  readFileSync(join(ROOT, 'src-main', 'host', 'node-flags.json'), 'utf8'),
) as string[];

/** Starts the built host (`out/main/host.js`) as its own process and waits for its address. */
export function spawnHost(profileDir: string): Promise<{ child: ChildProcess; url: string; startedAt: number }> {
  return spawnPrinting(
    [...HOST_NODE_FLAGS, join(ROOT, 'out', 'main', 'host.js'), '--profile', profileDir],
    /(http:\/\/127\.0\.0\.1:\d+\/\?k=\S+)/,
  );
}

export async function stopHost(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch(CHROMIUM_LAUNCH);
}

/** CPU seconds (user + system) in a /proc `stat` file: a process's, or one of its threads'. */
function statCpuSeconds(path: string): number {
  const stat = readFileSync(path, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100; // USER_HZ is 100 on Linux
}

/** CPU seconds (user + system) a process has used, from /proc. */
export function cpuSeconds(pid: number): number {
  return statCpuSeconds(`/proc/${pid}/stat`);
}

/**
 * CPU seconds a Node process's running threads have used, by kind: its main thread, V8's helper
 * threads (compilers, GC), its worker threads (`new Worker`), and the rest (libuv's pool...).
 * Threads that already ended are in `cpuSeconds` only.
 */
export function threadCpuSeconds(pid: number): { main: number; v8: number; workers: number; other: number } {
  const out = { main: 0, v8: 0, workers: 0, other: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let name: string;
    let cpu: number;
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      cpu = statCpuSeconds(`/proc/${pid}/task/${tid}/stat`);
    } catch {
      continue; // the thread ended meanwhile
    }
    if (tid === String(pid)) out.main += cpu;
    else if (name.startsWith('V8')) out.v8 += cpu;
    else if (name === 'WorkerThread') out.workers += cpu;
    else out.other += cpu;
  }
  return out;
}

/** Signs the page in to a service through "Connect to a service", as an attendant would. */
export async function connectAttendant(
  page: Page,
  hostUrl: string,
  o: { baseUrl: string; token: string; userName: string; beside?: boolean },
): Promise<void> {
  // `beside`: another workspace, added next to those the console has.
  if (o.beside) await page.getByRole('button', { name: 'Add a workspace' }).click();
  else await page.goto(hostUrl);
  await page.getByLabel('Service address').fill(o.baseUrl);
  await page.getByLabel('Access token').fill(o.token);
  await page.getByLabel('Your user name (optional)').fill(o.userName);
  const weak = page.getByLabel('Keep the token with weak protection on this machine');
  if (await weak.count()) await weak.check();
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
}

/** One bridge call from the page, as its own script makes them; the result. */
export async function bridgeCall(page: Page, channel: string): Promise<Record<string, unknown>> {
  const envelope = await page.evaluate<{ result: Record<string, unknown> }>(
    `fetch('/bridge/' + encodeURIComponent(${JSON.stringify(channel)}), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }).then((r) => r.json())`,
  );
  return envelope.result;
}
