import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHost, type Host } from '../../src-main/host/start-host';

export const RENDERER_DIR = join(import.meta.dirname, '..', '..', 'out', 'renderer');

export function freshProfile(): string {
  return mkdtempSync(join(tmpdir(), 'console-profile-'));
}

/** Starts the loopback host (the same services as the Electron shell) on a profile folder. */
export async function launchHost(profileDir: string, locale = 'en-US'): Promise<Host> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    throw new Error('The renderer is not built: run `npm run build` (npm test does it first).');
  }
  return startHost({ profileDir, rendererDir: RENDERER_DIR, port: 0, locale });
}
