// `node out/main/host.js`: the console without Electron, served on 127.0.0.1.
import { enableCompileCache } from 'node:module';
import { join } from 'node:path';

// Node keeps the compiled code of the services' modules on disk between starts (its own compile
// cache, in the temporary folder unless NODE_COMPILE_CACHE names another): turned on before
// anything else is loaded, and handed to the demo stand-in's thread through the environment.
const cache = enableCompileCache();
if (cache.directory) process.env.NODE_COMPILE_CACHE ??= cache.directory;

const { launch } = await import('./launch');
await launch(join(import.meta.dirname, '../renderer'));
