import type { VaultState } from '../../src-shared/bridge';

/** Encrypts secrets at rest. Electron: safeStorage. Plain Node: a key file in the profile (weak). */
export interface SecretCipher {
  state(): VaultState;
  /** Why the state is what it is, in words for the user. */
  detail(): string;
  encrypt(plain: string): Buffer;
  decrypt(sealed: Buffer): string;
}

/** A small persistent key-value store: electron-store inside Electron, conf in plain Node (same file). */
export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}
