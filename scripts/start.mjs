// npm start: build, then open the console in Electron when a binary is (or can be made)
// available; otherwise serve the same console from the main-process services on loopback.
// `--check-served`: serve it on loopback, fetch the page and make one bridge call with the launch
// key as a browser would, print what came back, stop the host and exit 0 (1 when any of it fails):
// the README's first command, run by CI on a fresh clone.
// Runs on the project's Node (scripts/setup.mjs hands over to it); refuses an older one, since
// everything it starts runs on the same Node.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { enginesNode, olderNodeLine, took } from './setup.mjs';

const root = join(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

export const CHECK_FLAG = '--check-served';

/** Splits npm start's arguments: the check flag is ours, the rest go to the host (`--profile`, `--port`). @param {string[]} argv */
export function startArgs(argv) {
  return { check: argv.includes(CHECK_FLAG), hostArgs: argv.filter((a) => a !== CHECK_FLAG) };
}

/**
 * The launch address the host prints (it carries the per-launch key), once its whole line is out
 * (output arrives in chunks: a key cut short would be refused), or null. @param {string} text
 */
export function servedAddress(text) {
  return /(http:\/\/127\.0\.0\.1:\d+\/\?k=[A-Za-z0-9_-]+)\r?\n/.exec(text)?.[1] ?? null;
}

/**
 * What a browser does with the launch address, checked: the key is traded for the cookie, the
 * page comes back, a call without the key is refused, and one bridge call with it is answered.
 * Returns the lines to print; throws with what went wrong.
 * @param {string} address
 */
export async function checkServed(address, timeoutMs = 60_000) {
  const origin = new URL(address).origin;
  const lines = [];
  const signal = () => AbortSignal.timeout(timeoutMs);
  const launch = await fetch(address, { redirect: 'manual', signal: signal() });
  const cookie = (launch.headers.get('set-cookie') ?? '').split(';')[0];
  if (launch.status !== 303 || !cookie) throw new Error(`the launch address answered ${launch.status} without the key's cookie`);
  const page = await fetch(`${origin}/`, { headers: { cookie }, signal: signal() });
  const html = await page.text();
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1];
  if (page.status !== 200 || !title) throw new Error(`the page answered ${page.status} (${html.length} bytes, no title)`);
  lines.push(`check: page ${origin}/: ${page.status} ${page.headers.get('content-type')}, ${html.length} bytes, title "${title}"`);
  const call = (headers) =>
    fetch(`${origin}/bridge/workspace:state`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: '{}',
      signal: signal(),
    });
  const stranger = await call({});
  if (stranger.status !== 403) throw new Error(`a bridge call without the launch key answered ${stranger.status}, not 403`);
  lines.push(`check: bridge call without the launch key: ${stranger.status} (refused)`);
  const answer = await call({ cookie });
  const body = await answer.text();
  let envelope;
  try {
    envelope = JSON.parse(body);
  } catch {
    envelope = null;
  }
  if (answer.status !== 200 || !envelope || !('result' in envelope))
    throw new Error(`the bridge call workspace:state answered ${answer.status}: ${body.slice(0, 300)}`);
  lines.push(
    `check: bridge call workspace:state with the launch key: ${answer.status} ${body.length > 400 ? `${body.slice(0, 400)}…` : body}`,
  );
  return lines;
}

function run(cmd, args, opts = {}) {
  return spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
}

const electronDir = join(root, 'node_modules', 'electron');
function electronBinary() {
  try {
    const rel = readFileSync(join(electronDir, 'path.txt'), 'utf8').trim();
    const full = join(electronDir, 'dist', rel);
    return existsSync(full) ? full : null;
  } catch {
    return null;
  }
}

function fetchElectron() {
  if (!existsSync(join(electronDir, 'install.js'))) return false;
  console.log('Fetching the Electron binary (once)…');
  const r = run(process.execPath, [join(electronDir, 'install.js')], { timeout: 60_000, stdio: 'pipe' });
  return r.status === 0;
}

/**
 * Node's flags for the host process (src-main/host/node-flags.json): a young generation of 4 MB
 * instead of Node's default of up to 128 MB, which a console running all day would keep
 * reserved after its first busy minute (the shift bench: host RSS +80 MB, flat with the flag).
 */
function hostNodeFlags() {
  return JSON.parse(readFileSync(join(root, 'src-main', 'host', 'node-flags.json'), 'utf8'));
}

/** Serves the console with the loopback host until it stops; in check mode, checks it and stops it. */
function serve(hostArgs, check) {
  const child = spawn(process.execPath, [...hostNodeFlags(), join(root, 'out', 'main', 'host.js'), ...hostArgs], {
    cwd: root,
    stdio: ['inherit', check ? 'pipe' : 'inherit', 'inherit'],
  });
  const forward = (sig) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  if (!check) {
    child.on('exit', (code) => process.exit(code ?? 0));
    return;
  }
  let outcome = null; // set once the check has run: the exit status it asks for
  let seen = '';
  const deadline = setTimeout(() => {
    console.error('check: FAILED: the host printed no address within 120 s.');
    outcome = 1;
    child.kill('SIGTERM');
  }, 120_000);
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    if (outcome !== null || seen === null) return;
    seen += chunk.toString();
    const address = servedAddress(seen);
    if (!address) return;
    seen = null;
    clearTimeout(deadline);
    checkServed(address)
      .then(
        (lines) => {
          for (const line of lines) console.log(line);
          outcome = 0;
        },
        (e) => {
          console.error(`check: FAILED: ${e instanceof Error ? e.message : String(e)}`);
          outcome = 1;
        },
      )
      .finally(() => child.kill('SIGTERM'));
  });
  child.on('exit', (code, signal) => {
    clearTimeout(deadline);
    if (outcome === null) {
      console.error(`check: FAILED: the host stopped (${signal ?? `exit ${code}`}) before it served the console.`);
      process.exit(code || 1);
    }
    if (outcome === 0 && code !== 0) {
      console.error(`check: FAILED: the host did not stop cleanly (${signal ?? `exit ${code}`}).`);
      process.exit(1);
    }
    if (outcome === 0) console.log('check: the console was served and answered; host stopped.');
    process.exit(outcome);
  });
}

function main(argv) {
  const older = olderNodeLine('scripts/start.mjs', process.versions.node, enginesNode(root));
  if (older) {
    console.error(older);
    process.exit(1);
  }
  const { check, hostArgs } = startArgs(argv);

  // A console already running on this profile is told about before anything is rebuilt under it.
  const builtHost = join(root, 'out', 'main', 'host.js');
  if (existsSync(builtHost)) {
    const busy = run(process.execPath, [builtHost, '--check', ...hostArgs]);
    if (busy.status === 1) process.exit(1);
  }

  const started = Date.now();
  const build = run(bin('electron-vite'), ['build']);
  if (build.status !== 0) process.exit(build.status ?? 1);
  console.log(`start: built in ${took(Date.now() - started)}.`);

  if (check) {
    console.log(`start: ${CHECK_FLAG}: serving the console on loopback to check it, then stopping.`);
    serve(hostArgs, true);
    return;
  }
  const headless = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
  let electron = process.env.CONSOLE_NO_ELECTRON ? null : electronBinary();
  if (!electron && !process.env.CONSOLE_NO_ELECTRON && !headless) {
    electron = fetchElectron() ? electronBinary() : null;
  }
  if (electron && !headless) {
    const child = spawn(electron, ['.'], { cwd: root, stdio: 'inherit' });
    child.on('exit', (code) => process.exit(code ?? 0));
    return;
  }
  console.log(
    headless
      ? 'No display: serving the console on loopback instead of opening a window.'
      : 'No Electron binary is available here: serving the console on loopback instead.',
  );
  serve(hostArgs, false);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main(process.argv.slice(2));
