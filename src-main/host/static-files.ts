import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, extname, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.wav': 'audio/wav',
};

export interface StaticFile {
  body: Buffer;
  type: string;
}

/**
 * The renderer's built files, read once at start: only these paths are ever served, so no
 * request can reach outside the bundle (no path joins on request input).
 */
export function loadStaticFiles(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else {
        const type = TYPES[extname(name).toLowerCase()];
        if (type) files.set('/' + relative(dir, full).split(sep).join('/'), { body: readFileSync(full), type });
      }
    }
  };
  walk(dir);
  return files;
}
