import { test, expect } from '@playwright/test';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchHost, webBridge } from '../../support/host';
import { tempDirs } from '../../support/temp-dirs';
import { openDemoSession } from '../../support/console';
import { serviceApi } from '../../support/web';
import { LOCK_FILE } from '../../../src-main/host/profile-lock';
import { RESOURCES, V2 } from '../../../src-shared/paths';
import { splitRef } from '../../../src-shared/note-ref';
import { ROOT } from '../../support/root';

const HOST_JS = join(ROOT, 'out', 'main', 'host.js');
const START_MJS = join(ROOT, 'scripts', 'start.mjs');
const tempDir = tempDirs('console-lock-');

/** `npm start` in host mode, as a user runs it: the built host, its exit code and what it printed. */
function runHost(args: string[], script = HOST_JS): Promise<{ code: number | null; stdout: string; stderr: string }> {
  if (!existsSync(HOST_JS)) throw new Error('The console is not built: run `npm run build` (npm test does it first).');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CONSOLE_NO_ELECTRON: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    // A refused start ends at once; one that did start is stopped so the test fails instead of hanging.
    const timer = setTimeout(() => child.kill('SIGTERM'), 15_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const lockOf = (profile: string) =>
  JSON.parse(readFileSync(join(profile, LOCK_FILE), 'utf8')) as { pid: number; nonce: string; address: string | null };

test('a second console on the same profile says where the first runs and exits; the first keeps working and sends each note once', async () => {
  const profile = await tempDir();
  const host = await launchHost(profile);
  try {
    const { call, sb, sessionId } = await openDemoSession(host.app);
    // The service refuses notes for now: all ten wait in the outbox's journal in the profile.
    await sb.faults.set([{ match: { path: V2 + RESOURCES.sessionComment.save }, kind: 'status', status: 503 }]);
    const texts = Array.from({ length: 10 }, (_, i) => `Nota de teste de perfil ${i + 1}`);
    for (const text of texts) await call('notes:add', { sessionId, text });
    const before = lockOf(profile);
    expect(before).toMatchObject({ pid: process.pid, address: host.origin });

    const second = await runHost(['--profile', profile]);
    expect(second.code).not.toBe(0);
    expect(second.stdout).toBe('');
    expect(second.stderr.trim().split('\n')).toEqual([
      `The profile ${profile} is in use by another console (pid ${process.pid}, at ${host.origin}): use that one, or stop it first.`,
    ]);
    expect(lockOf(profile)).toEqual(before);
    // `npm start` says the same before it rebuilds anything under the running console.
    const builtAt = statSync(HOST_JS).mtimeMs;
    const start = await runHost(['--profile', profile], START_MJS);
    expect(start.code).toBe(1);
    expect(start.stderr).toContain(`The profile ${profile} is in use by another console (pid ${process.pid}, at ${host.origin})`);
    expect(statSync(HOST_JS).mtimeMs).toBe(builtAt);

    // The first console still answers, and once the service takes notes again each arrives once.
    expect((await call('workspace:state', {})).signedIn).toBe(true);
    await sb.faults.clear();
    const api = serviceApi(sb.baseUrl, sb.tokens.agent);
    const delivered = async () =>
      (await api.list(RESOURCES.sessionComment.list, [{ key: 'sessionId', operator: 'EQNUM', value: String(sessionId) }]))
        .map((n) => splitRef(String(n.comment)).text)
        .filter((t) => texts.includes(t));
    await expect.poll(async () => (await delivered()).length, { timeout: 45_000 }).toBeGreaterThanOrEqual(10);
    await expect.poll(async () => (await call('notes:list', { sessionId })).local.every((n) => n.state === 'confirmed')).toBe(true);
    expect((await delivered()).sort()).toEqual([...texts].sort());
  } finally {
    await host.close();
  }
  expect(existsSync(join(profile, LOCK_FILE))).toBe(false);
});

test('a taken port is one clear line, a non-zero exit, and no profile written', async () => {
  const busy = await launchHost(await tempDir());
  try {
    const port = new URL(busy.origin).port;
    const profile = join(await tempDir(), 'never-created');
    const r = await runHost(['--profile', profile, '--port', port]);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toEqual([
      `Port ${port} on 127.0.0.1 is taken by another program: start with --port N for another one, or without --port for any free one.`,
    ]);
    expect(existsSync(profile)).toBe(false);
  } finally {
    await busy.close();
  }
});

test('the lock of a console that is gone is taken over', async () => {
  const profile = await tempDir();
  const gone = spawnSync(process.execPath, ['-e', '']).pid;
  writeFileSync(join(profile, LOCK_FILE), JSON.stringify({ pid: gone, nonce: 'old', address: 'http://127.0.0.1:9' }));
  const host = await launchHost(profile);
  try {
    expect(lockOf(profile)).toMatchObject({ pid: process.pid, address: host.origin });
  } finally {
    await host.close();
  }
});

test("a console's second start reuses the code its first compiled (Node's compile cache, in the temporary folder)", async () => {
  const tmp = await tempDir();
  const profile = join(await tempDir(), 'profile');
  const { NODE_COMPILE_CACHE: _set, ...env } = process.env;
  /** Starts the built console, has it start its services (a bridge call waits for them), stops it. */
  const startAndStop = async () => {
    const child = spawn(process.execPath, [HOST_JS, '--profile', profile], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...env, TMPDIR: tmp },
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    try {
      const url = await new Promise<string>((resolve) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString('utf8');
          const m = /(http:\/\/127\.0\.0\.1:\d+)\/\?k=\S+/.exec(out);
          if (m) resolve(m[0]);
        });
      });
      const call = await webBridge({ url, origin: new URL(url).origin });
      expect((await call('workspace:state')).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      clearTimeout(timer);
    }
  };
  /** Each cached file, with when it was written. */
  const cached = () =>
    new Map(
      readdirSync(join(tmp, 'node-compile-cache'), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => [join(e.parentPath, e.name), statSync(join(e.parentPath, e.name)).mtimeMs] as const),
    );
  await startAndStop();
  const first = cached();
  // The services' modules (the app, the service client, the stores) were compiled and kept.
  expect(first.size).toBeGreaterThan(8);
  await startAndStop();
  // Read, not compiled again: every file the first start wrote is still there, unwritten.
  const second = cached();
  for (const [file, writtenAt] of first) expect(second.get(file), file).toBe(writtenAt);
});
