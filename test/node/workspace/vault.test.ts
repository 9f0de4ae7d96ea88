import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Vault } from '../../../src-main/vault/vault';
import { KeyFileCipher } from '../../../src-main/vault/node-cipher';
import { createConfStore } from '../../../src-main/vault/conf-store';
import { createSafeStorageCipher } from '../../../src-main/vault/electron-cipher';
import { isAppError } from '../../../src-shared/errors';

const TOKEN = 'tok_live_9f8e7d6c5b4a39281706';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

test('in the weak state the token is stored only with consent, and never in clear', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vault-'));
  const vault = new Vault(new KeyFileCipher(dir), createConfStore(dir, 'vault'));
  expect(vault.state).toBe('weak');
  let refused: unknown;
  try {
    vault.put('token', TOKEN);
  } catch (e) {
    refused = e;
  }
  expect(isAppError(refused) && refused.kind === 'Invalid').toBe(true);
  vault.put('token', TOKEN, { allowWeak: true });
  for (const f of filesUnder(dir)) expect(readFileSync(f, 'utf8'), f).not.toContain(TOKEN);
  // A new process (new vault over the same profile) reads it back.
  const again = new Vault(new KeyFileCipher(dir), createConfStore(dir, 'vault'));
  expect(again.get('token')).toBe(TOKEN);
  again.wipe();
  expect(new Vault(new KeyFileCipher(dir), createConfStore(dir, 'vault')).get('token')).toBeNull();
});

test('a refused token is marked until the user signs in again', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vault-'));
  const vault = new Vault(new KeyFileCipher(dir), createConfStore(dir, 'vault'));
  vault.put('token', TOKEN, { allowWeak: true });
  vault.markRefused();
  expect(vault.tokenRefused).toBe(true);
  vault.put('token', 'tok_new_123456789', { allowWeak: true });
  expect(vault.tokenRefused).toBe(false);
});

test('safeStorage states map to encrypted, weak and unavailable', () => {
  const fake = (available: boolean, backend: string) => ({
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString: (s: string) => Buffer.from([...Buffer.from(s)].reverse()),
    decryptString: (b: Buffer) => Buffer.from([...b].reverse()).toString(),
  });
  expect(createSafeStorageCipher(fake(true, 'gnome_libsecret'), 'linux').state()).toBe('encrypted');
  expect(createSafeStorageCipher(fake(true, 'basic_text'), 'linux').state()).toBe('weak');
  expect(createSafeStorageCipher(fake(false, 'unknown'), 'linux').state()).toBe('unavailable');
  expect(createSafeStorageCipher(fake(true, 'basic_text'), 'darwin').state()).toBe('encrypted');

  // Unavailable: kept in memory for this run, nothing written.
  const dir = mkdtempSync(join(tmpdir(), 'vault-'));
  const store = createConfStore(dir, 'vault');
  const vault = new Vault(createSafeStorageCipher(fake(false, 'unknown'), 'linux'), store);
  vault.put('token', TOKEN);
  expect(vault.get('token')).toBe(TOKEN);
  expect(new Vault(createSafeStorageCipher(fake(false, 'unknown'), 'linux'), createConfStore(dir, 'vault')).get('token')).toBeNull();
});

test('one secret can be forgotten without touching the others', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vault-'));
  const vault = new Vault(new KeyFileCipher(dir), createConfStore(dir, 'vault'));
  vault.put('token', TOKEN, { allowWeak: true });
  vault.put('provider:openai', '{"token":"sk-provider-secret-1"}', { allowWeak: true });
  vault.remove('provider:openai');
  const again = new Vault(new KeyFileCipher(dir), createConfStore(dir, 'vault'));
  expect(again.get('provider:openai')).toBeNull();
  expect(again.get('token')).toBe(TOKEN);
});
