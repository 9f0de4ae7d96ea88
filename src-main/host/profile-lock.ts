import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { systemClock } from '../clock';

/**
 * One console per profile. Two consoles on one profile both run the outbox on the same journal
 * and send every note twice, so the profile is locked before any service starts: a file created
 * exclusively (`wx`) holding the owner's pid and, once known, its address. A lock whose process
 * is gone is taken over.
 */
export const LOCK_FILE = 'console.lock';

const OwnerSchema = z.object({ pid: z.number().int().positive(), nonce: z.string(), address: z.string().nullable() });
export type LockOwner = z.infer<typeof OwnerSchema>;

/** A lock still being written by its owner reads as garbage for a moment: not stale that young. */
const UNWRITTEN_GRACE_MS = 5_000;

export class ProfileInUse extends Error {
  constructor(
    readonly profileDir: string,
    readonly owner: LockOwner | null,
  ) {
    super(
      `The profile ${profileDir} is in use by another console` +
        (owner ? ` (pid ${owner.pid}${owner.address ? `, at ${owner.address}` : ', still starting'})` : ' (starting now)') +
        ': use that one, or stop it first.',
    );
    this.name = 'ProfileInUse';
  }
}

export interface ProfileLock {
  /** Writes where this console can be opened, for a second start to point at. */
  setAddress(address: string): void;
  /** Removes the lock if it is still ours. */
  release(): void;
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // alive, but another user's
  }
};

function readOwner(file: string): LockOwner | 'unwritten' | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  try {
    return OwnerSchema.parse(JSON.parse(text));
  } catch {
    try {
      return systemClock.now() - statSync(file).mtimeMs < UNWRITTEN_GRACE_MS ? 'unwritten' : null;
    } catch {
      return null;
    }
  }
}

/**
 * Not synced to the disk: another console reads what was written at once, and a lock is only
 * for the life of its process. After a crash or a power cut its owner is gone either way, and a
 * lock written or not is stale. (A sync here held the launch up before the address.)
 */
function writeOwner(fd: number, owner: LockOwner): void {
  writeSync(fd, JSON.stringify(owner));
}

/** The console holding this profile, if one is alive; the lock is not taken. */
export function liveOwner(profileDir: string): LockOwner | null {
  const owner = readOwner(join(profileDir, LOCK_FILE));
  return owner && owner !== 'unwritten' && isAlive(owner.pid) && owner.pid !== process.pid ? owner : null;
}

export function lockProfile(profileDir: string): ProfileLock {
  mkdirSync(profileDir, { recursive: true, mode: 0o700 });
  const file = join(profileDir, LOCK_FILE);
  const me: LockOwner = { pid: process.pid, nonce: randomBytes(12).toString('hex'), address: null };

  // Bounded: each pass either takes the lock, finds a live owner, or removes one stale lock.
  for (let attempt = 0; attempt < 5; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const owner = readOwner(file);
      if (owner === 'unwritten') throw new ProfileInUse(profileDir, null);
      if (owner && isAlive(owner.pid)) throw new ProfileInUse(profileDir, owner);
      takeOverStale(file, owner, profileDir);
      continue;
    }
    try {
      writeOwner(fd, me);
    } finally {
      closeSync(fd);
    }
    return {
      setAddress(address) {
        me.address = address;
        // Replaced whole (write aside, rename over), so a reader never sees half of it.
        const tmp = `${file}.${me.nonce}.tmp`;
        const tfd = openSync(tmp, 'w', 0o600);
        try {
          writeOwner(tfd, me);
        } finally {
          closeSync(tfd);
        }
        renameSync(tmp, file);
      },
      release() {
        const owner = readOwner(file);
        if (owner && owner !== 'unwritten' && owner.nonce === me.nonce) {
          try {
            unlinkSync(file);
          } catch {
            /* already gone */
          }
        }
      },
    };
  }
  throw new ProfileInUse(profileDir, null);
}

/**
 * Moves a stale lock aside by rename, which only one of several starting consoles can win. If
 * what was moved turns out to be a live console's lock (written between the read and the rename),
 * it is put back and that console wins.
 */
function takeOverStale(file: string, seen: LockOwner | null, profileDir: string): void {
  const aside = `${file}.stale-${randomBytes(6).toString('hex')}`;
  try {
    renameSync(file, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return; // someone else took it over
    throw e;
  }
  const moved = readOwner(aside);
  const live = moved !== null && moved !== 'unwritten' && moved.nonce !== seen?.nonce && isAlive(moved.pid);
  if (live || moved === 'unwritten') {
    try {
      linkSync(aside, file);
    } catch {
      /* a third console holds it now; it wins either way */
    }
    unlinkSync(aside);
    throw new ProfileInUse(profileDir, live ? moved : null);
  }
  unlinkSync(aside);
}
