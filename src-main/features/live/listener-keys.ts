import { randomBytes } from 'node:crypto';
import type { FeatureContext } from '../context';

export const SECRET_PATH = 'webhook:path';
export const SECRET_SIGNING = 'webhook:signing';

export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The listener's path and signing secret are kept as the token is: sealed where the token is
 * sealed, with the consent the user gave for it where the protection is weak (never asked
 * again), so a service keeps delivering to the same address after a restart. Where the token
 * is not kept (the demo's, or none), neither are they: they live for this run.
 */
export function keepListenerKey(ctx: FeatureContext, name: string, value: string): void {
  try {
    ctx.vault.put(name, value, { allowWeak: ctx.vault.keepsToken });
  } catch {
    ctx.vault.put(name, value, { persist: false });
  }
}

/** The kept key `name`, or a new one made and kept; either way never logged. */
export function listenerKey(ctx: FeatureContext, name: string, make: () => string): string {
  const existing = ctx.vault.get(name);
  if (existing) {
    ctx.registerSecret(existing);
    return existing;
  }
  const value = make();
  keepListenerKey(ctx, name, value);
  ctx.registerSecret(value);
  return value;
}
