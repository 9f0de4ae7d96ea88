import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import type { SecretCipher } from './types';
import { setAsideFile } from '../set-aside';

/**
 * Plain-Node cipher for the loopback host, where no OS keyring is reachable: AES-256-GCM with a
 * random key kept in the profile (mode 0600). Honest about it: the state is `weak`.
 */
/** The key kept in `path`, or null when it holds none (unreadable, or not 32 bytes). */
function readKey(path: string): Buffer | null {
  try {
    const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
    return key.length === 32 ? key : null;
  } catch {
    return null;
  }
}

export class KeyFileCipher implements SecretCipher {
  readonly #key: Buffer;

  constructor(profileDir: string) {
    mkdirSync(profileDir, { recursive: true });
    const path = join(profileDir, 'vault.key');
    const kept = existsSync(path) ? readKey(path) : null;
    if (kept) {
      this.#key = kept;
    } else {
      // None yet, or one that cannot be a key (cut short, a directory in its place): set aside,
      // and a new one made. What the old key sealed cannot be read: those workspaces sign in again.
      if (existsSync(path)) setAsideFile(path, 'not a 256-bit key');
      this.#key = randomBytes(32);
      writeFileSync(path, this.#key.toString('base64'), { mode: 0o600 });
    }
    chmodSync(path, 0o600);
  }

  state() {
    return 'weak' as const;
  }

  detail(): string {
    return 'No OS keyring is reachable: secrets are encrypted with a key kept in your profile folder, so anyone who can read that folder can read them.';
  }

  encrypt(plain: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  decrypt(sealed: Buffer): string {
    const decipher = createDecipheriv('aes-256-gcm', this.#key, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(12, 28));
    return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
  }
}
