import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const root = import.meta.dirname;

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // Bundled rather than loaded from node_modules file by file: the host prints its address
      // and answers the page sooner (module resolution was most of their load time). The demo
      // stand-in's knowledge-base parsers are bundled too, into chunks its worker loads only when
      // a file of their type is uploaded: they serve the stand-in alone, so the console does not
      // ship them as dependencies. (@e965/xlsx stays a dependency: the console's own XLSX
      // export will need it.)
      externalizeDeps: { exclude: ['zod', 'undici', 'conf', 'unpdf', 'mammoth', 'fast-xml-parser'] },
      rolldownOptions: {
        // index: the Electron shell; host: the same services served on loopback without Electron;
        // standin-worker: the demo stand-in's thread (src-standin/worker-host.ts finds it here).
        input: {
          index: resolve(root, 'src-main/index.ts'),
          host: resolve(root, 'src-main/host/cli.ts'),
          'standin-worker': resolve(root, 'src-standin/worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rolldownOptions: {
        input: { preload: resolve(root, 'src-main/preload.ts') },
        // A sandboxed preload must be a single CommonJS file.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src-renderer'),
    plugins: [svelte()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      rolldownOptions: { input: resolve(root, 'src-renderer/index.html') },
    },
  },
});
