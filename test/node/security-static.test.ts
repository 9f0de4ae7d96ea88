import { test, expect } from '@playwright/test';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../../src-main/host/csp';

/**
 * The Electron checklist items that are properties of the code rather than of behaviour, read
 * from the source and from the built bundles (the lint rules of this project).
 */

const root = join(import.meta.dirname, '..', '..');
const SOURCE_DIRS = ['src-main', 'src-shared', 'src-renderer/src', 'src-standin'];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (n === 'node_modules') return [];
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

interface Source {
  path: string; // relative, with forward slashes
  code: string; // comments removed
}

/** Comments out (a mention in prose is no use of an API); strings stay. */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1').replace(/<!--[\s\S]*?-->/g, '');
}

const sources: Source[] = SOURCE_DIRS.flatMap((d) => walk(join(root, d)))
  .filter((p) => /\.(ts|mts|cts|js|mjs|svelte|html)$/.test(p))
  .map((p) => ({ path: relative(root, p).split(sep).join('/'), code: stripComments(readFileSync(p, 'utf8')) }));

const where = (re: RegExp) => sources.filter((s) => re.test(s.code)).map((s) => s.path).sort();

function built(path: string): string {
  const full = join(root, 'out', path);
  if (!existsSync(full)) throw new Error(`${path} is not built: run \`npx electron-vite build\` first (npm test does).`);
  return readFileSync(full, 'utf8');
}

test('the source scan sees the whole code base', () => {
  expect(sources.length).toBeGreaterThan(100);
  expect(sources.map((s) => s.path)).toContain('src-main/bridge/electron.ts');
});

test('raw ipcMain is used nowhere but the bridge wrapper; ipcRenderer only in the preload', () => {
  // Calls on ipcMain (handle, on, once...) live in the wrapper alone, which receives it as a parameter.
  expect(where(/\bipcMain\s*\??\.\s*\w+/)).toEqual(['src-main/bridge/electron.ts']);
  // index.ts imports it only to hand it to the wrapper.
  expect(where(/\bipcMain\b/)).toEqual(['src-main/bridge/electron.ts', 'src-main/index.ts']);
  const index = sources.find((s) => s.path === 'src-main/index.ts')!.code;
  expect(index.match(/\bipcMain\b/g)).toHaveLength(2);
  expect(index).toMatch(/registerIpcBridge\(\{\s*ipcMain,/);
  expect(where(/\bipcRenderer\b/)).toEqual(['src-main/preload.ts']);
  expect(where(/\bwebContents\s*\.\s*(ipc|on\(\s*['"]ipc-message)/)).toEqual([]);
});

test('only the shell and the preload import Electron', () => {
  expect(where(/from\s+['"]electron(\/[\w/]+)?['"]|require\(\s*['"]electron['"]\s*\)/)).toEqual(['src-main/index.ts', 'src-main/preload.ts']);
});

test('no remote module, no webview, no weakened web preferences anywhere', () => {
  expect(where(/@electron\/remote|enableRemoteModule|\bremote\s*\.\s*require/)).toEqual([]);
  expect(where(/<webview\b|webviewTag\s*:\s*true|WebContentsView|BrowserView/)).toEqual([]);
  expect(where(/nodeIntegration(InWorker|InSubFrames)?\s*:\s*true/)).toEqual([]);
  expect(where(/contextIsolation\s*:\s*false|sandbox\s*:\s*false|webSecurity\s*:\s*false|allowRunningInsecureContent\s*:\s*true|experimentalFeatures\s*:\s*true/)).toEqual([]);
  expect(where(/\bbypassCSP\b/)).toEqual([]);
  // One window, built from the hardened preferences.
  expect(where(/new\s+BrowserWindow\s*\(/)).toEqual(['src-main/index.ts']);
  const index = sources.find((s) => s.path === 'src-main/index.ts')!.code;
  expect(index).toMatch(/webPreferences:\s*hardenedWebPreferences\(/);
  expect(index).toMatch(/app\.enableSandbox\(\)/);
  expect(index).toMatch(/app\.on\('web-contents-created',[\s\S]*?hardenWebContents\(contents/);
  expect(index).toMatch(/setPermissionRequestHandler\(/);
  expect(index).toMatch(/setPermissionCheckHandler\(/);
});

test('no eval in our code; links leave only through the checked opener', () => {
  // One known exception: the stand-in's query engine compiles field readers whose names come
  // from its own field spec, JSON-encoded (src-standin/query-engine.ts plainReader). It runs in
  // the demo workspace's server, never in the renderer; any new use fails here.
  expect(where(/(^|[^\w.])eval\s*\(|new\s+Function\s*\(|setTimeout\(\s*['"`]|setInterval\(\s*['"`]/)).toEqual(['src-standin/query-engine.ts']);
  const engine = sources.find((s) => s.path === 'src-standin/query-engine.ts')!.code;
  expect(engine.match(/new\s+Function\s*\(/g)).toHaveLength(1);
  expect(engine).toMatch(/v\[\$\{JSON\.stringify\(n\)\}\]/);
  expect(where(/openExternal/)).toEqual(['src-main/index.ts', 'src-main/security/web-contents.ts']);
  expect(where(/\{@html\b|\.innerHTML\s*=|outerHTML\s*=|insertAdjacentHTML|document\.write\(/)).toEqual([]);
});

test('the renderer imports nothing from the main process, the stand-in, Node or Electron', () => {
  const renderer = sources.filter((s) => s.path.startsWith('src-renderer/'));
  expect(renderer.length).toBeGreaterThan(10);
  const bad = renderer.filter((s) => /from\s+['"](\.\.\/)+(src-main|src-standin)\/|from\s+['"](node:|electron|fs['"]|child_process)/.test(s.code));
  expect(bad.map((s) => s.path)).toEqual([]);
});

test('the built page carries a CSP without unsafe-eval or inline scripts, matching the served header', () => {
  const html = built('renderer/index.html');
  const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
  expect(meta).toBeTruthy();
  const directives = (csp: string) => new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k!, v.join(' ')]));
  const page = directives(meta!);
  const served = directives(CONTENT_SECURITY_POLICY);
  expect(page.get('script-src')).toBe("'self'");
  expect(served.get('script-src')).toBe("'self'");
  for (const csp of [meta!, CONTENT_SECURITY_POLICY]) {
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toContain('wasm-unsafe-eval');
    expect(csp).not.toMatch(/\*/);
  }
  expect(served.get('object-src')).toBe("'none'");
  expect(served.get('frame-ancestors')).toBe("'none'");
  expect(served.get('connect-src')).toBe("'self'");
  // Every directive of the page's policy is the same in the header (meta cannot carry frame-ancestors).
  for (const [k, v] of page) expect(served.get(k), k).toBe(v);
  // No inline script in the built page.
  expect(html.match(/<script\b[^>]*>/g)?.every((tag) => /\bsrc=/.test(tag))).toBe(true);
  expect(html).not.toMatch(/\son[a-z]+\s*=/i);
});

test('the built bundles keep the hardening: main wires the hardened window, the renderer has no Electron', () => {
  const main = readdirSync(join(root, 'out', 'main'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.js'))
    .map((f) => built(join('main', f)))
    .join('\n');
  expect(main).toMatch(/contextIsolation:\s*true/);
  expect(main).toMatch(/sandbox:\s*true/);
  expect(main).toMatch(/nodeIntegration:\s*false/);
  expect(main).toMatch(/webviewTag:\s*false/);
  expect(main).not.toMatch(/ipcMain\.(on|once|handleOnce)\(/);
  const assets = readdirSync(join(root, 'out', 'renderer', 'assets')).filter((f) => f.endsWith('.js'));
  expect(assets.length).toBeGreaterThan(0);
  for (const f of assets) {
    const js = built(join('renderer', 'assets', f));
    expect(js, f).not.toMatch(/require\(\s*["']electron["']\)|ipcRenderer|child_process/);
    expect(js, f).not.toMatch(/(^|[^\w.])eval\(/);
  }
});
