import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The port the loopback host served a profile on last. A browser keeps what the page stores
 * (the chosen language, the theme, the queue's density…) per origin, and the origin holds the
 * port: asked for any free port, the host tries this one first so those choices survive a restart.
 */
const FILE = 'host-port';

export function lastHostPort(profileDir: string): number | null {
  try {
    const port = Number(readFileSync(join(profileDir, FILE), 'utf8').trim());
    return Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
  } catch {
    return null;
  }
}

/** Best effort: without it the next start takes any free port, as before. Written only when it changed. */
export function keepHostPort(profileDir: string, port: number): void {
  if (lastHostPort(profileDir) === port) return;
  try {
    writeFileSync(join(profileDir, FILE), String(port), { mode: 0o600 });
  } catch {
    // A read-only profile: the page's choices last for this run only.
  }
}
