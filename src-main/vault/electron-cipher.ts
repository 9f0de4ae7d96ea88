import type { SecretCipher } from './types';

/** The parts of Electron's safeStorage we use; passed in so this file never imports electron. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(sealed: Buffer): string;
  getSelectedStorageBackend?(): string;
}

export function createSafeStorageCipher(safeStorage: SafeStorageLike, platform: NodeJS.Platform): SecretCipher {
  const state = () => {
    if (!safeStorage.isEncryptionAvailable()) return 'unavailable' as const;
    // On Linux without a keyring Chromium falls back to a hard-coded key: that is weak.
    if (platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text') return 'weak' as const;
    return 'encrypted' as const;
  };
  return {
    state,
    detail: () =>
      ({
        encrypted: "Secrets are encrypted with your operating system's keyring.",
        weak: 'No OS keyring was found: secrets can only be kept with weak protection on this machine.',
        unavailable: 'Encryption is unavailable: secrets are kept in memory for this run only.',
      })[state()],
    encrypt: (plain) => safeStorage.encryptString(plain),
    decrypt: (sealed) => safeStorage.decryptString(sealed),
  };
}
