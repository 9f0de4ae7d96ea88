// npm start: build, then open the console in Electron when a binary is (or can be made)
// available; otherwise serve the same console from the main-process services on loopback.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

function run(cmd, args, opts = {}) {
  return spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
}

// A console already running on this profile is told about before anything is rebuilt under it.
const builtHost = join(root, 'out', 'main', 'host.js');
if (existsSync(builtHost)) {
  const check = run(process.execPath, [builtHost, '--check', ...process.argv.slice(2)]);
  if (check.status === 1) process.exit(1);
}

const build = run(bin('electron-vite'), ['build']);
if (build.status !== 0) process.exit(build.status ?? 1);

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

const headless = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
let electron = process.env.CONSOLE_NO_ELECTRON ? null : electronBinary();
if (!electron && !process.env.CONSOLE_NO_ELECTRON && !headless) {
  electron = fetchElectron() ? electronBinary() : null;
}

if (electron && !headless) {
  const child = spawn(electron, ['.'], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log(
    headless
      ? 'No display: serving the console on loopback instead of opening a window.'
      : 'No Electron binary is available here: serving the console on loopback instead.',
  );
  const child = spawn(process.execPath, [join(root, 'out', 'main', 'host.js'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  const forward = (sig) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code) => process.exit(code ?? 0));
}
