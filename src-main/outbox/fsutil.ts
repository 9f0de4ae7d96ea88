import { noteSetAside } from '../set-aside';
import { removedFolderOf } from '../folders';
import { AppError } from '../../src-shared/errors';
import { chmod, open, rename, unlink, mkdir, readdir } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

/** Temporary files end with this; anything carrying it at start-up is an unfinished write. */
export const TMP_SUFFIX = '.tmp';

/**
 * fsync of a directory makes a rename or a new name durable on POSIX file systems. Windows
 * cannot open a directory for syncing, and NTFS journals the rename itself, so it is skipped.
 */
async function fsyncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Group commit for directory fsyncs: many renames that land while one fsync runs share the next
 * one. A caller is resolved only by an fsync that began after its own rename, so nothing is
 * acknowledged early.
 */
export class DirSyncer {
  #running: Promise<void> | null = null;
  #next: Promise<void> | null = null;
  /** How many directory fsyncs actually ran (the bench reports it). */
  fsyncs = 0;

  constructor(readonly dir: string) {}

  sync(): Promise<void> {
    if (this.#next) return this.#next;
    if (!this.#running) return this.#begin();
    const after = this.#running.then(
      () => undefined,
      () => undefined,
    );
    this.#next = after.then(() => {
      this.#next = null;
      return this.#begin();
    });
    return this.#next;
  }

  #begin(): Promise<void> {
    this.fsyncs++;
    const p = fsyncDir(this.dir).finally(() => {
      if (this.#running === p) this.#running = null;
    });
    this.#running = p;
    return p;
  }
}

/**
 * Writes a file so that after a crash at any moment the name holds either the old content or the
 * whole new content: temp file, fsync, rename over, fsync the directory.
 */
export async function writeFileDurable(syncer: DirSyncer, name: string, data: string): Promise<void> {
  const target = path.join(syncer.dir, name);
  const tmp = `${target}.${randomBytes(4).toString('hex')}${TMP_SUFFIX}`;
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(data, 'utf8');
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, target);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
  await syncer.sync();
}

/** Removes a file; a missing file is not an error (a crash may already have removed it). */
export async function removeFile(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/**
 * Makes a folder and everything under it private to this user (folders 0700, files 0600): what
 * it holds are customers' details and secrets. For data an older version left readable to other
 * local users; new files are created private. Links are not followed. No-op on Windows, where
 * modes do not apply (the profile sits in the user's own folder).
 */
export async function makePrivate(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  await chmod(dir, 0o700);
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await makePrivate(p);
    else if (e.isFile()) await chmod(p, 0o600);
  }
}

/** Makes `dir` if missing; refused inside a folder the console removed (folders.ts): nothing brings it back. */
export async function ensureDir(dir: string): Promise<void> {
  const gone = removedFolderOf(dir);
  if (gone) throw new AppError({ kind: 'Cancelled', message: `${gone} was removed (signed out): not written there.` });
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

/** Deletes leftovers of writes that never reached their rename: they were never acknowledged. */
export async function removeStaleTemps(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (name.endsWith(TMP_SUFFIX)) await removeFile(path.join(dir, name));
  }
}

/** Moves a file aside into `quarantineDir`, keeping its name and adding a time stamp. */
export async function quarantineFile(file: string, quarantineDir: string, now: number, reason = 'unreadable'): Promise<string> {
  await ensureDir(quarantineDir);
  const dest = path.join(quarantineDir, `${now}-${path.basename(file)}`);
  await rename(file, dest);
  // The page says what was set aside, as for every file the console could not read.
  noteSetAside({ file, keptAs: dest, reason });
  return dest;
}
