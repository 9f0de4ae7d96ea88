import { chmod, open, readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The stand-in's file helpers. It is a separate program from the console (it runs as the demo
 * workspace's server and in tests), so it keeps its own rather than borrowing the console's.
 */

let tmpCounter = 0;

/** Writes a file whole or not at all: temp file, fsync, rename over, fsync of the directory. */
export async function writeAtomic(dir: string, file: string, text: string): Promise<void> {
  const tmp = join(dir, `.${file}.${process.pid}.${++tmpCounter}.tmp`);
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(text, 'utf8');
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, join(dir, file));
  const dh = await open(dir, 'r');
  try {
    await dh.sync();
  } finally {
    await dh.close();
  }
}

/**
 * The data folder and all it holds private to this user (folders 0700, files 0600): customers'
 * details and every user's token, also where an older version left them readable. Links are not
 * followed; nothing to do on Windows, where modes do not apply.
 */
export async function keepPrivate(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  await chmod(dir, 0o700);
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const at = join(entry.parentPath, entry.name);
    if (entry.isDirectory()) await chmod(at, 0o700);
    else if (entry.isFile()) await chmod(at, 0o600);
  }
}
