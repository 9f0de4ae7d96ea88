import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { appendFile, cp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from '../../support/root';
import { tempDirs } from '../../support/temp-dirs';

/**
 * `npm run lint:messages` (scripts/check-messages.mjs): the catalogs agree with each other and
 * with the code. Run on a copy of the renderer's sources, with one fault of each kind planted.
 */

const newDir = tempDirs('messages-check-');

function check(root: string): { code: number | null; findings: string[] } {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts/check-messages.mjs'), root], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, findings: r.stderr.split('\n').filter(Boolean) };
}

async function copyTree(): Promise<string> {
  const dir = await newDir();
  await cp(join(ROOT, 'src-renderer/src'), join(dir, 'src-renderer/src'), { recursive: true });
  return dir;
}

type Catalog = Record<string, string>;
const catalogPath = (dir: string, lang: string) => join(dir, 'src-renderer/src/locales', `${lang}.json`);
async function editCatalog(dir: string, lang: string, edit: (c: Catalog) => void): Promise<void> {
  const c = JSON.parse(await readFile(catalogPath(dir, lang), 'utf8')) as Catalog;
  edit(c);
  await writeFile(catalogPath(dir, lang), JSON.stringify(c, null, 2));
}

test('the real tree: every key used exists in every catalog, none unused, the same arguments everywhere', () => {
  expect(check(ROOT)).toEqual({ code: 0, findings: [] });
});

test('a key the code asks for that no catalog has is a finding', async () => {
  const dir = await copyTree();
  await appendFile(join(dir, 'src-renderer/src/features/notes/strings.ts'), `export const planted = () => nt('n.plantedMissing');\n`);
  const r = check(dir);
  expect(r.code).toBe(1);
  expect(r.findings).toEqual([expect.stringMatching(/notes\/strings\.ts: nt\('n\.plantedMissing'\) is not in the catalogs/)]);
});

test('a key of the catalogs no code asks for is a finding', async () => {
  const dir = await copyTree();
  const langs = (await readdir(join(dir, 'src-renderer/src/locales'))).map((f) => f.replace(/\.json$/, ''));
  for (const l of langs) await editCatalog(dir, l, (c) => void (c['notes.n.plantedUnused'] = 'x {n}'));
  expect(check(dir)).toEqual({ code: 1, findings: ['en: notes.n.plantedUnused is not used by the code'] });
});

test('a key missing from one catalog, or taking other arguments there, is a finding', async () => {
  const dir = await copyTree();
  await editCatalog(dir, 'pt-BR', (c) => {
    delete c['core.queue.heading'];
    c['core.ws.back'] = 'Voltar para {nome}';
    c['core.queue.sessions'] = '{count} sessões';
  });
  const r = check(dir);
  expect(r.code).toBe(1);
  expect(r.findings.sort()).toEqual([
    'pt-BR: core.queue.heading is missing (the English catalog has it)',
    'pt-BR: core.queue.sessions takes {count:text}, English takes {count:plural}',
    'pt-BR: core.ws.back takes {nome:text}, English takes {name:text}',
  ]);
});
