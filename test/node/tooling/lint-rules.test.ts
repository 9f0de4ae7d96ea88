import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { appendFile, cp, mkdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ROOT } from '../../support/root';
import { tempDirs } from '../../support/temp-dirs';

/**
 * `npm run lint` holds the house's rules (DESIGN.md §3): each rule is shown to fail on a
 * violation planted in a copy of the tree, so a rule that silently stopped matching (a moved
 * folder, a changed pattern) fails here. The copy keeps the real tree out of reach: a lint run
 * or a test scanning the sources at the same time never sees the planted files.
 */

const newDir = tempDirs('lint-rules-');

/** `n` statement lines of a function body, indented by `pad`. */
const statements = (n: number, pad: string): string => Array.from({ length: n }, (_, i) => `${pad}total += ${i};`).join('\n');

/** Each planted file: its path in the copy and its content. */
const PLANTED: Record<string, string> = {
  // ESLint
  'src-main/planted-floating.ts': `async function work(): Promise<void> {}\nexport function start(): void {\n  work();\n}\n`,
  'src-main/planted-misused.ts': `export function start(): void {\n  setTimeout(async () => {}, 1);\n}\n`,
  'src-main/planted-switch.ts': `type Kind = 'a' | 'b';\nexport function label(k: Kind): string {\n  switch (k) {\n    case 'a':\n      return 'A';\n  }\n  return '';\n}\n`,
  'src-main/planted-types.ts': `export interface PlantedShape {\n  n: number;\n}\n`,
  'src-main/planted-type-import.ts': `import { PlantedShape } from './planted-types';\nexport const shape: PlantedShape = { n: 1 };\n`,
  'src-main/planted-private.ts': `export class Counter {\n  private n = 0;\n  next(): number {\n    return ++this.n;\n  }\n}\n`,
  'src-renderer/src/planted-private.svelte.ts': `export class Store {\n  private n = $state(0);\n  get value(): number {\n    return this.n;\n  }\n}\n`,
  'src-renderer/src/PlantedFloating.svelte': `<script lang="ts">\n  async function load(): Promise<void> {}\n  load();\n</script>\n`,
  'src-standin/planted-http.ts': `import { createServer } from 'node:http';\nexport const serve = createServer;\n`,
  'src-main/planted-http-type.ts': `import type { Server } from 'node:http';\nexport type PlantedServer = Server;\n`,
  // Small units: a function over 80 lines (in TypeScript and in Svelte), a file over 450, a function past complexity 20.
  'src-standin/planted-long.ts': `export function long(): number {\n  let total = 0;\n${statements(80, '  ')}\n  return total;\n}\n`,
  'src-renderer/src/PlantedLong.svelte': `<script lang="ts">\n  function long(): number {\n    let total = 0;\n${statements(80, '    ')}\n    return total;\n  }\n  const n = long();\n</script>\n\n<p>{n}</p>\n`,
  'src-shared/planted-big.ts': Array.from({ length: 451 }, (_, i) => `export const n${i} = ${i};\n`).join(''),
  'src-main/planted-complex.ts': `export function grade(n: number): number {\n${Array.from({ length: 21 }, (_, i) => `  if (n === ${i}) return ${i};\n`).join('')}  return -1;\n}\n`,
  // At the limits: 80 lines, 20 paths through (not a finding).
  'src-main/planted-fits.ts': `export function fits(n: number): number {\n  let m = 0;\n${Array.from({ length: 19 }, (_, i) => `  if (n === ${i}) m += ${i};\n`).join('')}${'  m += 1;\n'.repeat(57)}  return m;\n}\n`,
  // dependency-cruiser
  'src-renderer/src/planted-main.ts': `import * as log from '../../src-main/log';\nexport const l = log;\n`,
  'src-renderer/src/planted-standin.ts': `import * as prng from '../../src-standin/prng';\nexport const p = prng;\n`,
  'src-renderer/src/planted-node.ts': `import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n`,
  'src-renderer/src/planted-electron.ts': `import * as electron from 'electron';\nexport const e = electron;\n`,
  'src-renderer/src/planted-node-via-shared.ts': `import * as sig from '../../src-shared/webhook-signature';\nexport const s = sig;\n`,
  // The bridge's schemas at run time in the page (zod in the first view); their types it may take.
  'src-renderer/src/planted-schemas.ts': `import { QueueItemSchema, type QueueItem } from '../../src-shared/bridge/attendance';\nexport const s = QueueItemSchema;\nexport type Q = QueueItem;\n`,
  'src-renderer/src/planted-schemas-types.ts': `import type { QueueItem } from '../../src-shared/bridge/attendance';\nexport type Q = QueueItem;\n`,
  'src-renderer/src/features/PlantedView.svelte': `<script lang="ts">\n  import { invoke } from '../lib/bridge';\n  void invoke;\n</script>\n`,
  // One renderer feature reaching into another past its public entry; through the entry (or its strings) it may.
  'src-renderer/src/features/history/planted-reach.ts': `import * as thread from '../attendance/thread.svelte';\nexport const t = thread;\n`,
  'src-renderer/src/features/history/planted-reach-entry.ts': `import * as attendance from '../attendance';\nexport const a = attendance;\n`,
  'src-renderer/src/features/history/planted-reach-strings.ts': `import * as strings from '../attendance/strings';\nexport const s = strings;\n`,
  'src-main/features/planted-standin.ts': `import * as prng from '../../src-standin/prng';\nexport const p = prng;\n`,
  'src-main/features/planted-standin-demo.ts': `import type { DemoStandin } from '../demo-standin';\nexport type D = DemoStandin;\n`,
  'src-standin/planted-main.ts': `import * as log from '../src-main/log';\nexport const l = log;\n`,
  'src-shared/planted-main.ts': `import * as log from '../src-main/log';\nexport const l = log;\n`,
  'src-main/planted-renderer.ts': `import * as tabs from '../src-renderer/src/lib/tabs';\nexport const t = tabs;\n`,
  'src-main/planted-electron.ts': `import { app } from 'electron';\nexport const a = app;\n`,
  'src-main/planted-cycle-a.ts': `import { b } from './planted-cycle-b';\nexport const a = (): number => b() + 1;\n`,
  'src-main/planted-cycle-b.ts': `import { a } from './planted-cycle-a';\nexport const b = (): number => a() - 1;\n`,
  // A loop of types alone is a loop too: neither part can be read or moved without the other.
  'src-main/planted-cycle-type-a.ts': `import type { B } from './planted-cycle-type-b';\nexport interface A {\n  b: B | null;\n}\n`,
  'src-main/planted-cycle-type-b.ts': `import type { A } from './planted-cycle-type-a';\nexport interface B {\n  a: A | null;\n}\n`,
  // A web test reading records with the product's readers; a node test may (it pins them).
  'test/web/planted-readers.ts': `import { idOf } from '../../src-shared/concepts';\nimport { splitRef } from '../../src-shared/note-ref';\nexport const r = [idOf, splitRef];\n`,
  'test/node/planted-readers.ts': `import { idOf } from '../../src-shared/concepts';\nexport const r = idOf;\n`,
  // Prettier
  'src-shared/planted-format.ts': `export const  planted = {a:1,\n  b : 2}\n`,
  // knip: a file nothing imports (every planted file above is one too)
  'src-main/planted-orphan.ts': `export const orphan = 1;\n`,
};
/**
 * One rule per concern: each raw form planted outside its one module, with the module the
 * finding's message must name (the one place to use instead).
 */
const ONE_PLACE: Record<string, { file: string; text: string; place: string }> = {
  'error-text': {
    file: 'src-main/planted-one-place-error-text.ts',
    text: `export const say = (e: unknown): string => (e instanceof Error ? e.message : String(e));\n`,
    place: 'src-shared/error-text.ts',
  },
  clock: {
    file: 'src-main/planted-one-place-clock.ts',
    text: `export const stamp = (): string => new Date().toISOString();\nexport const ms = (): number => Date.now();\n`,
    place: 'src-main/clock.ts',
  },
  backoff: {
    file: 'src-main/planted-one-place-backoff.ts',
    text: `export const wait = (failures: number): number => 1_000 * 2 ** failures;\nexport const next = (lastMs: number): number => lastMs * 2;\n`,
    place: 'src-shared/error-kinds.ts',
  },
  eqnum: {
    file: 'src-main/planted-one-place-eqnum.ts',
    text: `export const bySession = (id: number) => ({ key: 'sessionId', operator: 'EQNUM', value: String(id) });\n`,
    place: 'src-shared/query-builder.ts',
  },
  documents: {
    file: 'src-standin/planted-one-place-documents.ts',
    text: `export const CPF = /\\d{3}\\.?\\d{3}\\.?\\d{3}-?\\d{2}/g;\nexport const CNPJ = new RegExp('\\\\d{2}\\\\.?\\\\d{3}\\\\.?\\\\d{3}/?\\\\d{4}-?\\\\d{2}');\nexport function isValidCpf(s: string): boolean {\n  return s.length === 11;\n}\n`,
    place: 'src-shared/documents.ts',
  },
  template: {
    file: 'src-main/planted-one-place-template.ts',
    text: `export const fill = (t: string, n: string): string => t.replace(/\\{\\{1\\}\\}/g, n).replaceAll('{port}', n);\n`,
    place: 'src-shared/template.ts',
  },
  'date-format': {
    file: 'src-renderer/src/planted-one-place-date-format.ts',
    text:
      `export const at = (ms: number): string => new Date(ms).toLocaleTimeString('pt-BR');\n` +
      `export const day = new Intl.DateTimeFormat('en', { day: '2-digit' });\n` +
      `export const wait = (s: number): string => \`\${Math.floor(s / 60)}m \${String(s % 60).padStart(2, '0')}s\`;\n`,
    place: 'src-renderer/src/lib/format.ts',
  },
};
for (const { file, text } of Object.values(ONE_PLACE)) PLANTED[file] = text;

/** knip: an export nothing uses, added to a module the console does use. */
const UNUSED_EXPORT = { file: 'src-standin/prng.ts', name: 'plantedUnusedExport' };
/** knip: a dependency package.json lists and no file imports (installed, as a transitive one). */
const UNUSED_DEPENDENCY = 'ms';

/** A copy of the tree (node_modules linked) with the violations planted. */
async function plantedCopy(): Promise<string> {
  const dir = await newDir();
  const skip = new Set(['node_modules', '.git', 'out', 'test-results', 'playwright-report']);
  await cp(ROOT, dir, { recursive: true, filter: (src) => !skip.has(src.slice(ROOT.length + 1).split('/')[0] ?? '') });
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const [path, text] of Object.entries(PLANTED)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  await appendFile(join(dir, UNUSED_EXPORT.file), `\nexport const ${UNUSED_EXPORT.name} = 1;\n`);
  const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  pkg.dependencies[UNUSED_DEPENDENCY] = '*';
  await writeFile(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  return dir;
}

/** Runs a tool's own script (from node_modules/.bin) with this Node in `cwd`: its exit code and output. */
async function run(tool: string, args: string[], cwd: string): Promise<{ code: number | null; out: string; err: string }> {
  const script = await realpath(join(ROOT, 'node_modules', '.bin', tool));
  return new Promise((resolve, reject) => {
    // Plain text: the test runner asks its children for colour.
    const env = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' };
    const child = spawn(process.execPath, [script, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

interface EslintResult {
  filePath: string;
  messages: Array<{ ruleId: string | null; message: string }>;
}
interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: Array<{ name: string }>;
}
interface KnipReport {
  issues: Array<{
    file: string;
    files?: Array<{ name: string }>;
    exports?: Array<{ name: string }>;
    dependencies?: Array<{ name: string }>;
  }>;
}

test.describe.configure({ timeout: 300_000 });

let copy: string;
test.beforeAll(async () => {
  copy = await plantedCopy();
});

test('ESLint: each named rule fails on its planted violation, in TypeScript and in Svelte', async () => {
  const files = Object.keys(PLANTED).filter((p) =>
    /planted-(floating|misused|switch|type-import|private|http|long|fits|big|complex)|Planted(Floating|Long)/.test(p),
  );
  const r = await run('eslint', ['--format', 'json', ...files], copy);
  expect(r.code, r.err).toBe(1);
  const results = JSON.parse(r.out) as EslintResult[];
  const rulesIn = (path: string) => results.find((x) => x.filePath === join(copy, path))?.messages.map((m) => m.ruleId) ?? [];

  expect(rulesIn('src-main/planted-floating.ts')).toContain('@typescript-eslint/no-floating-promises');
  expect(rulesIn('src-main/planted-misused.ts')).toContain('@typescript-eslint/no-misused-promises');
  expect(rulesIn('src-main/planted-switch.ts')).toContain('@typescript-eslint/switch-exhaustiveness-check');
  expect(rulesIn('src-main/planted-type-import.ts')).toContain('@typescript-eslint/consistent-type-imports');
  // The private-member style: the TypeScript keyword is refused, with the message saying why.
  expect(rulesIn('src-main/planted-private.ts')).toContain('no-restricted-syntax');
  const privateMessage = results.flatMap((x) => x.messages).find((m) => m.ruleId === 'no-restricted-syntax')?.message;
  expect(privateMessage).toMatch(/#name/);
  // node:http's values come from src-shared/node-http.ts (its ES import costs a start ~20 ms a thread); its types may be imported.
  expect(rulesIn('src-standin/planted-http.ts')).toContain('@typescript-eslint/no-restricted-imports');
  expect(rulesIn('src-main/planted-http-type.ts')).not.toContain('@typescript-eslint/no-restricted-imports');
  // Svelte: components and rune modules are read with the TypeScript parser and its types.
  expect(rulesIn('src-renderer/src/planted-private.svelte.ts')).toContain('no-restricted-syntax');
  expect(rulesIn('src-renderer/src/PlantedFloating.svelte')).toContain('@typescript-eslint/no-floating-promises');
  // Small units, in every source folder and in Svelte components too.
  expect(rulesIn('src-standin/planted-long.ts')).toContain('max-lines-per-function');
  expect(rulesIn('src-renderer/src/PlantedLong.svelte')).toContain('max-lines-per-function');
  expect(rulesIn('src-shared/planted-big.ts')).toContain('max-lines');
  expect(rulesIn('src-main/planted-complex.ts')).toContain('complexity');
  // A function at the limits is not a finding.
  expect(rulesIn('src-main/planted-fits.ts')).toEqual([]);
});

test('ESLint: one rule per concern refuses each raw form outside its one module, naming that module', async () => {
  const r = await run('eslint', ['--format', 'json', ...Object.values(ONE_PLACE).map((c) => c.file)], copy);
  expect(r.code, r.err).toBe(1);
  const results = JSON.parse(r.out) as EslintResult[];
  for (const [concern, { file, place }] of Object.entries(ONE_PLACE)) {
    const found = results.find((x) => x.filePath === join(copy, file))?.messages.filter((m) => m.ruleId === `one-place/${concern}`) ?? [];
    expect(found.length, `${concern} in ${file}`).toBeGreaterThan(0);
    expect(found[0]!.message).toContain(place);
  }
});

test('dependency-cruiser: each import rule of the house fails on its planted import', async () => {
  const files = Object.keys(PLANTED).filter((p) =>
    /planted-(main|standin|node|electron|renderer|cycle|readers|reach|schemas)|PlantedView/.test(p),
  );
  const r = await run('depcruise', ['--output-type', 'json', ...files], copy);
  const violations = (JSON.parse(r.out) as { summary: { violations: Violation[] } }).summary.violations;
  const broken = (rule: string) => violations.filter((v) => v.rule.name === rule).map((v) => `${v.from} -> ${v.to}`);

  expect(broken('renderer-not-main')).toContain('src-renderer/src/planted-main.ts -> src-main/log.ts');
  expect(broken('renderer-not-standin')).toContain('src-renderer/src/planted-standin.ts -> src-standin/prng.ts');
  const noNode = broken('renderer-no-node');
  expect(noNode).toContain('src-renderer/src/planted-node.ts -> fs');
  expect(noNode.some((v) => v.startsWith('src-renderer/src/planted-electron.ts -> ') && v.includes('node_modules/electron/'))).toBe(true);
  // Through a shared module: the renderer reaches Node's crypto by way of the webhook signature.
  expect(noNode).toContain('src-renderer/src/planted-node-via-shared.ts -> crypto');
  expect(broken('renderer-schemas-types-only')).toEqual(['src-renderer/src/planted-schemas.ts -> src-shared/bridge/attendance.ts']);
  expect(broken('views-not-bridge')).toContain('src-renderer/src/features/PlantedView.svelte -> src-renderer/src/lib/bridge.ts');
  expect(broken('features-not-standin')).toContain('src-main/features/planted-standin.ts -> src-standin/prng.ts');
  expect(broken('features-not-standin')).toContain('src-main/features/planted-standin-demo.ts -> src-main/demo-standin.ts');
  expect(broken('standin-separate')).toContain('src-standin/planted-main.ts -> src-main/log.ts');
  expect(broken('shared-self-contained')).toContain('src-shared/planted-main.ts -> src-main/log.ts');
  expect(broken('main-not-renderer')).toContain('src-main/planted-renderer.ts -> src-renderer/src/lib/tabs.ts');
  expect(broken('electron-only-in-shell').some((v) => v.startsWith('src-main/planted-electron.ts -> '))).toBe(true);
  expect(broken('features-through-entry').sort()).toEqual([
    'src-renderer/src/features/history/planted-reach-strings.ts -> src-renderer/src/features/attendance/strings.ts',
    'src-renderer/src/features/history/planted-reach.ts -> src-renderer/src/features/attendance/thread.svelte.ts',
  ]);
  expect(broken('no-circular')).toContain('src-main/planted-cycle-a.ts -> src-main/planted-cycle-b.ts');
  expect(broken('no-circular')).toContain('src-main/planted-cycle-type-a.ts -> src-main/planted-cycle-type-b.ts');
  expect(broken('web-tests-own-readers').sort()).toEqual([
    'test/web/planted-readers.ts -> src-shared/concepts.ts',
    'test/web/planted-readers.ts -> src-shared/note-ref.ts',
  ]);

  // As `npm run lint:imports` runs it (the default reporter): the finding fails the run.
  const plain = await run('depcruise', ['src-main/planted-cycle-a.ts'], copy);
  expect(plain.code).not.toBe(0);
  expect(plain.out).toContain('error no-circular: src-main/planted-cycle-a.ts');
});

test('knip: an export nothing uses, a file nothing imports and a dependency nothing imports are findings', async () => {
  const r = await run('knip', ['--no-progress', '--reporter', 'json'], copy);
  expect(r.code, r.err).toBe(1);
  const report = JSON.parse(r.out) as KnipReport;
  const exportsOf = (file: string) => report.issues.find((i) => i.file === file)?.exports?.map((e) => e.name) ?? [];
  expect(exportsOf(UNUSED_EXPORT.file)).toContain(UNUSED_EXPORT.name);
  const unusedFiles = report.issues.flatMap((i) => i.files?.map((f) => f.name) ?? []);
  expect(unusedFiles).toContain('src-main/planted-orphan.ts');
  const unusedDependencies = report.issues
    .filter((i) => i.file === 'package.json')
    .flatMap((i) => i.dependencies?.map((d) => d.name) ?? []);
  expect(unusedDependencies).toContain(UNUSED_DEPENDENCY);
});

test('Prettier: a file off the house format is a finding', async () => {
  const r = await run('prettier', ['--check', 'src-shared/planted-format.ts', 'src-shared/errors.ts'], copy);
  expect(r.code).toBe(1);
  expect(r.err).toContain('src-shared/planted-format.ts');
  expect(r.err).not.toContain('src-shared/errors.ts');
});
