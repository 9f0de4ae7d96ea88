import { renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { errorText } from '../src-shared/error-text';
import { systemClock } from './clock';

/**
 * Files the console could not read and set aside, so that one bad file never stops it: each is
 * renamed (or moved) with its time, kept for whoever wants to look, and the page says so in one
 * line. One list for the whole process; each console shows those under its own profile.
 */

export interface SetAside {
  /** The path the console read. */
  file: string;
  /** Where the unreadable file (or directory) now is. */
  keptAs: string;
  /** Why it could not be read. */
  reason: string;
}

/** A few per start at most; a bound keeps a loop of bad files from growing the list. */
const MAX_NOTED = 200;
const noted: SetAside[] = [];

export function noteSetAside(entry: SetAside): void {
  if (noted.length >= MAX_NOTED) noted.shift();
  noted.push(entry);
}

/** A time for a file name: no colons (Windows refuses them). */
const stamp = (at: number) => new Date(at).toISOString().replace(/:/g, '-');

/**
 * Renames `file` (a file, or a directory standing in its place) beside itself as
 * `<name>.unreadable-<time>` and notes it; the new name.
 */
export function setAsideFile(file: string, reason: string, now = systemClock.now()): string {
  let keptAs = join(dirname(file), `${basename(file)}.unreadable-${stamp(now)}`);
  for (let n = 2; n < 100; n++) {
    try {
      renameSync(file, keptAs);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOTEMPTY' && (e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      keptAs = join(dirname(file), `${basename(file)}.unreadable-${stamp(now)}-${n}`);
    }
  }
  noteSetAside({ file, keptAs, reason });
  return keptAs;
}

/** What was set aside under `dir` (a profile, a workspace's folder), oldest first. */
export function setAsideUnder(dir: string): SetAside[] {
  const prefix = dir.endsWith('/') || dir.endsWith('\\') ? dir : `${dir}/`;
  return noted.filter((e) => e.file.startsWith(prefix) || e.file.startsWith(dir + '\\'));
}

/** The reason a read failed, in a few words. */
export function whyUnreadable(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (code === 'EISDIR') return 'a directory stands in its place';
  if (e instanceof SyntaxError) return 'not readable as JSON';
  return errorText(e).slice(0, 200);
}
