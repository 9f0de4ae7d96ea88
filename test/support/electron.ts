import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ROOT } from './root';

export { ROOT };

/** The Electron binary the electron package installed, or null where none could be fetched. */
export function electronBinary(): string | null {
  try {
    const rel = readFileSync(join(ROOT, 'node_modules', 'electron', 'path.txt'), 'utf8').trim();
    const full = join(ROOT, 'node_modules', 'electron', 'dist', rel);
    return existsSync(full) ? full : null;
  } catch {
    return null;
  }
}
