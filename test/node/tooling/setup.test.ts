import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { chmod, copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../../support/electron';
import { tempDirs } from '../../support/temp-dirs';

// The setup script is plain JavaScript (it runs before any TypeScript tooling is installed).
type NodeState = { state: 'ok' } | { state: 'missing' | 'stale'; why: string };
type DebianPlan = { kind: 'none' } | { kind: 'install'; commands: string[][] } | { kind: 'ask'; line: string };
type NodePlan = { kind: 'this' } | { kind: 'fetch'; spec: string; integrity: string } | { kind: 'none'; line: string };
interface SetupModule {
  nodePlan: (here: { version: string; platform: string; arch: string }, pinned: { version: string; integrity: string } | null) => NodePlan;
  NODE_PACKAGE: string;
  NODE_MAJOR: number;
  nodePackagesState: (root: string) => NodeState;
  debianPlan: (missing: string[], machine: { root: boolean; apt: boolean }) => DebianPlan;
  TEST_DEBIAN_PACKAGES: string[];
}
const SCRIPT = join(ROOT, 'scripts', 'setup.mjs');
const setup = (): Promise<SetupModule> => import(pathToFileURL(SCRIPT).href) as Promise<SetupModule>;

const newDir = tempDirs('setup-');

type Entry = { version: string; optional?: boolean };
async function project(lock: Record<string, Entry>, installed?: Record<string, Entry>): Promise<string> {
  const dir = await newDir();
  await writeFile(join(dir, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': { name: 'x' }, ...lock } }));
  if (installed) {
    await mkdir(join(dir, 'node_modules'));
    await writeFile(join(dir, 'node_modules', '.package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: installed }));
  }
  return dir;
}

test('Node packages: installed only when node_modules is missing or differs from the lockfile', async () => {
  const { nodePackagesState } = await setup();
  const zod = { 'node_modules/zod': { version: '4.6.7' } };
  const esbuildMac = { 'node_modules/@esbuild/darwin-arm64': { version: '0.25.0', optional: true } };

  expect(nodePackagesState(await project(zod))).toEqual({ state: 'missing', why: 'node_modules is missing' });
  expect(nodePackagesState(await project(zod, zod)).state).toBe('ok');
  // Another platform's optional build is never installed here: still up to date.
  expect(nodePackagesState(await project({ ...zod, ...esbuildMac }, zod)).state).toBe('ok');

  const older = nodePackagesState(await project(zod, { 'node_modules/zod': { version: '3.25.0' } }));
  expect(older).toEqual({ state: 'stale', why: 'node_modules/zod is 3.25.0, the lockfile wants 4.6.7' });
  const absent = nodePackagesState(await project({ ...zod, 'node_modules/undici': { version: '7.30.2' } }, zod));
  expect(absent).toEqual({ state: 'stale', why: 'node_modules/undici is not installed' });
  const extra = nodePackagesState(await project(zod, { ...zod, 'node_modules/left-pad': { version: '1.3.0' } }));
  expect(extra).toEqual({ state: 'stale', why: 'node_modules/left-pad is installed but not in the lockfile' });
  // A node_modules another tool made, without npm's record of what it installed.
  const dir = await project(zod);
  await mkdir(join(dir, 'node_modules'));
  expect(nodePackagesState(dir).state).toBe('stale');
});

test('Debian packages: root with apt installs them, anyone else is told the one command to run', async () => {
  const { debianPlan, TEST_DEBIAN_PACKAGES } = await setup();
  expect(TEST_DEBIAN_PACKAGES).toEqual(expect.arrayContaining(['chromium', 'espeak-ng', 'pocketsphinx-en-us', 'xvfb', 'nats-server']));
  expect(debianPlan([], { root: false, apt: true })).toEqual({ kind: 'none' });
  expect(debianPlan(['chromium', 'sox'], { root: true, apt: true })).toEqual({
    kind: 'install',
    commands: [
      ['apt-get', 'update'],
      ['apt-get', 'install', '-y', '--no-install-recommends', 'chromium', 'sox'],
    ],
  });
  expect(debianPlan(['chromium', 'sox'], { root: false, apt: true })).toEqual({
    kind: 'ask',
    line: 'Missing system packages: chromium sox. Run: sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium sox',
  });
  expect(debianPlan(['sox'], { root: true, apt: false })).toMatchObject({ kind: 'ask', line: expect.stringContaining('install sox with') });
});

test("the project's Node: an older one fetches the pinned package first; elsewhere the user is told what to install", async () => {
  const { nodePlan, NODE_PACKAGE, NODE_MAJOR } = await setup();
  const pinned = { version: '24.21.0', integrity: 'sha512-abc' };
  const linux = { platform: 'linux', arch: 'x64' };
  expect(nodePlan({ version: '20.20.2', ...linux }, pinned)).toEqual({
    kind: 'fetch',
    spec: `${NODE_PACKAGE}@24.21.0`,
    integrity: 'sha512-abc',
  });
  expect(nodePlan({ version: `${NODE_MAJOR}.1.0`, ...linux }, pinned)).toEqual({ kind: 'this' });
  expect(nodePlan({ version: '20.20.2', platform: 'darwin', arch: 'arm64' }, pinned)).toEqual({
    kind: 'none',
    line: `This project's tools need Node ${NODE_MAJOR} (this is Node 20.20.2): install it from https://nodejs.org and run again.`,
  });
  expect(nodePlan({ version: '20.20.2', ...linux }, null).kind).toBe('none');
});

test('engines says what is true: every locked package accepts the Node the project runs on, and the tests run on it', async () => {
  const { NODE_PACKAGE, NODE_MAJOR } = await setup();
  const semver = (await import('semver')).default;
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
  };
  const refusing = Object.entries(lock.packages)
    .map(([path, e]) => [path, !Array.isArray(e.engines) ? e.engines?.node : undefined] as const)
    .filter(([, range]) => range && !semver.subset(pkg.engines.node, range));
  expect(refusing).toEqual([]);
  const pinned = lock.packages[`node_modules/${NODE_PACKAGE}`]?.version ?? '';
  expect(semver.satisfies(pinned, pkg.engines.node), pinned).toBe(true);
  expect(semver.major(pinned)).toBe(NODE_MAJOR);
  // `npm test` put the project's Node first on PATH: this very test runs on it.
  if (process.platform === 'linux' && process.arch === 'x64') expect(process.versions.node).toBe(pinned);
});

const debian = spawnSync('sh', ['-c', 'command -v dpkg-query && command -v apt-get'], { stdio: 'ignore' }).status === 0;
const env = (packages: string) => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir(), SETUP_DEBIAN_PACKAGES: packages });

test('npm test on a machine missing a system package stops and names the command, without installing', async () => {
  test.skip(!debian, 'needs a Debian system (dpkg-query, apt-get)');
  // Run as a user who may not install anything: root's run drops to nobody, with a copy of the
  // script where nobody can read it (the checkout may be private to root).
  const asRoot = process.getuid?.() === 0;
  let script = SCRIPT;
  if (asRoot) {
    const dir = await newDir();
    await mkdir(join(dir, 'scripts'));
    script = join(dir, 'scripts', 'setup.mjs');
    await copyFile(SCRIPT, script);
    await chmod(dir, 0o755);
    await chmod(join(dir, 'scripts'), 0o755);
    await chmod(script, 0o644);
  }
  const missing = spawnSync(process.execPath, [script, 'test'], {
    encoding: 'utf8',
    timeout: 30_000,
    env: env('dpkg console-no-such-package'),
    ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
  });
  expect(missing.stderr).toContain(
    'Missing system packages: console-no-such-package. Run: sudo apt-get update && sudo apt-get install -y --no-install-recommends console-no-such-package',
  );
  expect(missing.status).toBe(1);
});

test('with everything present the setup does nothing and says nothing', async () => {
  test.skip(!debian, 'needs a Debian system (dpkg-query, apt-get)');
  // dpkg is on every Debian system, so nothing can be installed here even as root; and this
  // checkout's node_modules matches the lockfile (else the script would reinstall it mid-run).
  const { nodePackagesState } = await setup();
  expect(nodePackagesState(ROOT)).toEqual({ state: 'ok' });
  const ready = spawnSync(process.execPath, [SCRIPT, 'test'], { cwd: ROOT, encoding: 'utf8', timeout: 30_000, env: env('dpkg') });
  expect(ready.stderr).toBe('');
  expect(ready.stdout).toBe('');
  expect(ready.status).toBe(0);
});
