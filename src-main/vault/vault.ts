import { AppError } from '../../src-shared/errors';
import type { VaultState } from '../../src-shared/bridge';
import type { KeyValueStore, SecretCipher } from './types';

const NAMES_KEY = 'secretNames';

/**
 * Holds the service token and provider credentials. Secrets are stored only encrypted; in the
 * `unavailable` state they live in memory for this run only; in the `weak` state the user must
 * consent before anything is written. Nothing here ever returns a secret to the bridge.
 */
export class Vault {
  #memory = new Map<string, string>();
  #refused = false;

  readonly #cipher: SecretCipher;
  readonly #store: KeyValueStore;
  constructor(cipher: SecretCipher, store: KeyValueStore) {
    this.#cipher = cipher;
    this.#store = store;
  }

  get state(): VaultState {
    return this.#cipher.state();
  }

  get detail(): string {
    return this.#cipher.detail();
  }

  /** Stores a secret. In the weak state, `allowWeak` (the user's consent) is required. */
  put(name: string, secret: string, opts: { allowWeak?: boolean; persist?: boolean } = {}): void {
    this.#memory.set(name, secret);
    if (name === 'token') this.#refused = false;
    if (opts.persist === false) return;
    const state = this.#cipher.state();
    if (state === 'unavailable') return; // memory only, said in the state detail
    if (state === 'weak' && !opts.allowWeak) {
      throw new AppError({
        kind: 'Invalid',
        field: 'allowWeakStorage',
        message:
          'This machine offers no keyring, so the token could only be kept with weak protection. Tick the box to accept that, or the console will ask for the token at every start.',
      });
    }
    this.#store.set(`secret.${name}`, this.#cipher.encrypt(secret).toString('base64'));
    // Remembered so that sign-out can wipe secrets this run never read (a provider's key).
    const names = this.#storedNames();
    if (!names.includes(name)) this.#store.set(NAMES_KEY, [...names, name]);
  }

  #storedNames(): string[] {
    const raw = this.#store.get(NAMES_KEY);
    return Array.isArray(raw) ? raw.filter((n): n is string => typeof n === 'string') : [];
  }

  get(name: string): string | null {
    const cached = this.#memory.get(name);
    if (cached !== undefined) return cached;
    const sealed = this.#store.get(`secret.${name}`);
    if (typeof sealed !== 'string' || this.#cipher.state() === 'unavailable') return null;
    try {
      const plain = this.#cipher.decrypt(Buffer.from(sealed, 'base64'));
      this.#memory.set(name, plain);
      return plain;
    } catch {
      // A secret sealed under another key (profile copied to another machine): forget it.
      this.#store.delete(`secret.${name}`);
      return null;
    }
  }

  /**
   * The token is kept sealed on disk: with a keyring, or with the user's consent to weak
   * protection (given when they connected). Other secrets of the workspace may be kept as it is.
   */
  get keepsToken(): boolean {
    return this.#cipher.state() !== 'unavailable' && typeof this.#store.get('secret.token') === 'string';
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  /** The service refused the token: keep it out of use until the user signs in again. */
  markRefused(): void {
    this.#refused = true;
  }

  get tokenRefused(): boolean {
    return this.#refused;
  }

  /** Forgets one secret, in memory and on disk. */
  remove(name: string): void {
    this.#memory.delete(name);
    this.#store.delete(`secret.${name}`);
    const names = this.#storedNames();
    if (names.includes(name))
      this.#store.set(
        NAMES_KEY,
        names.filter((n) => n !== name),
      );
  }

  /** Signing out wipes every secret, from memory and from disk. */
  wipe(): void {
    for (const name of new Set([...this.#memory.keys(), ...this.#storedNames(), 'token'])) this.#store.delete(`secret.${name}`);
    this.#store.delete(NAMES_KEY);
    // conf nests dotted keys: this drops any sealed secret left under `secret`.
    this.#store.delete('secret');
    this.#memory.clear();
    this.#refused = false;
  }
}
