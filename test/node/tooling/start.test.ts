import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../../support/electron';
import { freshProfile, launchHost } from '../../support/host';

// The setup and start scripts are plain JavaScript (they run before any TypeScript tooling is installed).
type Step = { cmd: string; args: string[] };
type Where = { node: string; npmCli: string | null; binDir: string; inBin: (name: string) => boolean };
interface SetupModule {
  handOverSteps: (words: string[], where: Where) => Step[];
  handOverEnv: (env: NodeJS.ProcessEnv, node: string, binDir: string) => NodeJS.ProcessEnv;
  projectNode: (
    pinnedBin: string | null,
    here: { version: string; execPath: string },
    engines: string | undefined,
  ) => { kind: 'node'; path: string } | { kind: 'none'; line: string };
  olderNodeLine: (what: string, version: string, range: string | undefined) => string | null;
  took: (ms: number) => string;
  nodePackagesState: (root: string) => { state: string };
}
interface StartModule {
  startArgs: (argv: string[]) => { check: boolean; hostArgs: string[] };
  servedAddress: (text: string) => string | null;
  checkServed: (address: string, timeoutMs?: number) => Promise<string[]>;
}
const SETUP = join(ROOT, 'scripts', 'setup.mjs');
const START = join(ROOT, 'scripts', 'start.mjs');
const setup = (): Promise<SetupModule> => import(pathToFileURL(SETUP).href) as Promise<SetupModule>;
const start = (): Promise<StartModule> => import(pathToFileURL(START).href) as Promise<StartModule>;

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; scripts: Record<string, string> };
const BIN = join(ROOT, 'node_modules', '.bin');
const PINNED = join(BIN, 'node');

/** The words a POSIX shell makes of a package.json script (no expansions are used there), and whether a word was quoted. */
function shellWords(script: string): { word: string; quoted: boolean }[] {
  return [...script.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => ({ word: m[1] ?? m[2] ?? m[3]!, quoted: m[3] === undefined }));
}
const OPERATORS = new Set(['&&', '||', ';', '|', '&']);

/** A Node on this machine's PATH outside the project, older than `engines` (Debian's own is 20), if there is one. */
function machineOlderNode(): string | null {
  const found = spawnSync('sh', ['-c', 'which -a node'], { encoding: 'utf8', env: { PATH: '/usr/local/bin:/usr/bin:/bin' } }).stdout;
  for (const path of found.split('\n').filter(Boolean)) {
    const v = spawnSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    if (Number(v.split('.')[0]) < Number(/(\d+)/.exec(pkg.engines.node)![1])) return path;
  }
  return null;
}

test('what setup hands over to: node is the project\'s Node, npm runs on it, tools come from node_modules/.bin, steps split at "&&"', async () => {
  const { handOverSteps, handOverEnv } = await setup();
  const where: Where = {
    node: '/p/node_modules/.bin/node',
    npmCli: '/usr/lib/npm/bin/npm-cli.js',
    binDir: '/p/node_modules/.bin',
    inBin: (n) => n === 'playwright',
  };
  expect(handOverSteps(['node', 'scripts/start.mjs', '--profile', '/tmp/a', '--port', '8080'], where)).toEqual([
    { cmd: '/p/node_modules/.bin/node', args: ['scripts/start.mjs', '--profile', '/tmp/a', '--port', '8080'] },
  ]);
  // The user's arguments (npm appends them) go to the last step only.
  expect(handOverSteps(['npm', 'run', 'build', '&&', 'playwright', 'test', '--workers=1', 'x.test.ts'], where)).toEqual([
    { cmd: '/p/node_modules/.bin/node', args: ['/usr/lib/npm/bin/npm-cli.js', 'run', 'build'] },
    { cmd: '/p/node_modules/.bin/playwright', args: ['test', '--workers=1', 'x.test.ts'] },
  ]);
  expect(handOverSteps(['npm', 'ci'], { ...where, npmCli: null })).toEqual([{ cmd: 'npm', args: ['ci'] }]);
  expect(() => handOverSteps(['node', 'a.mjs', '&&'], where)).toThrow('nothing to run in "node a.mjs &&"');

  const env = handOverEnv({ PATH: '/usr/bin:/bin', NODE: '/usr/bin/node', npm_node_execpath: '/usr/bin/node' }, where.node, where.binDir);
  expect(env.PATH).toBe('/p/node_modules/.bin:/usr/bin:/bin');
  expect(env.NODE).toBe(where.node);
  expect(env.npm_node_execpath).toBe(where.node);
});

test("the project's Node: the pinned one where installed, else this one if engines accepts it, else one line saying why not", async () => {
  const { projectNode, olderNodeLine } = await setup();
  expect(projectNode('/p/node_modules/.bin/node', { version: '20.20.2', execPath: '/usr/bin/node' }, '^24.0.0')).toEqual({
    kind: 'node',
    path: '/p/node_modules/.bin/node',
  });
  expect(projectNode(null, { version: '24.3.0', execPath: '/opt/node' }, '^24.0.0')).toEqual({ kind: 'node', path: '/opt/node' });
  expect(projectNode(null, { version: '20.20.2', execPath: '/usr/bin/node' }, '^24.0.0')).toEqual({
    kind: 'none',
    line: "The step after setup needs Node ^24.0.0 (package.json engines), not Node 20.20.2: run it through npm (npm start), which starts it on the project's Node.",
  });
  expect(olderNodeLine('scripts/start.mjs', '20.20.2', '^24.0.0')).toBe(
    "scripts/start.mjs needs Node ^24.0.0 (package.json engines), not Node 20.20.2: run it through npm (npm start), which starts it on the project's Node.",
  );
  expect(olderNodeLine('scripts/start.mjs', '24.0.0', '^24.0.0')).toBeNull();
  expect(olderNodeLine('scripts/start.mjs', '25.1.0', '>=24')).toBeNull();
  expect(olderNodeLine('scripts/start.mjs', '22.9.0', '>=24')).toContain('needs Node >=24');
  expect(olderNodeLine('scripts/start.mjs', '20.0.0', undefined)).toBeNull();
});

test("every package.json script that runs setup hands what follows to it, and every step it hands over runs on the project's Node", async () => {
  const { handOverSteps } = await setup();
  const bin = existsSync(BIN) ? readdirSync(BIN) : [];
  const where: Where = { node: PINNED, npmCli: '/npm-cli.js', binDir: BIN, inBin: (n) => bin.includes(n) };
  const withSetup = Object.entries(pkg.scripts).filter(([, s]) => s.includes('scripts/setup.mjs'));
  expect(withSetup.map(([name]) => name)).toEqual(expect.arrayContaining(['start', 'test', 'bench', 'package']));
  for (const [name, script] of withSetup) {
    const words = shellWords(script);
    // Nothing runs in the shell after setup: that shell looked `node` up before the project's Node was installed.
    expect(
      words.filter((w) => !w.quoted && OPERATORS.has(w.word)),
      `${name}: ${script}`,
    ).toEqual([]);
    expect(
      words.slice(0, 3).map((w) => w.word),
      name,
    ).toEqual(['node', 'scripts/setup.mjs', words[2]!.word]);
    const rest = words.slice(3).map((w) => w.word);
    if (name === 'setup') continue;
    expect(rest[0], `${name} hands over`).toBe('--');
    for (const step of handOverSteps(rest.slice(1), where)) {
      const onProjectNode =
        step.cmd === PINNED || (step.cmd.startsWith(`${BIN}/`) && /^#!.*\bnode\b/.test(readFileSync(step.cmd, 'utf8').split('\n')[0]!));
      expect(onProjectNode, `${name}: ${step.cmd}`).toBe(true);
    }
  }
  expect(pkg.scripts.start).toBe('node scripts/setup.mjs start -- node scripts/start.mjs');
  // The others start one tool of node_modules/.bin (npm puts it first on PATH, and nothing before it looked `node` up).
  for (const [name, script] of Object.entries(pkg.scripts).filter(([, s]) => !s.includes('scripts/setup.mjs'))) {
    const first = shellWords(script)[0]!.word;
    expect(first === 'npm' || first === 'node' || bin.includes(first), `${name}: ${script}`).toBe(true);
  }
});

test("setup started by the machine's older Node hands over to the pinned Node, the first run as later ones", async () => {
  const older = machineOlderNode();
  test.skip(!older, 'needs a machine Node older than engines (Debian: /usr/bin/node 20)');
  test.skip(!existsSync(PINNED), "needs the project's Node installed (Linux x64)");
  const { nodePackagesState } = await setup();
  // Else setup would reinstall this checkout's packages under the test.
  test.skip(nodePackagesState(ROOT).state !== 'ok', 'node_modules differs from the lockfile');
  const pinnedVersion = spawnSync(PINNED, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
  // PATH names the machine's Node first, as npm's shell had it before setup installed the project's.
  const env = { PATH: `/usr/local/bin:/usr/bin:/bin`, HOME: process.env.HOME ?? '/tmp', SETUP_DEBIAN_PACKAGES: 'dpkg' };
  const show =
    'console.log(JSON.stringify({ node: process.versions.node, exec: process.execPath, NODE: process.env.NODE, args: process.argv.slice(1) }))';
  const r = spawnSync(older!, [SETUP, 'start', '--', 'node', '-e', show, '--', '--profile', '/tmp/x'], {
    cwd: ROOT,
    encoding: 'utf8',
    env,
    timeout: 30_000,
  });
  expect(r.status, r.stderr).toBe(0);
  const seen = JSON.parse(r.stdout.trim().split('\n').pop()!) as { node: string; exec: string; NODE: string; args: string[] };
  expect(seen.node).toBe(pinnedVersion);
  expect(realpathSync(seen.exec)).toBe(realpathSync(PINNED));
  expect(seen.NODE).toBe(PINNED);
  expect(seen.args).toEqual(['--profile', '/tmp/x']);
  // A tool's `#!/usr/bin/env node` finds the project's Node too; a failed step stops the chain with its status.
  const chain = spawnSync(older!, [SETUP, 'start', '--', 'node', '-e', 'process.exit(3)', '&&', 'node', '-e', 'console.log("ran")'], {
    cwd: ROOT,
    encoding: 'utf8',
    env,
    timeout: 30_000,
  });
  expect(chain.status).toBe(3);
  expect(chain.stdout).not.toContain('ran');
  const tool = spawnSync(older!, [SETUP, 'start', '--', 'tsc', '--version', '&&', 'sh', '-c', 'node -p process.versions.node'], {
    cwd: ROOT,
    encoding: 'utf8',
    env,
    timeout: 30_000,
  });
  expect(tool.status, tool.stderr).toBe(0);
  expect(tool.stdout.trim().split('\n').pop()).toBe(pinnedVersion);
});

test("npm start's script and the host refuse an older Node in one line, before building or loading anything", async () => {
  const older = machineOlderNode();
  test.skip(!older, 'needs a machine Node older than engines (Debian: /usr/bin/node 20)');
  const version = spawnSync(older!, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
  const startOn = spawnSync(older!, [START, '--profile', freshProfile()], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  expect(startOn.stderr).toBe(
    `scripts/start.mjs needs Node ${pkg.engines.node} (package.json engines), not Node ${version}: run it through npm (npm start), which starts it on the project's Node.\n`,
  );
  expect(startOn.stdout).toBe('');
  expect(startOn.status).toBe(1);
  const host = join(ROOT, 'out', 'main', 'host.js');
  if (!existsSync(host)) throw new Error('The console is not built: run `npm run build` (npm test does it first).');
  const hostOn = spawnSync(older!, [host, '--profile', freshProfile()], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  expect(hostOn.stderr).toBe(
    `The console's host needs Node ${pkg.engines.node} (package.json engines), not Node ${version}: run it through npm (npm start), which starts it on the project's Node.\n`,
  );
  expect(hostOn.status).toBe(1);
});

test('npm start -- --check-served: its flag is its own, the rest reach the host; the check passes on a real host and fails on a page anyone may read', async () => {
  const { startArgs, servedAddress, checkServed } = await start();
  expect(startArgs(['--check-served', '--profile', '/tmp/a', '--port', '8080'])).toEqual({
    check: true,
    hostArgs: ['--profile', '/tmp/a', '--port', '8080'],
  });
  expect(startArgs(['--port', '8080'])).toEqual({ check: false, hostArgs: ['--port', '8080'] });
  const printed =
    "Open this address in Chromium (it carries this launch's secret):\n\n  http://127.0.0.1:41431/?k=n1NV-si1_ZR\n\nProfile: /tmp/p\n";
  expect(servedAddress(printed)).toBe('http://127.0.0.1:41431/?k=n1NV-si1_ZR');
  expect(servedAddress('Open this address in Chromium')).toBeNull();
  // Output comes in chunks: a key not yet followed by its line's end may be cut short.
  expect(servedAddress(printed.slice(0, printed.indexOf('_ZR')))).toBeNull();

  const host = await launchHost(freshProfile());
  try {
    const lines = await checkServed(host.url);
    expect(lines[0]).toMatch(/^check: page http:\/\/127\.0\.0\.1:\d+\/: 200 text\/html.*title "Agent console"$/);
    expect(lines[1]).toBe('check: bridge call without the launch key: 403 (refused)');
    expect(lines[2]).toMatch(/^check: bridge call workspace:state with the launch key: 200 \{"result":\{"workspaces":\[\]/);
  } finally {
    await host.close();
  }

  // A server that serves everyone (no key) fails the check.
  const open = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>x</title>'));
  await new Promise<void>((resolve) => open.listen(0, '127.0.0.1', resolve));
  try {
    const port = (open.address() as AddressInfo).port;
    await expect(checkServed(`http://127.0.0.1:${port}/?k=abc`, 5_000)).rejects.toThrow(
      "the launch address answered 200 without the key's cookie",
    );
  } finally {
    open.close();
  }
});

test('the install says how long it took, as a person reads it', async () => {
  const { took } = await setup();
  expect(took(41_400)).toBe('41 s');
  expect(took(125_000)).toBe('2 min 5 s');
});
