// Module hooks for Node tests of the renderer's stores: a `.svelte.ts` module is compiled the way
// the app's build compiles it (TypeScript stripped with the project's own compiler, then Svelte's
// runes compiled for the client), a `.svelte` component compiled for the client (a store test may
// set one up as a view would, without a page: its script only), and the renderer's extensionless
// imports resolve to their files.
// Synchronous hooks (`module.registerHooks`): they run in the test's own thread, ahead of the test
// runner's TypeScript loader, which would otherwise load a `.svelte.ts` file as plain TypeScript.
import { existsSync, readFileSync } from 'node:fs';
import type { LoadHookSync, ResolveHookSync } from 'node:module';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { compile, compileModule } from 'svelte/compiler';

const RUNES = /\.svelte\.(ts|js)$/;

export const resolve: ResolveHookSync = (specifier, context, next) => {
  // The build's asset imports (`./capture-worklet.ts?worker&url`): an address no store test loads.
  if (/\?(?:[^&]*&)*url$/.test(specifier)) return { url: 'data:text/javascript,export default "about:blank";', shortCircuit: true };
  const parent = context.parentURL;
  if (parent && RUNES.test(new URL(parent).pathname) && specifier.startsWith('.') && !/\.[cm]?[jt]s$/.test(specifier)) {
    for (const ext of ['.ts', '.svelte.ts', '/index.ts']) {
      const url = new URL(specifier + ext, parent);
      if (existsSync(fileURLToPath(url))) return { url: url.href, shortCircuit: true };
    }
  }
  return next(specifier, context);
};

const COMPONENT = /\.svelte$/;

export const load: LoadHookSync = (url, context, next) => {
  if (url.startsWith('file:') && COMPONENT.test(new URL(url).pathname)) {
    const filename = fileURLToPath(url);
    const compiled = compile(readFileSync(filename, 'utf8'), { filename, generate: 'client', dev: false });
    return { format: 'module', source: compiled.js.code, shortCircuit: true };
  }
  if (!url.startsWith('file:') || !RUNES.test(new URL(url).pathname)) return next(url, context);
  const filename = fileURLToPath(url);
  const source = readFileSync(filename, 'utf8');
  const js = filename.endsWith('.ts')
    ? ts.transpileModule(source, { fileName: filename, compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } })
        .outputText
    : source;
  const compiled = compileModule(js, { filename, generate: 'client', dev: false });
  return { format: 'module', source: compiled.js.code, shortCircuit: true };
};
