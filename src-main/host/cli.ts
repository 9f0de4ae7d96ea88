// `node out/main/host.js`: the console without Electron, served on 127.0.0.1.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// An older Node than package.json `engines` is refused in one line before anything that needs a
// newer one is loaded (the services' modules would fail on it with a less helpful error).
const engines = ((): string | undefined => {
  try {
    return (JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { engines?: { node?: string } }).engines
      ?.node;
  } catch {
    return undefined;
  }
})();
const needs = Number(/(\d+)/.exec(engines ?? '')?.[1] ?? 0);
if (Number(process.versions.node.split('.')[0]) < needs) {
  process.stderr.write(
    `The console's host needs Node ${engines} (package.json engines), not Node ${process.versions.node}: run it through npm (npm start), which starts it on the project's Node.\n`,
  );
  process.exit(1);
}

// Node keeps the compiled code of the services' modules on disk between starts (its own compile
// cache, in the temporary folder unless NODE_COMPILE_CACHE names another): turned on before
// anything else is loaded, and handed to the demo stand-in's thread through the environment.
const { enableCompileCache } = await import('node:module');
const cache = enableCompileCache();
if (cache.directory) process.env.NODE_COMPILE_CACHE ??= cache.directory;

const { launch } = await import('./launch');
await launch(join(import.meta.dirname, '../renderer'));
