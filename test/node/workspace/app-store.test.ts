import { expect, test } from '@playwright/test';
import type { AppState } from '../../../src-shared/bridge';
import { importRunes, installFakeBridge } from '../../support/runes';
import type * as appModule from '../../../src-renderer/src/lib/app.svelte';
import type * as scopeModule from '../../../src-renderer/src/lib/scope.svelte';

type App = typeof appModule;

const state = (signedIn: boolean, locale = 'en-US'): AppState => ({
  workspaces: [],
  active: signedIn ? 'demo' : null,
  workspace: signedIn ? { kind: 'demo' } : null,
  baseUrl: signedIn ? 'http://127.0.0.1:1' : null,
  signedIn,
  tokenRefused: false,
  vault: { state: 'encrypted', detail: '' },
  user: signedIn ? { userName: 'ana', name: 'Ana' } : null,
  locale,
  setAside: [],
});

test("opening the demo signs in and opens its scope; signing out closes it; a refusal shows the service's words", async () => {
  let current = state(false);
  const bridge = await installFakeBridge({
    'workspace:state': () => current,
    'workspace:openDemo': () => (current = state(true)),
    'workspace:signOut': () => (current = state(false)),
    'workspace:connect': () => {
      throw new Error('The service refused this token.');
    },
  });
  const { AppStore } = await importRunes<App>('src-renderer/src/lib/app.svelte.ts');
  const { Scopes } = await importRunes<typeof scopeModule>('src-renderer/src/lib/scope.svelte.ts');
  const app = new AppStore(new Scopes());
  await app.load();
  expect([app.signedIn, app.shown]).toEqual([false, null]);

  expect(await app.openDemo()).toBe(true);
  expect([app.signedIn, app.state?.user?.name, app.busy]).toEqual([true, 'Ana', false]);
  await expect.poll(() => app.shown?.workspaceId).toBe('demo');
  const scope = app.shown!;

  expect(await app.signOut()).toBe(true);
  expect(app.signedIn).toBe(false);
  await expect.poll(() => scope.open).toBe(false);
  expect(app.shown).toBeNull();

  expect(await app.connect({ baseUrl: 'https://service.example', token: 't', allowWeakStorage: false })).toBe(false);
  expect(app.error).toContain('refused this token');
  expect(app.signedIn).toBe(false);

  // The main process says the workspace changed (another window signed in, then out).
  bridge.emit('workspace:state', state(true));
  await expect.poll(() => app.shown?.open).toBe(true);
  const again = app.shown!;
  expect(again).not.toBe(scope);
  bridge.emit('workspace:state', state(false));
  await expect.poll(() => again.open).toBe(false);
});
